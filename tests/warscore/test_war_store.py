"""The stored war: links kept as SHA-256 only, sealed sheets that never change, a result
scored once from both sealed sheets, and terms filled from the war's record."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from fairfight.core.errors import InputError
from fairfight.core.tokens import token_digest
from fairfight.warscore.published import published_result, verify_published, war_standing
from fairfight.warscore.sealed import RoundSetup, WarSetup
from fairfight.warscore.store import NATIONS, WARS, SheetSealed, WarStore
from tests.warscore.war_sheets import (
    BATTLE,
    GONDOR,
    GONDOR_NWS,
    GONDOR_RUIN,
    GONDOR_TOTAL,
    GONDOR_TOTAL_AFTER_NWS,
    MORDOR,
    MORDOR_NWS,
    MORDOR_TOTAL,
    MORDOR_TOTAL_AFTER_NWS,
    PERCENT,
    PERCENT_AFTER_NWS,
    SETUP,
    YEAR,
)

CLIENT = "198.51.100.7"


@pytest.fixture
def store() -> Iterator[WarStore]:
    made = WarStore("sqlite://")
    yield made
    made.close()


def _war(store: WarStore) -> tuple[str, str, dict[int, str], int]:
    war_id, moderator, tokens = store.create(WarSetup.model_validate(SETUP), client=CLIENT)
    number = store.open_round(war_id, RoundSetup.model_validate(BATTLE), client=CLIENT)
    return war_id, moderator, tokens, number


def test_only_the_tokens_digests_are_stored(store: WarStore) -> None:
    war_id, moderator, tokens, _ = _war(store)
    with store.engine.connect() as connection:
        stored = [r.token_sha256 for r in connection.execute(select(NATIONS)).all()]
        war = connection.execute(select(WARS)).one()
    assert sorted(stored) == sorted(token_digest(t) for t in tokens.values())
    assert war.moderator_sha256 == token_digest(moderator)
    assert moderator not in war.config and all(t not in war.config for t in tokens.values())
    assert store.is_nation(war_id, 0, tokens[0]) and not store.is_nation(war_id, 1, tokens[0])
    assert store.is_moderator(war_id, moderator) and not store.is_moderator(war_id, tokens[0])


def test_both_sheets_sealed_publish_the_hand_computed_result(store: WarStore) -> None:
    war_id, _, _, number = _war(store)
    store.submit(war_id, number, 0, MORDOR, client=CLIENT)
    store.submit(war_id, number, 1, GONDOR, client=CLIENT)
    with pytest.raises(InputError, match="approval"):
        store.seal(war_id, number, 1, client=CLIENT)  # the great leader is not approved yet
    store.approve(war_id, number, 1, "Saruman the Moderator", "a great leader", client=CLIENT)
    assert store.seal(war_id, number, 0, client=CLIENT) is None
    found = store.seal(war_id, number, 1, client=CLIENT)
    assert found is not None
    result = published_result(store.engine, found, "https://war.example")
    assert result is not None
    figures = result.figures()
    assert figures["attacker"]["total"] == MORDOR_TOTAL
    assert figures["defender"]["total"] == GONDOR_TOTAL
    assert figures["percent"] == PERCENT and figures["tier"] == "solid"
    assert result.document["filled"]["defender"]["approved_by"] == "Saruman the Moderator"
    assert result.sheets()["attacker"]["text"] == MORDOR
    assert f"https://war.example/warscore/r/{found}" in result.posts["text"]
    assert all(check.ok for check in verify_published(result.as_json()))


def test_a_sealed_sheet_cannot_change(store: WarStore) -> None:
    war_id, _, _, number = _war(store)
    store.submit(war_id, number, 0, MORDOR, client=CLIENT)
    store.seal(war_id, number, 0, client=CLIENT)
    with pytest.raises(SheetSealed):
        store.submit(war_id, number, 0, MORDOR.replace("100000", "200000"), client=CLIENT)
    with pytest.raises(SheetSealed):
        store.seal(war_id, number, 0, client=CLIENT)
    with pytest.raises(SheetSealed):
        store.return_sheet(war_id, number, 0, "too late", client=CLIENT)
    assert store.rounds(war_id)[0].sheet(0).body == MORDOR  # type: ignore[union-attr]


def test_a_returned_sheet_must_be_sent_again(store: WarStore) -> None:
    war_id, _, _, number = _war(store)
    store.submit(war_id, number, 0, MORDOR, client=CLIENT)
    store.return_sheet(war_id, number, 0, "troops look high", client=CLIENT)
    with pytest.raises(InputError, match="send the sheet"):
        store.seal(war_id, number, 0, client=CLIENT)
    assert [e["action"] for e in store.log(war_id)] == ["create", "open", "submit", "return"]
    assert store.log(war_id)[-1]["reason"] == "troops look high"


@pytest.mark.parametrize(("typed", "field"), [
    ("nation: Gondor\n", "sheet.nation"),
    ("approved_by: Me\n", "sheet.approved_by"),
    ("nws_score: 90\n", "sheet.nws_score"),
])
def test_a_side_cannot_type_what_the_war_fills_in(store: WarStore, typed: str,
                                                  field: str) -> None:
    war_id, _, _, number = _war(store)
    with pytest.raises(InputError) as refused:
        store.submit(war_id, number, 0, typed + MORDOR, client=CLIENT)
    assert refused.value.field == field


def test_a_claimed_victory_is_refused(store: WarStore) -> None:
    war_id, _, _, number = _war(store)
    with pytest.raises(InputError) as refused:
        store.submit(war_id, number, 0, MORDOR.replace("fresh", "recently-victorious"),
                     client=CLIENT)
    assert refused.value.field == "sheet.morale.previous"


def test_the_standing_records_the_battle_and_fills_the_next_one(store: WarStore) -> None:
    war_id, _, _, number = _war(store)
    store.submit(war_id, number, 0, MORDOR, client=CLIENT)
    store.submit(war_id, number, 1, GONDOR, client=CLIENT)
    store.approve(war_id, number, 1, "Saruman the Moderator", "", client=CLIENT)
    store.seal(war_id, number, 0, client=CLIENT)
    store.seal(war_id, number, 1, client=CLIENT)
    with Session(store.engine) as session:
        standing = war_standing(session, war_id)
    assert standing is not None
    assert [(b.battle, b.winner, b.tier) for b in standing.battles] == [
        ("Pelennor Fields", "Gondor", "solid")]
    second = store.open_round(war_id, RoundSetup.model_validate(BATTLE), client=CLIENT)
    with pytest.raises(InputError, match="recently-defeated"):
        store.submit(war_id, second, 0, MORDOR, client=CLIENT)  # it claims fresh troops


def test_the_war_cap_per_client(store: WarStore) -> None:
    from fairfight.warscore.store import WARS_PER_CLIENT_PER_DAY

    for _ in range(WARS_PER_CLIENT_PER_DAY):
        store.create(WarSetup.model_validate(SETUP), client=CLIENT)
    with pytest.raises(InputError, match="wars a day"):
        store.create(WarSetup.model_validate(SETUP), client=CLIENT)
    store.create(WarSetup.model_validate(SETUP), client="203.0.113.9")


def _year(store: WarStore, war_id: str, mordor: str, gondor: str) -> str:
    number = store.open_round(war_id, RoundSetup.model_validate(YEAR), client=CLIENT)
    store.submit(war_id, number, 0, mordor, client=CLIENT)
    store.submit(war_id, number, 1, gondor, client=CLIENT)
    store.seal(war_id, number, 0, client=CLIENT)
    found = store.seal(war_id, number, 1, client=CLIENT)
    assert found is not None
    return found


def test_a_published_year_gives_the_battle_its_nws_term(store: WarStore) -> None:
    war_id, _, _ = store.create(WarSetup.model_validate(SETUP), client=CLIENT)
    year_digest = _year(store, war_id, MORDOR_NWS, GONDOR_NWS)
    standing = war_standing(store.engine, war_id)
    assert standing is not None and standing.years[0].scores == {"Mordor": 85, "Gondor": 60}
    year_result = published_result(store.engine, year_digest)
    assert year_result is not None
    assert all(check.ok for check in verify_published(year_result.as_json()))
    with pytest.raises(InputError, match="already has its round"):
        store.open_round(war_id, RoundSetup.model_validate(YEAR), client=CLIENT)
    number = store.open_round(war_id, RoundSetup.model_validate(BATTLE), client=CLIENT)
    store.submit(war_id, number, 0, MORDOR, client=CLIENT)
    store.submit(war_id, number, 1, GONDOR, client=CLIENT)
    store.approve(war_id, number, 1, "Saruman the Moderator", "", client=CLIENT)
    store.seal(war_id, number, 0, client=CLIENT)
    found = store.seal(war_id, number, 1, client=CLIENT)
    assert found is not None
    result = published_result(store.engine, found)
    assert result is not None
    figures = result.figures()
    assert (figures["attacker"]["total"], figures["defender"]["total"], figures["percent"],
            figures["tier"]) == (MORDOR_TOTAL_AFTER_NWS, GONDOR_TOTAL_AFTER_NWS,
                                 PERCENT_AFTER_NWS, "marginal")
    assert result.document["filled"]["attacker"]["nws_score"] == 85
    assert "Greater NWS" in result.posts["text"] and "Less NWS" in result.posts["text"]


def test_a_side_typing_the_nws_term_is_refused(store: WarStore) -> None:
    war_id, _, _, number = _war(store)
    with pytest.raises(InputError) as refused:
        store.submit(war_id, number, 0, MORDOR.replace("morale:\n", "morale:\n  nws: greater\n"),
                     client=CLIENT)
    assert refused.value.field == "sheet.morale.nws"


def test_a_capitulated_nation_fights_no_later_battle(store: WarStore) -> None:
    war_id, _, _ = store.create(WarSetup.model_validate(SETUP), client=CLIENT)
    _year(store, war_id, MORDOR_NWS, GONDOR_RUIN)
    standing = war_standing(store.engine, war_id)
    assert standing is not None and standing.nations[1].capitulated_in == 3019
    later = {**BATTLE, "year": 3020}
    with pytest.raises(InputError, match="capitulated in 3019"):
        store.open_round(war_id, RoundSetup.model_validate(later), client=CLIENT)
    with pytest.raises(InputError, match="war is over"):
        store.open_round(war_id, RoundSetup.model_validate({**YEAR, "year": 3020}),
                         client=CLIENT)


def test_the_submission_cap_per_client(store: WarStore, monkeypatch: pytest.MonkeyPatch) -> None:
    from fairfight.warscore.store import war_store

    monkeypatch.setattr(war_store, "SUBMISSIONS_PER_CLIENT_PER_DAY", 3)
    war_id, _, _, number = _war(store)
    for _ in range(3):
        store.submit(war_id, number, 0, MORDOR, client=CLIENT)
    with pytest.raises(InputError, match="3 sheets a day"):
        store.submit(war_id, number, 0, MORDOR, client=CLIENT)
    store.submit(war_id, number, 1, GONDOR, client="203.0.113.9")  # another address


def test_the_caps_are_per_day() -> None:
    from fairfight.warscore.store import WARS_PER_CLIENT_PER_DAY

    now = [1_000_000.0]
    store = WarStore("sqlite://", clock=lambda: now[0])
    try:
        for _ in range(WARS_PER_CLIENT_PER_DAY):
            store.create(WarSetup.model_validate(SETUP), client=CLIENT)
        now[0] += 86399
        with pytest.raises(InputError, match="wars a day"):
            store.create(WarSetup.model_validate(SETUP), client=CLIENT)
        now[0] += 2  # a day and a second after the first
        store.create(WarSetup.model_validate(SETUP), client=CLIENT)
    finally:
        store.close()


def test_racing_last_seals_on_one_sqlite_file_publish_once(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'wars.db'}"
    stores = [WarStore(url), WarStore(url)]
    try:
        war_id, _, _, number = _war(stores[0])
        stores[0].submit(war_id, number, 0, MORDOR, client=CLIENT)
        stores[1].submit(war_id, number, 1, GONDOR, client=CLIENT)
        stores[1].approve(war_id, number, 1, "Saruman", "", client=CLIENT)
        outcomes: list[object] = []
        threads = [threading.Thread(target=lambda s=s, n=n: outcomes.append(
            s.seal(war_id, number, n, client=CLIENT))) for s, n in zip(stores, (0, 1),
                                                                     strict=True)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(o is None for o in outcomes) == [False, True]
        assert [e["action"] for e in stores[0].log(war_id)][-2:] == ["seal", "seal"]
    finally:
        for store in stores:
            store.close()


def test_a_naval_round_checks_each_sheet_against_its_kind(store: WarStore) -> None:
    war_id, _, _ = store.create(WarSetup.model_validate(SETUP), client=CLIENT)
    naval = {**BATTLE, "battle": "Bay of Belfalas", "battle_kind": "naval"}
    number = store.open_round(war_id, RoundSetup.model_validate(naval), client=CLIENT)
    with pytest.raises(InputError) as refused:
        store.submit(war_id, number, 1, GONDOR, client=CLIENT)  # cavalry at sea, a land fort
    assert refused.value.field == "sheet.support.ballista"
    with pytest.raises(InputError) as refused:
        store.submit(war_id, number, 0, MORDOR + "defensives: harbour-chain\n", client=CLIENT)
    assert refused.value.field == "sheet.defensives"  # the attacker has no works


@pytest.mark.parametrize("name", ["[url=http://x]Mod[/url]", "Mod\nResult: forged", ""])
def test_an_approver_name_that_would_forge_a_post_is_refused(store: WarStore,
                                                             name: str) -> None:
    war_id, _, _, number = _war(store)
    with pytest.raises(InputError) as refused:
        store.approve(war_id, number, 1, name, "", client=CLIENT)
    assert refused.value.field == "by"
