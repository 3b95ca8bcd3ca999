"""The log as one viewer is told it: each event in that viewer's words (`narration`), newest
first, with a race between other seats folded into one line. Apart from `seat_view` so the
view's module keeps to what the viewer is asked; `seat_view` re-exports both names."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel

from fairfight.ballot.elections import Event
from fairfight.ballot.narration import narrate, who

__all__ = ["LogLine", "log_lines"]


class LogLine(BaseModel):
    """A line of the log; `others` marks a race between other seats (shown folded)."""

    year: int
    text: str
    others: bool


def _others_race(event: Event) -> str:
    sides = ", ".join(
        f"{party} {who(side['player'])} {side['total']}" for party, side in event["sides"].items()
    )
    return (
        f"{event['race']}: {event['winner']} wins by {event['margin']} ({sides}); "
        f"the seat goes to {who(event['holder'])}"
    )


def log_lines(events: Sequence[Event], you: int, start_year: int) -> list[LogLine]:
    """The whole log as `you` is told it, newest first; races between others folded."""
    lines: list[LogLine] = []
    year = start_year
    for event in events:
        year = int(event.get("year", year))
        told = narrate(event, you)
        lines.extend(LogLine(year=year, text=text, others=False) for text in told)
        if event["event"] == "race" and not told:
            lines.append(LogLine(year=year, text=_others_race(event), others=True))
    lines.reverse()
    return lines
