"""Hostile sheets, sent by the API, the form and an upload: each refused with one line naming
the field (4xx), in bounded work, and never stored."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fairfight.web import WebSettings, create_app
from tests.warscore.war_sheets import MORDOR
from tests.web.test_warscore_wars import nation, sheet_url, war

LAUGHS = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
    f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
    for i in range(8))
HOSTILE = {
    "billion laughs": LAUGHS,
    "deep nesting": "troops: " + "[" * 500 + "]" * 500 + "\n",
    "repeated key": MORDOR + "troops: 5\n",
    "huge integer": MORDOR.replace("100000", "9" * 5000),
    "boolean troops": MORDOR.replace("100000", "true"),
    "fraction troops": MORDOR.replace("100000", "1.5e5"),
    "a list": "- 1\n- 2\n",
    "a string": "just words\n",
    "python tag": "troops: !!python/object/apply:os.system ['true']\n",
    "unknown field": MORDOR + "cannons: 12\n",
    "bbcode in a name": MORDOR.replace("orc", "'[url=x]orc[/url]'"),
}


@pytest.fixture()
def app(tmp_path: Path) -> Any:
    return create_app(WebSettings(database_url=f"sqlite:///{tmp_path / 'ff.db'}"))


def _refused(answer: Any) -> None:
    assert 400 <= answer.status_code < 500, answer.text
    assert "Traceback" not in answer.text


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_sheet_is_refused_everywhere(app: Any, name: str) -> None:
    war_id, _, (mordor, _) = war(app)
    me: TestClient = nation(app, mordor)
    text = HOSTILE[name]
    answer = me.put(sheet_url(war_id, 0), json={"sheet": text})
    _refused(answer)
    body = answer.json()
    assert body["field"].startswith("sheet") and "\n" not in body["message"]
    form = f"/warscore/wars/{war_id}/rounds/1/sheets/0"
    _refused(me.post(form, data={"sheet": text}, follow_redirects=False))
    _refused(me.post(form, files={"file": ("army.yaml", text.encode(), "application/yaml")},
                     follow_redirects=False))
    assert me.get(f"/api/warscore/wars/{war_id}").json()["rounds"][0]["sheets"][0][
        "state"] == "not sent"


def test_a_file_that_is_not_utf8_is_refused(app: Any) -> None:
    war_id, _, (mordor, _) = war(app)
    answer = nation(app, mordor).post(
        f"/warscore/wars/{war_id}/rounds/1/sheets/0",
        files={"file": ("army.yaml", bytes(range(256)), "application/yaml")},
        follow_redirects=False)
    _refused(answer)
    assert "UTF-8" in answer.text


@pytest.mark.parametrize("path", ["/warscore/wars/%00", "/warscore/wars/" + "a" * 5000,
                                  "/warscore/wars/0123456789abcdef/nations/99999999999999",
                                  "/warscore/r/" + "z" * 64, "/api/warscore/r/-1"])
def test_hostile_paths_are_refused(app: Any, path: str) -> None:
    _refused(TestClient(app).get(path))
