"""A whole game at the terminal: seat 0 is typed in (answers written down from a Pollster
playing that seat), and what the seat is told is checked against the game's own events."""

from __future__ import annotations

from functools import cache

from typer.testing import CliRunner

from fairfight.cli import app
from tests.ballot.scripted import human_script

KEY = "1005"  # ends by ratification in 2034; seat 0 loses primaries along the way
OTHERS = ("pollster", "machine", "machine")


@cache
def played() -> tuple[str, tuple[dict[str, object], ...]]:
    lines, events = human_script(KEY, OTHERS, years=None)
    result = CliRunner().invoke(
        app,
        [
            "ballot",
            "play",
            "--players",
            ",".join(("pollster", *OTHERS)),
            "--human",
            "0",
            "--seed",
            KEY,
        ],
        input="\n".join(lines) + "\n",
    )
    assert result.exit_code == 0, result.output[-2000:]
    return result.output, tuple(events)


def _name(seat: object) -> str:
    return "you" if seat == 0 else f"seat {seat}"


def test_opening_screen_names_the_seats_the_mode_and_how_to_win() -> None:
    output, _ = played()
    assert "You play seat 0. Opponents: seat 1 (pollster), seat 2 (machine), seat 3 (machine)." in (
        output
    )
    assert "victory mode amendment" in output
    assert "How the game ends: A ratified amendment ends the game" in output
    assert "How to win: the highest score at the final scoring" in output
    opening = output.index("You play seat 0")
    assert opening < output.index("Your hand (16 cards):") < output.index("Draft pick 1 of 4")


def test_every_lost_primary_is_narrated() -> None:
    output, events = played()
    lost = [
        (event, primary)
        for event in events
        if event["event"] == "race"
        for primary in event["primaries"]  # type: ignore[attr-defined]
        if any(entry["player"] == 0 for entry in primary["entries"]) and primary["winner"] != 0
    ]
    assert len(lost) >= 5
    for event, primary in lost:
        field = ", ".join(f"{_name(e['player'])} {e['total']}" for e in primary["entries"])
        recount = " after a recount" if primary["recount"] else ""
        line = (
            f"{event['race']} {primary['party']} primary: you lost to "
            f"{_name(primary['winner'])}{recount} ({field})"
        )
        assert line in output


def test_amendment_tags_are_shown_in_brackets() -> None:
    output, events = played()
    counts = [event for event in events if event["event"] == "amendment-count"]
    assert counts
    for event in counts:
        tags = ", ".join(event["tags"])  # type: ignore[arg-type]
        assert f"Amendment [{tags}] ({event['stage']}): for " in output
    assert "Game over in 2034: winner seat" in output
    assert "An amendment was ratified, which ends the game at the end of that year" in " ".join(
        output.split())  # the reason in words, however the terminal wraps it


def test_votes_show_thresholds_and_the_projected_holder() -> None:
    output, events = played()
    assert any(event["event"] == "bill-vote" for event in events)
    assert "It passes with 218 House and 60 Senate yes votes." in output
    assert "If every player votes yes and it passes, seat " in output
    assert "Strongest choices, one card each" in output
