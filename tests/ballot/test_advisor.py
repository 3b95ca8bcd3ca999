"""The advice plays a seat as the Pollster does, from what that seat may see.

Checked three ways against things the advice does not compute itself: the Pollster playing the
seat in a real game (it reads the whole state; its answer is its own call), the hand the engine
dealt before the reveal, and games where the other seats' hidden cards are changed.
"""

from __future__ import annotations

import re
from functools import cache

from fairfight.ballot import advisor
from fairfight.ballot.advisor import ADVICE_OPTIMISES, AdviceSeat, advise, before_declaring
from fairfight.ballot.bots import make_bots
from fairfight.ballot.engine import advance, new_game, requested_seats
from fairfight.ballot.hidden import visible_state
from fairfight.ballot.human import TerminalHuman
from fairfight.ballot.players import Player, play_game
from fairfight.ballot.pollster import RESERVE, TAKE_FLOOR, Pollster
from fairfight.ballot.rules_page import render_rules
from fairfight.ballot.scoring import scores
from fairfight.ballot.seat_view import NOBODY, seat_view
from fairfight.ballot.state import (
    NO_CARD,
    Decision,
    Declarations,
    DraftPick,
    GameState,
    Phase,
)
from fairfight.ballot.tables import BallotConfig, named_config

SEATS = ("pollster", "machine", "pollster", "machine")
YEARS = 3


def _config(mode: str = "points", years: int = YEARS) -> BallotConfig:
    return named_config("as-written-plus", mode).model_copy(update={"year_cap": years})


@cache
def pollster_game(key: str, mode: str = "points") -> tuple[tuple[GameState, int, Decision], ...]:
    """Every decision the Pollsters of a short bot game made: the state, the seat, the answer."""
    bots = make_bots(SEATS)
    state, _ = new_game(_config(mode), key, len(SEATS))
    asked: list[tuple[GameState, int, Decision]] = []
    while state.phase is not Phase.OVER:
        answers = {seat: bots[seat].decide(state, seat) for seat in requested_seats(state)}
        asked.extend((state, s, a) for s, a in answers.items() if SEATS[s] == "pollster")
        state, _ = advance(state, answers)
    return tuple(asked)


def test_the_advice_is_the_pollsters_own_answer_in_every_phase() -> None:
    """The Pollster's answers were its own calls on the whole state, its bids remembered from
    one step to the next; the advice is asked afresh with only the seat's view."""
    phases = set()
    for key, mode in (("1000", "points"), ("1007", "amendment")):
        for state, seat, answer in pollster_game(key, mode):
            assert advise(state, seat).choice == answer, (key, state.year, state.phase, seat)
            phases.add(state.phase)
    assert {Phase.DRAFT, Phase.DECLARE, Phase.WITHDRAW, Phase.BILL_VOTE} <= phases


def test_the_advice_does_not_depend_on_the_other_seats_hidden_cards() -> None:
    """Another seat's hand and the deck swapped for other cards: the same advice, word for
    word, at every step where seat 0 is asked."""
    for state, seat, _ in pollster_game("1000"):
        if seat != 0:
            continue
        others = [c for n, hand in enumerate(state.hands) if n != seat for c in hand]
        pool = sorted(set(others) | set(state.deck))
        swapped = pool[::-1]  # a different card in nearly every hidden place, sizes kept
        hands, at = [], 0
        for n, hand in enumerate(state.hands):
            if n == seat:
                hands.append(hand)
                continue
            hands.append(tuple(sorted(swapped[at : at + len(hand)])))
            at += len(hand)
        changed = state.with_changes(hands=tuple(hands), deck=tuple(swapped[at:]))
        assert changed.hands != state.hands or state.phase is not Phase.DECLARE
        assert advise(changed, seat) == advise(state, seat), (state.year, state.phase)


def test_before_declaring_gives_back_the_hand_the_engine_dealt() -> None:
    """At each withdraw step, seat 0's hand before the reveal is the hand the declare step
    showed it (the engine's own state one step earlier)."""
    asked = [(s, seat) for s, seat, _ in pollster_game("1000") if seat == 0]
    for (before, _), (after, _) in zip(asked, asked[1:], strict=False):
        if before.phase is Phase.DECLARE and after.phase is Phase.WITHDRAW:
            rebuilt = before_declaring(after)
            assert rebuilt.hands[0] == before.hands[0]
            assert [len(h) for h in rebuilt.hands] == [len(h) for h in before.hands]


def test_the_reason_names_what_was_declared_and_what_was_kept() -> None:
    state = next(s for s, seat, _ in pollster_game("1000") if s.phase is Phase.DECLARE)
    advice = advise(state, 0)
    assert isinstance(advice.choice, Declarations)
    for entry in advice.choice.entries:
        assert f"{entry.race} with #{entry.card} as {entry.party.value}" in advice.reason
    spent = {e.card for e in advice.choice.entries} | {
        e.district_card for e in advice.choice.entries
    }
    named = {int(n) for n in re.findall(r"#(\d+)", advice.reason)}
    assert named == set(state.hands[0]) - {NO_CARD}
    assert spent - {NO_CARD} <= named
    assert advice.reason.count(".") >= 1 and "\n" not in advice.reason


def test_an_advice_seat_plays_the_game_the_pollster_plays_in_its_seat() -> None:
    """The small bench: the same keys, the advice seat in place of a Pollster, the same game."""
    for key in ("1003", "1004"):
        config = _config(years=2)
        base, _ = play_game(config, key, make_bots(SEATS))
        players: list[Player] = make_bots(SEATS)
        players[2] = AdviceSeat()
        followed, _ = play_game(config, key, players)
        assert scores(followed) == scores(base)
        assert followed.last_scores == base.last_scores


def test_the_rules_page_the_seat_view_and_the_terminal_show_the_advice() -> None:
    """The rules page says what the advice optimises with the bot's own thresholds; a seat
    that is asked sees the advice's sentence, on the page and at the terminal, once."""
    rules = render_rules()
    assert "## What the advice optimises" in rules and ADVICE_OPTIMISES in rules
    assert f"{TAKE_FLOOR} points" in ADVICE_OPTIMISES and f"keeps {RESERVE} cards" in rules
    state, seat, _ = pollster_game("1000")[0]
    assert state.phase is Phase.DRAFT
    reason = advise(state, seat).reason
    view = seat_view(state, [], seat)
    assert view.advice == reason and view.advice_optimises == ADVICE_OPTIMISES
    assert seat_view(state, [], 1).advice == advise(state, 1).reason != reason
    assert seat_view(state, [], seat, asked=False).advice == ""
    assert seat_view(state, [], NOBODY).advice == ""
    said: list[str] = []
    human = TerminalHuman(ask=lambda _: str(state.packs[seat][0]), say=said.append)
    assert human.decide(state, seat) == DraftPick(state.packs[seat][0])
    assert said.count(f"Advice: {reason}") == 1


def test_the_withdraw_advice_finds_the_bids_the_declare_advice_made() -> None:
    """Seat 0's advice at each declare step keeps its House bids; at the next withdraw step
    they are found again from the withdraw view alone, and they are the bids a fresh Pollster
    declaring on the board as it stood before the reveal makes."""
    found = 0
    for state, seat, _ in pollster_game("1000"):
        if seat != 0:
            continue
        if state.phase is Phase.DECLARE:
            advise(state, seat)
        elif state.phase is Phase.WITHDRAW:
            before = before_declaring(visible_state(state, seat))
            kept = advisor._KEPT_BIDS.find(before, seat)
            fresh = Pollster()
            fresh.declare(before, seat)
            assert kept == fresh.bids, state.year
            found += 1
    assert found >= 2
