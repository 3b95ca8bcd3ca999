"""A seat's view is one value built by the ruleset from what that seat may know: changing
another seat's hand, pack or the deck's order changes nothing in it, none of their cards nor
the key appears in it, the terminal seat says the same prompt the page shows, and the web page
carries the view's fields as they are."""

from __future__ import annotations

import ast
import inspect
from functools import cache
from typing import Any

import pytest

from fairfight import ballot
from fairfight.ballot.bots import make_bots
from fairfight.ballot.deck import build_cards
from fairfight.ballot.elections import Event
from fairfight.ballot.engine import advance, new_game, requested_seats
from fairfight.ballot.human import TerminalHuman
from fairfight.ballot.seat_view import NOBODY, SeatView, seat_view, visible_state
from fairfight.ballot.state import NO_CARD, GameState, Phase
from fairfight.ballot.tables import named_config
from fairfight.web.ballot.seat_page import GamePage, view_page

PLAYERS = 4


@cache
def played() -> tuple[tuple[GameState, tuple[Event, ...]], ...]:
    """Every state of a one-year game played by bots, with the events told so far."""
    config = named_config("as-written-plus").model_copy(update={"year_cap": 1})
    state, events = new_game(config, "5eed" * 16, PLAYERS)
    bots = make_bots(["pollster", "machine", "pollster", "machine"])
    seen = [(state, tuple(events))]
    while state.phase is not Phase.OVER:
        answers = {seat: bots[seat].decide(state, seat) for seat in requested_seats(state)}
        state, more = advance(state, answers)
        events = [*events, *more]
        seen.append((state, tuple(events)))
    return tuple(seen)


def sampled() -> list[tuple[GameState, tuple[Event, ...]]]:
    """One state of each phase the game went through (the first time it was reached)."""
    firsts: dict[Phase, tuple[GameState, tuple[Event, ...]]] = {}
    for state, events in played():
        firsts.setdefault(state.phase, (state, events))
    return list(firsts.values())


def others_reshuffled(state: GameState, viewer: int) -> GameState:
    """The same game for `viewer`, with the other seats' hands and packs and the deck dealt
    again from their cards in reverse order (every size kept)."""
    others = [n for n in range(state.players) if n != viewer]
    pool = list(state.deck)
    for n in others:
        pool += list(state.hands[n]) + (list(state.packs[n]) if state.packs else [])
    pool.reverse()

    def deal(size: int) -> tuple[int, ...]:
        dealt = tuple(pool[:size])
        del pool[:size]
        return dealt

    deck = deal(len(state.deck))
    hands = list(state.hands)
    packs = list(state.packs)
    for n in others:
        hands[n] = deal(len(state.hands[n]))
        if packs:
            packs[n] = deal(len(state.packs[n]))
    return state.with_changes(deck=deck, hands=tuple(hands), packs=tuple(packs))


def test_the_game_reaches_the_phases_the_view_differs_in() -> None:
    phases = {state.phase for state, _ in played()}
    assert {Phase.DRAFT, Phase.DECLARE, Phase.WITHDRAW, Phase.OVER} <= phases


@pytest.mark.parametrize("viewer", [*range(PLAYERS), NOBODY])
def test_other_seats_secrets_change_nothing_in_the_view(viewer: int) -> None:
    for state, events in sampled():
        changed = others_reshuffled(state, viewer)
        assert changed.hands != state.hands or state.phase is Phase.OVER
        assert seat_view(changed, events, viewer) == seat_view(state, events, viewer)


@pytest.mark.parametrize("viewer", [*range(PLAYERS), NOBODY])
def test_no_card_of_another_seat_nor_the_key_is_in_the_view(viewer: int) -> None:
    for state, events in sampled():
        cards = build_cards(state.key)
        text = seat_view(state, events, viewer).model_dump_json()
        assert state.key not in text
        for seat in range(state.players):
            if seat == viewer:
                continue
            held = list(state.hands[seat]) + (list(state.packs[seat]) if state.packs else [])
            leaked = [cards[c].label() for c in held if cards[c].label() in text]
            assert leaked == [], (state.phase, seat, leaked)


def test_the_viewers_own_hand_is_in_its_view() -> None:
    state, events = next((s, e) for s, e in sampled() if s.phase is Phase.DECLARE)
    view = seat_view(state, events, 2)
    assert [card.id for card in view.hand] == list(state.hands[2])
    assert view.asked and view.prompt and view.suggestions


def test_the_visible_state_keeps_only_the_viewers_cards() -> None:
    state, _ = next((s, e) for s, e in sampled() if s.phase is Phase.DRAFT)
    seen = visible_state(state, 1)
    assert seen.hands[1] == state.hands[1] and seen.packs[1] == state.packs[1]
    for seat in (0, 2, 3):
        assert seen.hands[seat] == (NO_CARD,) * len(state.hands[seat])
        assert seen.packs[seat] == (NO_CARD,) * len(state.packs[seat])
    assert seen.deck == (NO_CARD,) * len(state.deck)


def test_a_spectator_is_never_asked_and_holds_no_cards() -> None:
    for state, events in sampled():
        view = seat_view(state, events, NOBODY, asked=True)
        assert not view.asked and view.hand == [] and view.pack == [] and view.prompt == []


@pytest.mark.parametrize("phase", [Phase.DRAFT, Phase.DECLARE, Phase.WITHDRAW])
def test_the_terminal_seat_says_the_prompt_the_page_shows(phase: Phase) -> None:
    state, events = next((s, e) for s, e in sampled() if s.phase is phase)
    seat = requested_seats(state)[0]
    prompt = seat_view(state, events, seat).prompt
    assert prompt
    said: list[str] = []
    answers = iter(["", "pass"] if phase is not Phase.DRAFT else [str(state.packs[seat][0])])
    human = TerminalHuman(ask=lambda _: next(answers), say=said.append, opened=True)
    human.decide(state, seat)
    for line in prompt:
        assert line in said


def test_the_page_is_the_view_with_the_tables_names() -> None:
    state, events = next((s, e) for s, e in sampled() if s.phase is Phase.DECLARE)
    view = seat_view(state, events, 0, asked=True)
    page = view_page("t", state, events, ["a", "b", "c", "d"], 0, True)
    from_view = set(SeatView.model_fields) - {"scores"}
    # the page's own: the table's names, and the board and the declarations laid out to pick
    assert set(GamePage.model_fields) == from_view | {"id", "seats", "tiles", "choices"}
    for name in from_view:
        assert getattr(page, name) == getattr(view, name), name
    assert [(s.name, s.score) for s in page.seats] == list(zip("abcd", view.scores, strict=True))


def ruleset_imports(source: str) -> set[str]:
    """The ballot modules a module's source imports when it loads (TYPE_CHECKING left out)."""
    found: set[str] = set()
    for node in ast.parse(source).body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        for inner in ast.walk(node):
            if isinstance(inner, ast.ImportFrom) and inner.module:
                found.update(
                    f"{inner.module}.{alias.name}" if inner.module == "fairfight" else inner.module
                    for alias in inner.names
                )
            elif isinstance(inner, ast.Import):
                found.update(alias.name for alias in inner.names)
    return {name for name in found if name.startswith("fairfight.ballot")}


def test_the_page_module_reaches_the_ruleset_only_through_its_view() -> None:
    module = inspect.getmodule(view_page)
    assert module is not None
    source = inspect.getsource(module)
    allowed = {"fairfight.ballot", "fairfight.ballot.seat_view"}
    assert ruleset_imports(source) == allowed
    planted = source + "\nfrom fairfight.ballot.advice import strongest_declarations\n"
    assert ruleset_imports(planted) != allowed


def test_a_page_is_one_call_for_the_view(monkeypatch: pytest.MonkeyPatch) -> None:
    state, events = next((s, e) for s, e in sampled() if s.phase is Phase.DECLARE)
    calls: list[int] = []
    built = seat_view

    def counted(*args: Any, **kwargs: Any) -> SeatView:
        calls.append(1)
        return built(*args, **kwargs)

    monkeypatch.setattr(ballot, "seat_view", counted)
    view_page("t", state, events, ["a", "b", "c", "d"], 1, True)
    assert calls == [1]
