"""Watch mode without a script: each step of a battle is its own address (`?step=N`), shows
the rounds fought so far with the running score, and the result only at the last step; every
step is a kept page like the episode itself (a 304 for a client that has it)."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests.web.conquest_support import ADMIN_TOKEN

HTML = {"accept": "text/html"}
WATCH = "/conquest/1/battles/{}/watch"


def _steps(html: str) -> dict[str, bool]:
    """Each step's id -> whether the page shows it (no `hidden` on its list item)."""
    return {match[1]: " hidden" not in match[0]
            for match in re.finditer(r'<li id="(step-\d)"[^>]*>', html)}


def _score(html: str) -> tuple[str, str]:
    found = re.search(r'id="score-attacker">([^<]*)<.*?id="score-defender">([^<]*)<', html,
                      re.DOTALL)
    assert found is not None
    return found[1], found[2]


def test_each_step_shows_the_rounds_so_far_and_the_result_only_at_the_end(
        client: TestClient, arranged: dict[str, object]) -> None:
    number = arranged["fan_clash_battle"]
    battle = client.get(f"/api/seasons/1/battles/{number}").json()
    winners = [r["winner"] for r in battle["rounds"]]
    assert len(winners) == 5
    for step in range(7):
        page = client.get(WATCH.format(number), params={"step": step}, headers=HTML)
        assert page.status_code == 200
        shown = _steps(page.text)
        assert shown == {f"step-{i}": i <= step for i in range(7)}, step
        # the running score, counted here from the record's round winners
        if 1 <= step <= 5:
            fought = winners[:step]
            assert _score(page.text) == (str(fought.count("attacker")),
                                         str(fought.count("defender")))
        else:
            assert _score(page.text) == (("–", "–") if step == 0 else
                                         (str(battle["attacker_rounds"]),
                                          str(battle["defender_rounds"])))
        result_shown = 'id="result-line"' in page.text and shown["step-6"]
        assert result_shown == (step == 6)
        next_link = re.search(r'<a id="watch-next"[^>]*>', page.text)
        assert next_link is not None
        if step < 6:
            assert f'href="?step={step + 1}#step-{step + 1}"' in next_link[0]
            assert " hidden" not in next_link[0]
        else:
            assert " hidden" in next_link[0]
        assert f'href="/conquest/1/battles/{number}"' in page.text  # the full record


def test_the_steps_are_kept_pages_and_answer_304(client: TestClient) -> None:
    pages = client.app.state.conquest.pages  # type: ignore[attr-defined]
    first = client.get(WATCH.format(2), params={"step": 3}, headers=HTML)
    assert first.status_code == 200 and "etag" in first.headers
    assert client.get(WATCH.format(2), params={"step": 3}, headers=HTML).content == \
        first.content
    assert pages.rendered == 1
    held = client.get(WATCH.format(2), params={"step": 3},
                      headers={**HTML, "if-none-match": first.headers["etag"]})
    assert held.status_code == 304
    other = client.get(WATCH.format(2), params={"step": 4}, headers=HTML)
    assert other.status_code == 200 and other.content != first.content
    assert pages.rendered == 2


def test_a_bad_step_is_one_line_naming_the_field(client: TestClient) -> None:
    for given in ("7", "-1", "x", "1.5"):
        answer = client.get(WATCH.format(2), params={"step": given},
                            headers={"accept": "application/json"})
        assert answer.status_code == 422, given
        assert answer.json()["field"] == "step"
        assert "\n" not in answer.json()["detail"] and "Traceback" not in answer.text
    assert client.get(WATCH.format(99), headers=HTML).status_code == 404


def test_the_episode_links_its_watch_mode_and_folds_its_exact_chances(
        client: TestClient) -> None:
    page = client.get("/conquest/1/battles/2", headers=HTML).text
    battle = client.get("/api/seasons/1/battles/2").json()
    assert 'href="/conquest/1/battles/2/watch"' in page
    fold = re.search(r'<details class="exact-fold">.*?</details>', page, re.DOTALL)
    assert fold is not None
    assert battle["odds"]["before"] in fold[0] and len(battle["odds"]["before"]) > 80
    # outside the fold the long fraction is never printed
    assert battle["odds"]["before"] not in page.replace(fold[0], "")


def test_every_round_carries_its_running_score_in_figures_and_words(client: TestClient) -> None:
    for number in range(1, 7):
        battle = client.get(f"/api/seasons/1/battles/{number}").json()
        attacker, defender = battle["attacker"]["name"], battle["defender"]["name"]
        won: list[str] = []
        for place, shown in enumerate(battle["rounds"], start=1):
            won.append(shown["winner"])
            a, d = won.count("attacker"), won.count("defender")
            assert shown["number"] == place
            assert shown["score"] == [a, d]
            assert shown["settled"] == (max(a, d) >= 3)
            winner = attacker if shown["winner"] == "attacker" else defender
            assert f"{winner} wins the round. {attacker} {a}, {defender} {d}." in shown["said"]
            assert shown["said"].startswith(f"Round {place} of 5, ")
        assert battle["rounds"][-1]["score"] == [battle["attacker_rounds"],
                                                 battle["defender_rounds"]]


def test_a_rebellion_plays_out_as_a_rising_with_its_banner_at_the_end(
        client: TestClient) -> None:
    aired = client.post("/api/seasons/1/operator/air", json={"count": 1},
                        headers={"authorization": f"Bearer {ADMIN_TOKEN}"})
    assert aired.status_code == 200, aired.text
    number = aired.json()["battles"][0]["number"]
    battle = client.get(f"/api/seasons/1/battles/{number}").json()
    assert battle["kind"] == "bonus"  # the demo's waiting rebellion is the next battle
    start = client.get(WATCH.format(number), headers=HTML).text
    rebels, occupier = battle["attacker"]["name"], battle["defender"]["name"]
    assert f"The people of {rebels} ({battle['attacker']['faction']}) rise against their " \
        f"occupier {occupier}" in start
    assert "full fan pool" not in start and not _steps(start)["step-6"]
    end = client.get(WATCH.format(number), params={"step": 6}, headers=HTML).text
    assert _steps(end) == {f"step-{i}": True for i in range(7)}
    assert '<span class="banner banner-rebellion">REBELLION</span>' in end
    # the rounds' own draws are shown; the three drawn before them decide nothing here
    for drawn in battle["draws"][:3]:
        assert f"Saved draw #{drawn['index']}:" not in end
    for shown in battle["rounds"]:
        assert f"Saved draw #{shown['draw_index']}: u = <strong>{shown['u_text']}</strong>" \
            in end


def test_a_shared_watch_link_names_the_fighters_and_keeps_the_result(client: TestClient) -> None:
    battle = client.get("/api/seasons/1/battles/2").json()
    head = client.get(WATCH.format(2), headers=HTML).text.split("</head>")[0]
    tags = dict(re.findall(r'<meta (?:property|name)="([^"]+)" content="([^"]*)"', head))
    assert tags["og:description"] == (
        f"Battle 2 of season 1: {battle['attacker']['name']} against "
        f"{battle['defender']['name']}. Watch it play out round by round; the result comes "
        "at the end.")
    assert "/cards/episode-" not in head and "beat" not in head
    assert "/cards/site-" in tags["og:image"]
