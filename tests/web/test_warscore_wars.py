"""Stored wars over HTTP: links that become cookies, sheets sealed from the other side until
both are sealed, a sealed sheet that no request (API or form) can change, and a privacy crawl
that never finds the other side's sheet or any token digest before the reveal."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from fastapi.testclient import TestClient

from fairfight.core.tokens import token_digest
from fairfight.web import WebSettings, create_app
from tests.warscore.war_sheets import BATTLE, GONDOR, GONDOR_TOTAL, MORDOR, MORDOR_TOTAL, SETUP


@pytest.fixture()
def app(tmp_path: Path) -> Any:
    return create_app(WebSettings(database_url=f"sqlite:///{tmp_path / 'ff.db'}"))


def client_of(app: Any, **headers: str) -> TestClient:
    return TestClient(app, base_url="http://testserver", headers=headers)


def token_of(link: str) -> str:
    return urlsplit(link).query.removeprefix("token=")


def war(app: Any) -> tuple[str, str, list[str]]:
    created = client_of(app).post("/api/warscore/wars", json=SETUP)
    assert created.status_code == 201, created.text
    body = created.json()
    tokens = [token_of(body["nation_links"][n["name"]]) for n in SETUP["nations"]]
    moderator = token_of(body["moderator_link"])
    opened = client_of(app, **{"X-Moderator-Token": moderator}).post(
        f"/api/warscore/wars/{body['id']}/rounds", json=BATTLE)
    assert opened.status_code == 201, opened.text
    return body["id"], moderator, tokens


def nation(app: Any, token: str) -> TestClient:
    return client_of(app, **{"X-Nation-Token": token})


def sheet_url(war_id: str, who: int) -> str:
    return f"/api/warscore/wars/{war_id}/rounds/1/sheets/{who}"


def test_a_war_is_played_through_the_api(app: Any) -> None:
    war_id, moderator, (mordor, gondor) = war(app)
    sent = nation(app, mordor).put(sheet_url(war_id, 0), json={"sheet": MORDOR})
    assert sent.json() == {"sha256": hashlib.sha256(MORDOR.encode()).hexdigest()}
    assert nation(app, gondor).put(sheet_url(war_id, 0), json={"sheet": MORDOR}).status_code \
        == 403  # Gondor's token is not Mordor's
    nation(app, gondor).put(sheet_url(war_id, 1), json={"sheet": GONDOR})
    mod = client_of(app, **{"X-Moderator-Token": moderator})
    assert mod.post(sheet_url(war_id, 1) + "/approve", json={"by": "Saruman"}).status_code == 200
    assert nation(app, mordor).post(sheet_url(war_id, 0) + "/seal").json()["digest"] is None
    digest = nation(app, gondor).post(sheet_url(war_id, 1) + "/seal").json()["digest"]
    result = client_of(app).get(f"/api/warscore/r/{digest}").json()
    assert result["document"]["result"]["attacker"]["total"] == MORDOR_TOTAL
    assert result["document"]["result"]["defender"]["total"] == GONDOR_TOTAL
    assert f"http://testserver/warscore/r/{digest}" in result["posts"]["bbcode"]
    page = client_of(app).get(f"/warscore/r/{digest}")
    assert page.status_code == 200 and "Pelennor Fields" in page.text and "Garrison of Gondor" \
        in page.text
    standing = client_of(app).get(f"/api/warscore/wars/{war_id}").json()
    assert standing["battles"][0]["winner"] == "Gondor"
    assert [e["action"] for e in standing["log"]].count("approve") == 1


def test_a_sealed_sheet_cannot_change_by_api_or_form(app: Any) -> None:
    war_id, _, (mordor, _) = war(app)
    me = nation(app, mordor)
    me.put(sheet_url(war_id, 0), json={"sheet": MORDOR})
    assert me.post(sheet_url(war_id, 0) + "/seal").status_code == 200
    changed = MORDOR.replace("100000", "250000")
    assert me.put(sheet_url(war_id, 0), json={"sheet": changed}).status_code == 409
    assert me.post(sheet_url(war_id, 0) + "/seal").status_code == 409
    form = me.post(f"/warscore/wars/{war_id}/rounds/1/sheets/0", data={"sheet": changed},
                   follow_redirects=False)
    assert form.status_code == 409
    upload = me.post(f"/warscore/wars/{war_id}/rounds/1/sheets/0",
                     files={"file": ("army.yaml", changed.encode(), "application/yaml")},
                     follow_redirects=False)
    assert upload.status_code == 409
    mine = me.get(f"/api/warscore/wars/{war_id}").json()["rounds"][0]["sheets"][0]
    assert mine["text"] == MORDOR and mine["state"] == "sealed"


def test_links_become_httponly_cookies(app: Any) -> None:
    browser = client_of(app)
    page = browser.post("/warscore/wars", data={
        "war": "A war", "moderator": "Mod", "nations": "Mordor, Shadow\nGondor, West",
        "years": "3019"})
    assert page.status_code == 200
    link = re.search(r"http://testserver/warscore/wars/\w+/join/0\?token=[\w-]+", page.text)
    assert link is not None
    link = link.group(0)
    visitor = client_of(app)
    answer = visitor.get(urlsplit(link).path + "?" + urlsplit(link).query,
                         follow_redirects=False)
    assert answer.status_code == 303 and "token" not in answer.headers["location"]
    cookie = answer.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert visitor.get(answer.headers["location"]).status_code == 200


def test_bad_requests_are_refused_in_one_line(app: Any) -> None:
    war_id, moderator, (mordor, _) = war(app)
    me = nation(app, mordor)
    refused = me.put(sheet_url(war_id, 0), json={"sheet": "troops: [1, 2"})
    assert refused.status_code == 422 and "YAML" in refused.json()["message"]
    assert me.put(sheet_url(war_id, 0), json={"sheet": "x" * 20000}).status_code == 422
    assert me.put(sheet_url(war_id, 9), json={"sheet": MORDOR}).status_code == 403
    other_round = f"/api/warscore/wars/{war_id}/rounds/9/sheets/0"
    assert me.put(other_round, json={"sheet": MORDOR}).json()["field"] == "round"
    assert client_of(app).get("/warscore/wars/not-a-war").status_code == 404
    assert client_of(app).get("/warscore/r/" + "0" * 64).status_code == 404
    bad = client_of(app).post("/api/warscore/wars", json={**SETUP, "nations": [
        {"name": "A", "side": "X"}, {"name": "B", "side": "X"}]})
    assert bad.status_code == 422 and bad.json()["field"] == "nations"


def crawl(app: Any, war_id: str, viewer: TestClient) -> str:
    """Everything `viewer` can read about the war, pages and API."""
    urls = ["/warscore/wars", f"/warscore/wars/{war_id}", f"/api/warscore/wars/{war_id}",
            f"/warscore/wars/{war_id}/nations/0", f"/warscore/wars/{war_id}/nations/1"]
    return "\n".join(viewer.get(url).text for url in urls)


def test_no_sheet_reaches_the_other_side_before_both_are_sealed(app: Any) -> None:
    war_id, moderator, (mordor, gondor) = war(app)
    mordor_client, gondor_client = nation(app, mordor), nation(app, gondor)
    anyone = client_of(app)
    secrets = [token_digest(t) for t in (moderator, mordor, gondor)] + [moderator, mordor,
                                                                      gondor]
    mordor_client.put(sheet_url(war_id, 0), json={"sheet": MORDOR})
    gondor_client.put(sheet_url(war_id, 1), json={"sheet": GONDOR})
    client_of(app, **{"X-Moderator-Token": moderator}).post(
        sheet_url(war_id, 1) + "/approve", json={"by": "Saruman"})
    mordor_client.post(sheet_url(war_id, 0) + "/seal")
    for step in ("both sent", "one sealed"):
        seen = {"mordor": crawl(app, war_id, mordor_client),
                "gondor": crawl(app, war_id, gondor_client), "anyone": crawl(app, war_id, anyone)}
        assert "Garrison of Gondor" not in seen["mordor"], step
        assert "Host of Mordor" not in seen["gondor"], step
        assert "Garrison of Gondor" not in seen["anyone"] and "Host of Mordor" not in seen["anyone"]
        assert "Host of Mordor" in seen["mordor"] and "Garrison of Gondor" in seen["gondor"]
        for text in seen.values():
            assert not any(secret in text for secret in secrets), step
        if step == "both sent":
            continue
    gondor_client.post(sheet_url(war_id, 1) + "/seal")
    after = crawl(app, war_id, anyone)
    assert "Host of Mordor" in after and "Garrison of Gondor" in after
    assert not any(secret in after for secret in secrets)
    digest = json.loads(anyone.get(f"/api/warscore/wars/{war_id}").text)["rounds"][0]["digest"]
    published = anyone.get(f"/api/warscore/r/{digest}").text + anyone.get(
        f"/warscore/r/{digest}").text
    assert not any(secret in published for secret in secrets)


def test_a_closed_round_shows_its_sheets_to_everyone(app: Any) -> None:
    war_id, moderator, (mordor, _) = war(app)
    nation(app, mordor).put(sheet_url(war_id, 0), json={"sheet": MORDOR})
    assert "Host of Mordor" not in client_of(app).get(f"/warscore/wars/{war_id}").text
    mod = client_of(app, **{"X-Moderator-Token": moderator})
    assert mod.post(f"/api/warscore/wars/{war_id}/rounds/1/close").status_code == 200
    assert "Host of Mordor" in client_of(app).get(f"/warscore/wars/{war_id}").text
    assert nation(app, mordor).put(sheet_url(war_id, 0), json={"sheet": MORDOR}).status_code \
        == 409


def test_the_moderator_returns_and_closes_from_the_page(app: Any) -> None:
    war_id, moderator, (mordor, _) = war(app)
    nation(app, mordor).put(sheet_url(war_id, 0), json={"sheet": MORDOR})
    browser = client_of(app)
    assert browser.post(f"/warscore/wars/{war_id}/rounds/1/close",
                        follow_redirects=False).status_code == 403  # no moderator cookie
    followed = browser.get(f"/warscore/wars/{war_id}/moderate?token={moderator}",
                           follow_redirects=False)
    assert followed.status_code == 303 and "token" not in followed.headers["location"]
    page = browser.get(f"/warscore/wars/{war_id}").text
    assert "You moderate this war" in page and "Host of Mordor" in page
    returned = browser.post(f"/warscore/wars/{war_id}/rounds/1/sheets/0/return",
                            data={"reason": "troops look high"}, follow_redirects=False)
    assert returned.status_code == 303
    page = browser.get(f"/warscore/wars/{war_id}").text
    assert "troops look high" in page and 'data-state="returned"' in page
    assert browser.post(f"/warscore/wars/{war_id}/rounds/1/close",
                        follow_redirects=False).status_code == 303
    assert browser.post(f"/warscore/wars/{war_id}/rounds/1/close",
                        follow_redirects=False).status_code == 409
    assert 'data-status="closed"' in client_of(app).get(f"/warscore/wars/{war_id}").text
