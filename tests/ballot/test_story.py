"""The end and the story in words: every decision type's sentence (written out here by hand),
the final screen's winner (found here from the scores alone), the replay without stored data,
and every chance shown as a percentage marked exact with its fraction folded away."""

from __future__ import annotations

import html
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fairfight.ballot.deck import build_cards
from fairfight.ballot.state import (
    AmendmentDraft,
    AmendmentVote,
    BillDraft,
    Declaration,
    Declarations,
    Discards,
    DraftPick,
    Phase,
    Withdrawals,
    YesNo,
    to_data,
)
from fairfight.ballot.store import BallotStore
from fairfight.ballot.story import END_REASONS, decision_sentence, ending, step_sentences
from fairfight.ballot.tables import AmendmentChoice, Party, named_config
from fairfight.web.ballot.service import CONFIG_NAME
from tests.ballot.test_tables import (
    client_of,
    make_app,
    play_round,
    play_to_end,
    seat_view,
    seated,
)

KEY = "story-test-key"
TABLE_KEY = "1000"


@pytest.mark.parametrize(
    ("decision", "phase", "said"),
    [
        (Declarations((Declaration(2, "S-OH-I", 87, Party.R),)), Phase.DECLARE,
         "Seat 2 declared the Ohio Senate race (class I) with card #87 for R."),
        (Declarations((Declaration(2, "H-MA-1", 5, Party.D, 40), Declaration(2, "P", 9, Party.R))),
         Phase.DECLARE,
         "Seat 2 declared the Massachusetts House race (district 1) with card #5 and district "
         "card #40 for D; the presidential race with card #9 for R."),
        (Declarations(), Phase.DECLARE, "Seat 2 declared no candidate this year."),
        (Withdrawals(("G-NY", "S-TX-II")), Phase.WITHDRAW,
         "Seat 2 withdrew from the New York governor's race; the Texas Senate race (class II)."),
        (Withdrawals(), Phase.WITHDRAW, "Seat 2 withdrew from no race."),
        (BillDraft(("rural", "union"), 3), Phase.AUTHOR,
         "Seat 2 wrote an omnibill on rural and union, repealing bill #3."),
        (BillDraft(), Phase.AUTHOR, "Seat 2 declined to write a bill."),
        (YesNo(True), Phase.BILL_VOTE, "Seat 2 voted yes on the omnibill."),
        (YesNo(False), Phase.BILL_VOTE, "Seat 2 voted no on the omnibill."),
        (YesNo(False), Phase.VETO, "Seat 2 vetoed the omnibill."),
        (YesNo(True), Phase.VETO, "Seat 2 signed the omnibill."),
        (YesNo(True), Phase.OVERRIDE_VOTE, "Seat 2 voted to override the veto."),
        (YesNo(True), Phase.IMPEACH_MOTION, "Seat 2 moved to impeach the president."),
        (YesNo(False), Phase.IMPEACH_VOTE, "Seat 2 voted to keep the president."),
        (AmendmentDraft(("black", "rural", "union")), Phase.AMEND_PROPOSE,
         "Seat 2 proposed an amendment on black, rural, union."),
        (AmendmentDraft(), Phase.AMEND_PROPOSE, "Seat 2 proposed no amendment."),
        (AmendmentVote(AmendmentChoice.AGAINST), Phase.AMEND_VOTE,
         "Seat 2's governors voted against the amendment."),
        (AmendmentVote(AmendmentChoice.ABSTAIN), Phase.AMEND_VOTE,
         "Seat 2's governors abstained."),
        (Discards((4, 17)), Phase.DISCARD, "Seat 2 discarded card #4, card #17."),
    ],
)
def test_each_decision_reads_as_a_sentence(decision: Any, phase: Phase, said: str) -> None:
    assert decision_sentence(2, decision, phase, KEY) == said


def test_a_draft_names_the_card_and_a_step_reads_in_seat_order() -> None:
    label = build_cards(KEY)[12].label()
    assert label.startswith("#12 ")  # the label carries the card's number
    answers = {"10": to_data(DraftPick(30)), "2": to_data(DraftPick(12))}
    said = step_sentences(answers, Phase.DRAFT, KEY)
    assert said[0] == f"Seat 2 drafted {label}." and said[1].startswith("Seat 10 drafted #30 ")


def test_the_ending_names_the_winner_the_tie_break_and_a_shared_win() -> None:
    assert ending([1], [20, 31, 7], "year-cap").headline == "Seat 1 wins with 31 points."
    assert ending([0], [25, 25, 1], "year-cap").headline == (
        "Seat 0 wins with 25 points. Seat 1 had as many points; the tie-break (more Senate "
        "seats, then more bills held) decided.")
    assert ending([0, 2], [9, 3, 9], "ratification").headline == (
        "Seats 0 and 2 share the win with 9 points each.")
    assert ending([0, 2], [9, 3, 1], "bills").headline == (
        "Seats 0 and 2 share the win (seat 0 9 points, seat 2 1 point).")
    assert ending([1], [0, 5], "year-cap").reason == (
        "The last year of the game was played: the game ended on the calendar, and the highest "
        "score wins.")
    assert ending([1], [0, 5], "odd-code").reason == "The game ended (odd-code)."


def test_every_end_reason_the_engine_can_record_has_a_sentence() -> None:
    """The codes `yearend.close_year` and `_earned_end` write, listed by reading them [10.3]."""
    codes = {"year-cap", "ratification", "bills", "bills-and-terms", "two-terms", "three-terms"}
    assert set(END_REASONS) == codes
    assert all(sentence.endswith(".") and "-" not in sentence for sentence in END_REASONS.values())


def test_the_final_screen_and_the_replay_tell_the_game_in_words(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    created = _created_with_key(app, ["human", "pollster", "human"], TABLE_KEY)
    table = created["id"]
    people = seated(app, created)
    shown = _declare_the_first_suggestion(people, table)
    assert shown["declare"] and shown["withdraw"], shown
    assert shown["longest"] > 200, shown  # a contested race's exact chance: the long kind
    public = play_to_end(people, table)
    scores = [seat["score"] for seat in public["game"]["seats"]]
    best = max(scores)
    leaders = [seat for seat, score in enumerate(scores) if score == best]
    page = client_of(app).get(f"/ballot/tables/{table}").text
    final = page[page.index('id="final"'):page.index('id="seats"')]
    if len(leaders) == 1:
        assert f"Seat {leaders[0]} wins with {best} points." in final
    else:
        assert re.search(r"Seats? [\d, and]+ (wins|share the win)", final)
    assert "The last year of the game was played" in final and "year-cap" not in final
    for seat, score in enumerate(scores):
        assert re.search(rf"<td>{seat}</td><td>[^<]*</td><td class=\"num\">{score}</td>", final)
    luck = [one for one in public["game"]["luck"] if one["entered"]]
    assert luck  # seat 0 ran at least once
    for one in luck:  # the luck table's chances read as every other chance does
        _folded(page, {"percent": one["tail_percent"], "fraction": one["tail"], "exact": True})
    store: BallotStore = app.state.ballot_store
    row = store.load(table)
    assert row is not None and (game := row.game()) is not None
    steps = len(game.steps)
    told = [step_sentences(step, phase, row.key) for step, phase in zip(game.steps, game.phases,
                                                                        strict=True)]
    assert all(len(lines) == len(step) for lines, step in zip(told, game.steps, strict=True))
    for step in (1, steps):
        replay = client_of(app).get(f"/ballot/tables/{table}/replay?step={step}").text
        assert "{'" not in replay and "&#39;type&#39;" not in replay
        for line in told[step - 1]:
            assert line.replace("'", "&#39;") in replay
        assert 'type="range"' in replay and f'max="{steps}"' in replay
    assert "matches the commitment shown before the first move" in replay
    assert "Game over in " in replay and "(year-cap)" not in replay  # the step that ended it
    twin = client_of(app).get(f"/api/ballot/tables/{table}/replay?step={steps}").json()
    assert twin["happened"][-1].startswith("Game over in ")
    assert twin["happened"][-1].endswith("the highest score wins.")
    deal = client_of(app).get(f"/api/ballot/tables/{table}/replay?step=0").json()
    assert deal["story"] == [] and deal["happened"] and deal["happened"][0].startswith("== ")


def _created_with_key(app: Any, kinds: list[str], key: str) -> dict[str, Any]:
    """A one-year table dealt from `key` (the service draws a fresh key; a test wants the same
    game every run), shaped like the API's answer to creating one."""
    store: BallotStore = app.state.ballot_store
    config = named_config(CONFIG_NAME, "points").model_copy(update={"year_cap": 1})
    table, _, tokens = store.create(config, kinds, client="test", key=key)
    return {"id": table, "seats": [{"seat": s, "token": t} for s, t in tokens.items()]}


def _declare_the_first_suggestion(people: dict[int, TestClient], table: str) -> dict[str, int]:
    """Seat 0 plays (the others by `play_round`) until its withdraw step, declaring the first
    suggested race; on the way, every chance its page shows must read as the engine's percentage
    marked exact with the fraction folded in a <details>. Counts the chances checked per step."""
    shown = {"declare": 0, "withdraw": 0, "longest": 0}
    person = people[0]
    for _ in range(40):
        view = seat_view(person, table, 0)
        game = view["game"]
        if game["phase"] in ("withdraw", "declare") and game["asked"]:
            chances = game["suggestions"] if game["phase"] == "declare" else game["my_declarations"]
            page = person.get(f"/ballot/tables/{table}/seats/0").text
            for chance in chances:
                shown[game["phase"]] += _folded(page, chance)
                shown["longest"] = max(shown["longest"], len(chance["fraction"]))
            if game["phase"] == "withdraw":
                return shown
            first = game["suggestions"][0]
            form = {"version": str(view["version"]), "race_0": first["race"],
                    "card_0": str(first["card"]), "party_0": first["party"]}
            confirm = person.post(f"/ballot/tables/{table}/seats/0/move", data=form).text
            assert '<span class="chance">' in confirm and html.escape(first["percent"]) in confirm
            assert not re.search(r"\d/\d", re.sub(r"<code>.*?</code>", "", confirm))
            entry = {"type": "Declaration", "player": 0, "race": first["race"],
                     "card": first["card"], "party": first["party"], "district_card": -1}
            move = {"version": view["version"],
                    "decision": {"type": "Declarations", "entries": [entry]}}
            answer = person.post(f"/api/ballot/tables/{table}/seats/0/move", json=move)
            assert answer.status_code == 200, answer.text
        play_round(people, table)
    return shown


def _folded(page: str, chance: dict[str, Any]) -> int:
    """1 when `chance` is on the page as its percentage, "exact", and the fraction folded."""
    percent = html.escape(chance["percent"])
    if not chance["exact"]:
        assert f"about {percent}%" in page
        return 1
    fraction = chance["fraction"]
    value = Fraction(fraction)
    tenths = int(value * 1000 + Fraction(1, 2))  # rounded half up, once, from the exact value
    said = f"{tenths // 10}.{tenths % 10}"
    if 0 < value < 1:  # never a false certainty
        said = {1000: "> 99.9", 0: "< 0.1"}.get(tenths, said)
    assert chance["percent"] == said, (chance["percent"], fraction)
    folded = (f'<strong>{percent}%</strong> <span class="exact">exact</span><details '
              f'class="fraction"><summary>fraction</summary><code>{fraction}</code></details>')
    assert folded in page, (percent, fraction)
    assert page.count(fraction) == page.count(folded), "a fraction shown outside its fold"
    return 1
