"""The game as one seat knows it: every card it may not see replaced by `NO_CARD`.

Kept apart from `seat_view` so the advice (`advisor`) and the view both read the game through
the same hiding, and neither imports the other.
"""

from __future__ import annotations

from fairfight.ballot.state import NO_CARD, GameState

__all__ = ["visible_state"]


def visible_state(state: GameState, viewer: int) -> GameState:
    """The game as `viewer` knows it: every other seat's hand and pack, and the deck, hold
    `NO_CARD` in place of each card (their sizes stay, as scores count hand cards)."""

    def hidden(cards: tuple[int, ...]) -> tuple[int, ...]:
        return (NO_CARD,) * len(cards)

    return state.with_changes(
        deck=hidden(state.deck),
        hands=tuple(h if n == viewer else hidden(h) for n, h in enumerate(state.hands)),
        packs=tuple(p if n == viewer else hidden(p) for n, p in enumerate(state.packs)),
    )
