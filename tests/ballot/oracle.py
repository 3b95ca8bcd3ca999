"""Independent oracles for the ballot rule tests: section 13 draws straight from hashlib,
the board-only presidency worked out state by state, and hand-built states.
"""

from __future__ import annotations

import hashlib

from fairfight.ballot.deck import build_cards
from fairfight.ballot.elections import YearWork
from fairfight.ballot.engine import new_game
from fairfight.ballot.geo import game_map
from fairfight.ballot.state import (
    GameState,
    Holding,
)
from fairfight.ballot.tables import (
    Office,
    named_config,
)
from tests.ballot.appendix_a import rows

CONFIG = named_config("as-written-plus")


VOCABULARY = [
    "catholic",
    "evangelical",
    "jewish",
    "black",
    "hispanic",
    "cuban",
    "union",
    "rural",
    "suburban",
    "urban",
    "farm",
]


def hash64(text: str) -> int:
    """First 8 bytes of SHA-256 of the ASCII text, big-endian [13]."""
    return int.from_bytes(hashlib.sha256(text.encode("ascii")).digest()[:8], "big")


def below(n: int, text: str) -> int:
    return hash64(text) * n >> 64


def d6(text: str) -> int:
    return 1 + below(6, text)


def fresh(players: int = 2, key: str = "1000") -> GameState:
    state, _ = new_game(CONFIG, key, players)
    return state


def seats_of(office: Office) -> list[int]:
    return [seat.index for seat in game_map().seats if seat.office is office]


def board_only_presidency(key: str, year: int) -> tuple[dict[str, tuple[str, int]], int]:
    """Every state's winner and margin with two board generics (card part 1), by hashlib."""
    result: dict[str, tuple[str, int]] = {}
    d_votes = 0
    for row in rows():
        code = row["code"]
        totals = {}
        for party in "DR":
            totals[party] = (
                d6(f"{key}:{year}:nat:{party}")
                + d6(f"{key}:{year}:state:{party}:{code}")
                + d6(f"{key}:{year}:cand:P-{code}:{party}")
                + 1
                + (int(row["base"]) if party == "D" else 0)  # type: ignore[call-overload]
            )
        if totals["D"] == totals["R"]:
            tied, round_number = ["D", "R"], 0
            while len(tied) > 1:
                rolls = {s: d6(f"{key}:{year}:recount:P-{code}:G:{round_number}:{s}") for s in tied}
                tied = [s for s in tied if rolls[s] == max(rolls.values())]
                round_number += 1
            result[str(code)] = (tied[0], 0)
        else:
            winner = "D" if totals["D"] > totals["R"] else "R"
            result[str(code)] = (winner, abs(totals["D"] - totals["R"]))
        if result[str(code)][0] == "D":
            d_votes += int(row["ev"])  # type: ignore[call-overload]
    return result, d_votes


def push_by_hand(margin: int) -> int:
    """6.1: margin 0-1 pushes 2, 2-3 pushes 3, 4 or more pushes 4."""
    return 2 if margin <= 1 else 3 if margin <= 3 else 4


def presidency_work(key: str, year: int, previous: Holding, first: bool) -> YearWork:
    state = fresh(2, key)
    seats = list(state.seats)
    seats[0] = previous
    return YearWork(
        key=key,
        year=year,
        cards=build_cards(key),
        seats=seats,
        hands=[list(h) for h in state.hands],
        discard=[],
        lean=[0] * 50,
        honeymoon=[0] * 50,
        honeymoon_size=1,
        lean_cap=5,
        impeached_this_term=False,
        presidential_wins=[],
        open_presidency=first,
    )
