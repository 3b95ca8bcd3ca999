"""Ballot: a seat that always takes the advice, against a Pollster in the same seat.

Every seating of 4 and 5 seats: the advice seat in each place, each other seat a Pollster or
a Machine (2**(n-1) line-ups times n places: 112 seatings), over the same keys. The baseline is
the same game with a Pollster in the advice seat's place; the figure is the advice seat's mean
score over the baseline's (the issue's target is >= 1.0), with how many games differed at all.
Whole games of `as-written-plus`, points mode, played in two local processes.
"""

from __future__ import annotations

import time
from itertools import product

from fairfight.ballot.advisor import AdviceSeat
from fairfight.ballot.bots import make_bots
from fairfight.ballot.players import Player, play_game
from fairfight.ballot.tables import named_config
from fairfight.core.executor import WorkerPool

KEYS = tuple(str(key) for key in range(5000, 5003))
"""Three keys per seating: 336 pairs of games (672 games played)."""
JOBS = 2

Pairing = tuple[str, tuple[str, ...], int]
"""A key, the line-up by seat, and the advice seat's place in it."""


def seatings() -> list[tuple[tuple[str, ...], int]]:
    """Every line-up of Pollster and Machine with a Pollster at `place`, at 4 and 5 seats."""
    found = []
    for seats in (4, 5):
        for place in range(seats):
            for others in product(("pollster", "machine"), repeat=seats - 1):
                lineup = (*others[:place], "pollster", *others[place:])
                found.append((lineup, place))
    return found


def play_pair(pairing: Pairing) -> tuple[int, int]:
    """(the Pollster's final score, the advice seat's final score) in the same seat and key."""
    key, lineup, place = pairing
    config = named_config("as-written-plus")
    base, _ = play_game(config, key, make_bots(lineup))
    players: list[Player] = make_bots(lineup)
    players[place] = AdviceSeat()
    followed, _ = play_game(config, key, players)
    return base.last_scores[place], followed.last_scores[place]


def main() -> None:
    pairings = [(key, lineup, place) for lineup, place in seatings() for key in KEYS]
    started = time.perf_counter()
    with WorkerPool(JOBS) as pool:
        results = pool.gather([pool.submit(play_pair, pairing) for pairing in pairings])
    elapsed = time.perf_counter() - started
    base = sum(score for score, _ in results)
    followed = sum(score for _, score in results)
    differed = sum(1 for one, other in results if one != other)
    label = "ballot advice seat / Pollster, mean score (target >= 1.0)"
    print(f"{label:<60} {followed / base:>8.3f}x", flush=True)
    print(
        f"{len(results)} pairs ({2 * len(results)} games) over {len(seatings())} seatings of 4 "
        f"and 5 seats, keys {KEYS[0]}-{KEYS[-1]}: mean {base / len(results):.2f} (Pollster) "
        f"vs {followed / len(results):.2f} (advice); {differed} pairs scored differently; "
        f"{elapsed:.0f} s",
        flush=True,
    )
