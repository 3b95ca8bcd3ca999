"""What a seat is told about its game, in plain lines: the opening screen and the events.

Every line is plain text (a terminal prints it without markup, so `[union, farm]` stays as
written) and every number comes from the events or the engine, never recomputed here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fairfight.ballot import tables
from fairfight.ballot.deck import build_cards
from fairfight.ballot.elections import Event
from fairfight.ballot.legislature import thresholds
from fairfight.ballot.state import GameState
from fairfight.ballot.story import end_sentence
from fairfight.core.enumdocs import member_docs

__all__ = [
    "card_count",
    "hand_lines",
    "holder_text",
    "narrate",
    "opening_lines",
    "who",
]


def who(holder: int, me: int | None = None) -> str:
    """`you`, `seat 2` or `the board`."""
    if holder == me:
        return "you"
    return "the board" if holder < 0 else f"seat {holder}"


def card_count(count: int, noun: str = "card") -> str:
    """`1 card`, `3 cards`: a count with its noun in the right number."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def holder_text(state: GameState, seat_index: int, me: int | None = None) -> str:
    """Who holds a seat, in words: `held by you (D)`, `held by the board (R)`, or, for the
    presidency before its first election, that it is open (its placeholder party means
    nothing) [1.6, 5.8]."""
    if seat_index == 0 and state.presidency_open():
        return "open: no holder before the first presidential election"
    holding = state.seats[seat_index]
    return f"held by {who(holding.holder, me)} ({holding.party.value})"


def opening_lines(state: GameState, seat: int, names: Sequence[str]) -> list[str]:
    """The opening screen: your seat, your opponents, the mode and how to win, your hand."""
    config = state.config
    mode = config.victory
    limits = thresholds()
    lines = [
        f"Ballot: {config.name}, victory mode {mode.value}, {state.players} seats, "
        f"{config.start_year}-{config.last_year()}.",
        f"You play seat {seat}. Opponents: "
        + ", ".join(f"seat {n} ({name})" for n, name in enumerate(names) if n != seat)
        + ".",
        f"How the game ends: {member_docs(tables.VictoryMode)[mode]}",
        "How to win: the highest score at the final scoring; ties go to more Senate seats, "
        "then more bills held.",
        f"Scores each year: presidency {config.score.presidency}, Senate seat "
        f"{config.score.senate}, governor {config.score.governor}, House seat "
        f"{config.score.house}, bill held {config.score.bill}, card in hand "
        f"{config.score.hand_card} (hand limit {config.hand_limit}).",
        f"Bills pass with {limits.house_pass} House and {limits.senate_pass} Senate yes votes; "
        f"amendments: {limits.amend_call} governors call a convention, "
        f"{limits.amend_ratify} ratify, {limits.amend_block} block.",
        f"The start player this year is seat {state.start_player}.",
    ]
    return lines + hand_lines(state, seat)


def hand_lines(state: GameState, seat: int) -> list[str]:
    """The hand, one card a line."""
    cards = build_cards(state.key)
    return [f"Your hand ({card_count(len(state.hands[seat]))}):"] + [
        f"  {cards[card_id].label()}" for card_id in state.hands[seat]
    ]


def _primary_lines(primary: dict[str, Any], race: str, me: int) -> list[str]:
    """A primary you ran in: every entrant's total, and whether you won it."""
    entries = primary["entries"]
    if not any(entry["player"] == me for entry in entries):
        return []
    field = ", ".join(f"{who(e['player'], me)} {e['total']}" for e in entries)
    verdict = "won" if primary["winner"] == me else f"lost to {who(primary['winner'], me)}"
    recount = " after a recount" if primary["recount"] else ""
    return [f"{race} {primary['party']} primary: you {verdict}{recount} ({field})"]


def _race_lines(event: Event, me: int) -> list[str]:
    lines = [line for p in event["primaries"] for line in _primary_lines(p, event["race"], me)]
    sides = event["sides"]
    mine = event["holder"] == me or any(side["player"] == me for side in sides.values())
    if mine or lines:
        totals = ", ".join(
            f"{party} {who(side['player'], me)} {side['total']}" for party, side in sides.items()
        )
        lines.append(
            f"{event['race']}: {event['winner']} wins by {event['margin']} ({totals}); "
            f"the seat goes to {who(event['holder'], me)}"
        )
    return lines


def _presidency_lines(event: Event, me: int) -> list[str]:
    lines = [line for p in event["primaries"] for line in _primary_lines(p, "President", me)]
    votes = event["electoral_votes"]
    winner = event["winner"]
    loser = next(party for party in votes if party != winner)
    nominees = ", ".join(f"{party} {who(n, me)}" for party, n in event["nominees"].items())
    lines.append(
        f"President: {winner} wins {votes[winner]}-{votes[loser]} electoral votes "
        f"({winner} {votes[winner]}, {loser} {votes[loser]}; nominees {nominees}); "
        f"the presidency goes to {who(event['holder'], me)}"
    )
    return lines


def narrate(event: Event, me: int) -> list[str]:
    """The lines a seat is told about one event (nothing for events that do not concern it)."""
    kind = event["event"]
    if kind == "year":
        return [f"== {event['year']} (start player: {who(event['start_player'], me)}) =="]
    if kind == "reveal":
        rivals: dict[int, list[str]] = {}
        for entry in event["declarations"]:
            if entry["player"] != me:
                rivals.setdefault(entry["player"], []).append(entry["race"])
        lines = [
            f"Seat {player} declares {len(races)}: {', '.join(races[:8])}"
            + (" ..." if len(races) > 8 else "")
            for player, races in sorted(rivals.items())
        ]
        return lines + [f"Retired: {', '.join(event['retired'])}"] if event["retired"] else lines
    if kind == "presidency":
        return _presidency_lines(event, me)
    if kind == "race":
        return _race_lines(event, me)
    if kind == "elections":
        contested = sum(event["contested"].values())
        return [f"Races contested: {contested} of {sum(event['races'].values())}"]
    if kind in ("bill-vote", "override-vote"):
        verdict = "passes" if event["passed"] else "fails"
        what = "Override" if kind == "override-vote" else "Omnibill"
        return [
            f"{what} {verdict}: House {event['house_yes']} yes, Senate {event['senate_yes']} yes"
        ]
    if kind == "veto":
        return [f"Vetoed by {who(event['by'], me)}"]
    if kind == "enacted":
        return [
            f"Bill #{event['bill']} [{', '.join(event['tags'])}] enacted, held by "
            f"{who(event['holder'], me)}, written by {who(event['author'], me)}"
        ]
    if kind == "impeach-motion":
        return [f"Impeachment moved by {who(event.get('mover', -1), me)}"]
    if kind == "impeach-vote":
        verdict = "removed" if event["passed"] else "stays"
        return [f"Impeachment: {event['senate_yes']} Senate yes; the president {verdict}"]
    if kind == "amendment-count":
        counts = event["counts"]
        return [
            f"Amendment [{', '.join(event['tags'])}] ({event['stage']}): for {counts['for']}, "
            f"against {counts['against']}, abstain {counts['abstain']}: {event['result']}"
        ]
    if kind == "scoring":
        return [f"Scores after {event['year']}: {', '.join(map(str, event['scores']))}"]
    if kind == "end":
        winners = " and ".join(who(w, me) for w in event["winners"])
        return [f"Game over in {event['year']}: {winners} won. {end_sentence(event['reason'])}"]
    return []
