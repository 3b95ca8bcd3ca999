"""A scripted human: a Pollster plays the seat and writes its decisions down as the answers a
person would type, so the terminal seat can be driven through a whole game from stdin."""

from __future__ import annotations

from fairfight.ballot.bots import make_bots
from fairfight.ballot.elections import Event
from fairfight.ballot.players import play_game
from fairfight.ballot.tables import named_config


class Recorder:
    """A Pollster at seat 0 whose decisions are written down as terminal answers."""

    name = "recorder"

    def __init__(self) -> None:
        from fairfight.ballot.pollster import Pollster

        self.bot = Pollster()
        self.lines: list[str] = ["abc", "999"]
        self.declared = False

    def decide(self, state, seat):  # type: ignore[no-untyped-def]
        from fairfight.ballot import state as s

        decision = self.bot.decide(state, seat)
        if isinstance(decision, s.DraftPick):
            self.lines.append(str(decision.card))
        elif isinstance(decision, s.Declarations):
            self.lines.append("H-ZZ-1 1 D")
            for d in decision.entries:
                extra = f" {d.district_card}" if d.district_card >= 0 else ""
                self.lines.append(f"{d.race} {d.card} {d.party.value}{extra}")
            self.lines.append("")
        elif isinstance(decision, s.Withdrawals):
            if any(d.player == seat for d in state.declarations):
                self.lines.append(" ".join(decision.races))
        elif isinstance(decision, s.BillDraft):
            rider = f" {decision.rider}" if decision.rider >= 0 else ""
            self.lines.append(" ".join(decision.tags) + rider if decision.tags else "decline")
        elif isinstance(decision, s.YesNo):
            self.lines.append("y" if decision.yes else "n")
        elif isinstance(decision, s.AmendmentDraft):
            self.lines.append(" ".join(decision.tags) or "pass")
        elif isinstance(decision, s.AmendmentVote):
            self.lines.append(decision.choice.value)
        elif isinstance(decision, s.Discards):
            self.lines.append(" ".join(str(c) for c in decision.cards))
        return decision


def human_script(
    key: str = "1000",
    others: tuple[str, ...] = ("machine",),
    years: int | None = 1,
    config: str = "as-written-plus",
) -> tuple[list[str], list[Event]]:
    """Seat 0's answers (and the game's events), found by letting a Pollster play that seat."""
    recorder = Recorder()
    seats = [recorder, *make_bots(["pollster", *others])[1:]]
    _, events = play_game(named_config(config), key, seats, max_years=years)  # type: ignore[list-item]
    return recorder.lines, events
