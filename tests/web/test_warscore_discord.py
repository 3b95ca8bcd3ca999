"""`/discord/interactions`: requests signed by a test key exactly as Discord signs them.

Expected figures come from the source's worked example, computed by hand there (Mordor
112.50, Gondor 175.53, 156%, an Operational Victory for the defender).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import httpx
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from fastapi.testclient import TestClient

from tests.web.discord_support import (
    APPLICATION,
    CDN,
    TOKEN,
    FakeDiscord,
    attachment,
    battle_interaction,
    discord_app,
    post_signed,
    sheet,
    signed_headers,
    two_sheets,
)

PING = {"id": "1", "application_id": APPLICATION, "type": 1, "token": TOKEN, "version": 1}


@pytest.fixture(scope="module")
def key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.generate()


@pytest.fixture(scope="module")
def shared_fake() -> FakeDiscord:
    return FakeDiscord()


@pytest.fixture
def fake(shared_fake: FakeDiscord) -> FakeDiscord:
    """The module's Discord stand-in, emptied: each test sees only its own files, fetches
    and edits."""
    shared_fake.files.clear()
    shared_fake.edits.clear()
    shared_fake.fetched.clear()
    return shared_fake


@pytest.fixture(scope="module")
def service(key: Ed25519PrivateKey, shared_fake: FakeDiscord) -> Iterator[TestClient]:
    """One service for the module: a service costs about half a second to start and serve,
    and the endpoint keeps nothing between interactions."""
    with TestClient(discord_app(key, shared_fake), raise_server_exceptions=False) as started:
        yield started


@pytest.fixture
def client(service: TestClient, fake: FakeDiscord) -> TestClient:
    return service


def _ping_body() -> bytes:
    return json.dumps(PING).encode()


def test_a_signed_ping_is_answered_with_a_pong(client: TestClient,
                                               key: Ed25519PrivateKey) -> None:
    answer = post_signed(client, key, PING)
    assert answer.status_code == 200
    assert answer.json() == {"type": 1}


def test_a_signature_by_another_key_is_refused(client: TestClient) -> None:
    answer = post_signed(client, Ed25519PrivateKey.generate(), PING)
    assert answer.status_code == 401
    assert answer.json()["field"] == "X-Signature-Ed25519"


def test_a_bad_signature_is_refused(client: TestClient, key: Ed25519PrivateKey) -> None:
    headers = signed_headers(key, _ping_body())
    flipped = bytearray(bytes.fromhex(headers["X-Signature-Ed25519"]))
    flipped[10] ^= 1
    headers["X-Signature-Ed25519"] = flipped.hex()
    answer = client.post("/discord/interactions", content=_ping_body(), headers=headers)
    assert answer.status_code == 401


def test_a_changed_body_is_refused(client: TestClient, key: Ed25519PrivateKey) -> None:
    headers = signed_headers(key, _ping_body())
    changed = json.dumps({**PING, "id": "2"}).encode()
    answer = client.post("/discord/interactions", content=changed, headers=headers)
    assert answer.status_code == 401


def test_a_changed_timestamp_is_refused(client: TestClient, key: Ed25519PrivateKey) -> None:
    headers = signed_headers(key, _ping_body())
    headers["X-Signature-Timestamp"] = str(int(headers["X-Signature-Timestamp"]) - 1)
    answer = client.post("/discord/interactions", content=_ping_body(), headers=headers)
    assert answer.status_code == 401


@pytest.mark.parametrize("shift", [-301 - 60, -3600, 61 + 60, 86400])
def test_a_stale_or_future_timestamp_is_refused(client: TestClient, key: Ed25519PrivateKey,
                                                shift: int) -> None:
    # The margins past the limits (300 s old, 60 s ahead) absorb the test's own run time.
    answer = post_signed(client, key, PING, str(int(time.time()) + shift))
    assert answer.status_code == 401
    assert answer.json()["field"] == "X-Signature-Timestamp"


def test_a_recent_timestamp_is_accepted(client: TestClient, key: Ed25519PrivateKey) -> None:
    answer = post_signed(client, key, PING, str(int(time.time()) - 200))
    assert answer.json() == {"type": 1}


@pytest.mark.parametrize("drop", ["X-Signature-Ed25519", "X-Signature-Timestamp"])
def test_a_missing_header_is_refused(client: TestClient, key: Ed25519PrivateKey,
                                     drop: str) -> None:
    headers = signed_headers(key, _ping_body())
    del headers[drop]
    answer = client.post("/discord/interactions", content=_ping_body(), headers=headers)
    assert answer.status_code == 401
    assert answer.json()["field"] == drop


@pytest.mark.parametrize("signature", ["zz" * 64, "ab" * 63, "", "ab" * 64 + "00"])
def test_a_malformed_signature_is_refused(client: TestClient, key: Ed25519PrivateKey,
                                          signature: str) -> None:
    headers = signed_headers(key, _ping_body())
    headers["X-Signature-Ed25519"] = signature
    answer = client.post("/discord/interactions", content=_ping_body(), headers=headers)
    assert answer.status_code == 401


def test_without_a_key_the_endpoint_is_not_offered(fake: FakeDiscord,
                                                   key: Ed25519PrivateKey) -> None:
    with TestClient(discord_app(None, fake)) as client:
        answer = post_signed(client, key, PING)
    assert answer.status_code == 404
    assert "FAIRFIGHT_DISCORD_PUBLIC_KEY" in answer.json()["detail"]


def test_a_battle_from_two_attachments_is_deferred_then_answered_with_the_embed(
        client: TestClient, key: Ed25519PrivateKey, fake: FakeDiscord) -> None:
    answer = post_signed(client, key, two_sheets(fake, sheet("attacker"), sheet("defender")))
    assert answer.json() == {"type": 5}
    assert len(fake.edits) == 1
    url, message = fake.edits[0]
    assert url == (f"https://discord.com/api/v10/webhooks/{APPLICATION}/{TOKEN}"
                   "/messages/@original")
    embed = message["embeds"][0]
    assert embed["title"] == "Pelennor (land, year 3019)"
    assert embed["description"].startswith("Operational Victory for Gondor")
    attacker, defender, result = embed["fields"][:3]
    assert attacker["name"] == "Attacker: Mordor"
    assert "**Total 112.50**" in attacker["value"]
    assert "Defensives N/A" in attacker["value"]
    assert defender["name"] == "Defender: Gondor"
    assert "Troops 43.14" in defender["value"]
    assert "**Total 175.53**" in defender["value"]
    assert result["value"] == "156%: Operational"


def test_a_sheet_given_as_json_reads_the_same(client: TestClient, key: Ed25519PrivateKey,
                                              fake: FakeDiscord) -> None:
    from tests.web.discord_support import DEMONSTRATION

    attacker = json.dumps(DEMONSTRATION["attacker"]).encode()
    post_signed(client, key, two_sheets(fake, attacker, sheet("defender")))
    assert "**Total 112.50**" in fake.edits[0][1]["embeds"][0]["fields"][0]["value"]


def _edited_line(fake: FakeDiscord) -> str:
    assert len(fake.edits) == 1
    message = fake.edits[0][1]
    assert "embeds" not in message
    line: str = message["content"]
    assert "\n" not in line and "Traceback" not in line
    return line


def test_an_alias_bomb_sheet_is_refused_in_one_line(client: TestClient,
                                                    key: Ed25519PrivateKey,
                                                    fake: FakeDiscord) -> None:
    bomb = b'a: &a ["x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a]\n' \
           b'c: &c [*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c]\n'
    answer = post_signed(client, key, two_sheets(fake, bomb, sheet("defender")))
    assert answer.json() == {"type": 5}
    assert _edited_line(fake).startswith("attacker")


def test_a_sheet_that_breaks_a_rule_names_the_field(client: TestClient,
                                                    key: Ed25519PrivateKey,
                                                    fake: FakeDiscord) -> None:
    broken = sheet("defender").replace(b"partial-plate", b"extra-human-plate")
    post_signed(client, key, two_sheets(fake, sheet("attacker"), broken))
    assert _edited_line(fake).startswith("defender.technology.armor")


def test_a_file_larger_than_it_claimed_is_cut_off(client: TestClient, key: Ed25519PrivateKey,
                                                  fake: FakeDiscord) -> None:
    interaction = two_sheets(fake, b"#" * (200 * 1024), sheet("defender"))
    interaction["data"]["resolved"]["attachments"]["901"]["size"] = 100
    assert post_signed(client, key, interaction).json() == {"type": 5}
    assert "at most 65,536 bytes" in _edited_line(fake)


def test_a_file_that_is_not_text_is_refused(client: TestClient, key: Ed25519PrivateKey,
                                            fake: FakeDiscord) -> None:
    post_signed(client, key, two_sheets(fake, b"\xff\xfe\x00binary", sheet("defender")))
    assert _edited_line(fake) == "attacker: is not UTF-8 text"


def test_a_redirect_is_not_followed(client: TestClient, key: Ed25519PrivateKey,
                                    fake: FakeDiscord) -> None:
    interaction = two_sheets(fake, b"", sheet("defender"))
    fake.files[f"{CDN}/attacker.yaml"] = lambda request: httpx.Response(
        302, headers={"location": "http://169.254.169.254/latest/meta-data"})
    post_signed(client, key, interaction)
    assert _edited_line(fake) == "attacker: could not be fetched (HTTP 302)"
    assert not any("169.254" in url for url in fake.fetched)


def test_a_host_that_does_not_answer_is_refused(client: TestClient, key: Ed25519PrivateKey,
                                                fake: FakeDiscord) -> None:
    interaction = two_sheets(fake, b"", sheet("defender"))

    def stuck(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("no answer", request=request)

    fake.files[f"{CDN}/attacker.yaml"] = stuck
    post_signed(client, key, interaction)
    assert _edited_line(fake) == "attacker: could not be fetched from Discord in time"


@pytest.mark.parametrize("url", [
    "https://evil.example/attacker.yaml",
    "http://cdn.discordapp.com/attacker.yaml",
    "https://cdn.discordapp.com:8443/attacker.yaml",
    "https://cdn.discordapp.com@evil.example/attacker.yaml",
    "https://cdn.discordapp.com.evil.example/attacker.yaml",
    "file:///etc/passwd",
])
def test_a_link_off_discords_file_hosts_is_never_fetched(
        client: TestClient, key: Ed25519PrivateKey, fake: FakeDiscord, url: str) -> None:
    interaction = two_sheets(fake, sheet("attacker"), sheet("defender"))
    interaction["data"]["resolved"]["attachments"]["901"]["url"] = url
    answer = post_signed(client, key, interaction)
    assert answer.status_code == 200
    body = answer.json()
    assert body["type"] == 4
    assert body["data"]["content"] == "attacker: is not a file on Discord's own file hosts"
    assert fake.fetched == [] and fake.edits == []


@pytest.mark.parametrize(("change", "expected"), [
    ({"size": 10_000_000}, "attacker: a sheet is 1 to 65,536 bytes"),
    ({"filename": "army.exe"}, "attacker: must be a .yaml, .yml, .json, .txt file"),
])
def test_an_attachment_refused_before_fetching(client: TestClient, key: Ed25519PrivateKey,
                                               fake: FakeDiscord, change: dict[str, object],
                                               expected: str) -> None:
    interaction = two_sheets(fake, sheet("attacker"), sheet("defender"))
    interaction["data"]["resolved"]["attachments"]["901"].update(change)
    answer = post_signed(client, key, interaction)
    assert answer.json()["data"]["content"] == expected
    assert fake.fetched == []


def test_one_sheet_alone_is_refused_at_once(client: TestClient, key: Ed25519PrivateKey,
                                            fake: FakeDiscord) -> None:
    url = f"{CDN}/a.yaml"
    interaction = battle_interaction(
        [{"name": "attacker", "type": 11, "value": "901"}, {"name": "year", "type": 4,
                                                            "value": 3019}],
        {"901": attachment("901", "a.yaml", 10, url)})
    answer = post_signed(client, key, interaction).json()
    assert answer["type"] == 4
    assert answer["data"]["content"].startswith("defender: attach both army sheets")
    assert answer["data"]["flags"] == 64


def test_a_year_is_required_with_two_sheets(client: TestClient, key: Ed25519PrivateKey,
                                            fake: FakeDiscord) -> None:
    interaction = two_sheets(fake, sheet("attacker"), sheet("defender"))
    options = interaction["data"]["options"][0]["options"]
    interaction["data"]["options"][0]["options"] = [o for o in options if o["name"] != "year"]
    answer = post_signed(client, key, interaction).json()
    assert answer["data"]["content"] == "year: is required with two sheets (a whole number)"


@pytest.mark.parametrize("year", [1_000_001, -1_000_001, 10**30])
def test_a_year_out_of_range_is_refused(client: TestClient, key: Ed25519PrivateKey,
                                        fake: FakeDiscord, year: int) -> None:
    answer = post_signed(client, key, two_sheets(fake, sheet("attacker"), sheet("defender"),
                                                 year)).json()
    assert answer["data"]["content"] == "year: must lie between -1,000,000 and 1,000,000"
    assert fake.fetched == []


def test_an_attachment_id_not_in_the_interaction_is_refused(
        client: TestClient, key: Ed25519PrivateKey, fake: FakeDiscord) -> None:
    interaction = two_sheets(fake, sheet("attacker"), sheet("defender"))
    interaction["data"]["options"][0]["options"][0]["value"] = "999"
    answer = post_signed(client, key, interaction).json()
    assert answer["data"]["content"] == "attacker: names no attachment of this interaction"


@pytest.mark.parametrize("token", ["../../channels/1/messages", "a/b", "x" * 2000])
def test_a_token_that_could_change_the_webhook_path_is_refused(
        client: TestClient, key: Ed25519PrivateKey, fake: FakeDiscord, token: str) -> None:
    interaction = two_sheets(fake, sheet("attacker"), sheet("defender"))
    interaction["token"] = token
    answer = post_signed(client, key, interaction).json()
    assert answer["type"] == 4
    assert answer["data"]["content"] == "token: must be an interaction token"
    assert fake.edits == [] and fake.fetched == []


def test_a_signed_body_that_is_not_json_is_refused(client: TestClient,
                                                   key: Ed25519PrivateKey) -> None:
    body = b"{not json"
    answer = client.post("/discord/interactions", content=body,
                         headers=signed_headers(key, body))
    assert answer.status_code == 400


def test_another_command_is_refused(client: TestClient, key: Ed25519PrivateKey) -> None:
    interaction = battle_interaction([])
    interaction["data"]["name"] = "other"
    assert post_signed(client, key, interaction).status_code == 400


# --- lookups in the stored wars ----------------------------------------------------------


def _published(client: TestClient) -> tuple[str, str]:
    """A war with one published battle (the shared stored-war sheets): its id and the digest."""
    from fairfight.warscore.sealed import RoundSetup, WarSetup
    from tests.warscore.war_sheets import BATTLE, GONDOR, MORDOR, SETUP

    store = client.app.state.war_store  # type: ignore[attr-defined]
    war_id, _, _ = store.create(WarSetup.model_validate(SETUP), client="203.0.113.9")
    number = store.open_round(war_id, RoundSetup.model_validate(BATTLE), client="203.0.113.9")
    store.submit(war_id, number, 0, MORDOR, client="203.0.113.9")
    store.submit(war_id, number, 1, GONDOR, client="203.0.113.9")
    store.approve(war_id, number, 1, "Saruman the Moderator", "a great leader",
                  client="203.0.113.9")
    store.seal(war_id, number, 0, client="203.0.113.9")
    digest: str = store.seal(war_id, number, 1, client="203.0.113.9")
    return war_id, digest


def _command(subcommand: str, options: list[dict[str, object]]) -> dict[str, object]:
    interaction = battle_interaction(options)
    interaction["data"]["options"][0]["name"] = subcommand  # type: ignore[index]
    return interaction


def test_a_published_result_by_its_digest_is_answered_at_once(
        client: TestClient, key: Ed25519PrivateKey, fake: FakeDiscord) -> None:
    from tests.warscore.war_sheets import GONDOR_TOTAL, MORDOR_TOTAL, PERCENT

    _, digest = _published(client)
    answer = post_signed(client, key, _command(
        "battle", [{"name": "digest", "type": 3, "value": digest}])).json()
    assert answer["type"] == 4
    embed = answer["data"]["embeds"][0]
    assert embed["url"] == f"http://testserver/warscore/r/{digest}"
    assert embed["footer"] == {"text": f"digest {digest}"}
    assert f"**Total {MORDOR_TOTAL}**" in embed["fields"][0]["value"]
    assert f"**Total {GONDOR_TOTAL}**" in embed["fields"][1]["value"]
    assert embed["fields"][2]["value"] == f"{PERCENT}%: Solid"
    assert fake.fetched == [] and fake.edits == []


def test_an_unknown_digest_is_one_line(client: TestClient, key: Ed25519PrivateKey) -> None:
    answer = post_signed(client, key, _command(
        "battle", [{"name": "digest", "type": 3, "value": "0" * 64}])).json()
    assert answer["data"]["content"] == (
        f"digest: no result published on this service has the digest {'0' * 64}")


@pytest.mark.parametrize("value", ["0" * 63, "G" * 64, "../" * 20 + "abcd"])
def test_a_malformed_digest_is_refused(client: TestClient, key: Ed25519PrivateKey,
                                       value: str) -> None:
    answer = post_signed(client, key, _command(
        "battle", [{"name": "digest", "type": 3, "value": value}])).json()
    assert answer["data"]["content"].startswith("digest: give a result's digest")


def test_a_digest_and_sheets_together_are_refused(client: TestClient, key: Ed25519PrivateKey,
                                                  fake: FakeDiscord) -> None:
    interaction = two_sheets(fake, sheet("attacker"), sheet("defender"))
    interaction["data"]["options"][0]["options"].append(
        {"name": "digest", "type": 3, "value": "a" * 64})
    answer = post_signed(client, key, interaction).json()
    assert answer["data"]["content"].startswith("digest: give a result's digest")
    assert fake.fetched == []


def test_a_war_standing_is_answered_with_its_record(client: TestClient,
                                                    key: Ed25519PrivateKey) -> None:
    from tests.warscore.war_sheets import PERCENT

    war_id, _ = _published(client)
    answer = post_signed(client, key, _command(
        "war", [{"name": "war", "type": 3, "value": war_id}])).json()
    embed = answer["data"]["embeds"][0]
    assert embed["title"] == "War of the Ring: standing"
    assert embed["url"] == f"http://testserver/warscore/wars/{war_id}"
    fields = {field["name"]: field["value"] for field in embed["fields"]}
    assert fields["Nations"] == "Mordor (Shadow)\nGondor (West)"
    assert fields["National War Scores"] == "no year published yet"
    assert fields["Battles"].startswith("Round 1, 3019, Pelennor Fields: Solid Victory for Gondor")
    assert fields["Battles"].endswith(f"({PERCENT}%)")


@pytest.mark.parametrize(("value", "expected"), [
    ("0123456789abcdef", "war: no war on this service has the id 0123456789abcdef"),
    ("../admin", "war: must be a war's id"),
])
def test_an_unknown_or_malformed_war_is_one_line(client: TestClient, key: Ed25519PrivateKey,
                                                 value: str, expected: str) -> None:
    answer = post_signed(client, key, _command(
        "war", [{"name": "war", "type": 3, "value": value}])).json()
    assert answer["data"]["content"].startswith(expected)


def test_an_unexpected_failure_is_one_line_in_the_reply(
        client: TestClient, key: Ed25519PrivateKey, fake: FakeDiscord,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from fairfight.web.warscore import discord

    def broken(*args: object) -> object:
        raise RuntimeError("internal detail /srv/secret")

    monkeypatch.setattr(discord, "_scored", broken)
    post_signed(client, key, two_sheets(fake, sheet("attacker"), sheet("defender")))
    line = _edited_line(fake)
    assert line == ("The battle could not be scored (an unexpected error); "
                    "nothing was recorded.")
