"""The seating scan: every seating of the two bots at 4 and 5 seats, over many keys and modes.

The golden digests say that a speed change left twenty games as they were; they say nothing of
states those games never reach (a Pollster holding only district cards, passed a pack of only
district cards, once crashed every game of key 1196 at one seating). The scan plays every
seating of Pollster and Machine over a range of keys in `points` and `amendment` and reports
each game that fails to finish, or finishes with a hand over the limit, naming its spec.
`tests/ballot/test_seating_scan.py` runs a short version; `python -m bench.ballot_scan` the wide
one, which every speed change must pass (docs/ballot.md, "Speed"). `advice_specs` puts the
seat that takes the advice in each place a Pollster sits, for a change to the bots or the advice.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from dataclasses import dataclass
from itertools import product

from fairfight.ballot.advisor import AdviceSeat
from fairfight.ballot.bots import make_bots
from fairfight.ballot.players import Player, play_game
from fairfight.ballot.simulate import GameSpec, summarise
from fairfight.ballot.state import Phase
from fairfight.ballot.tables import VictoryMode, named_config
from fairfight.core.executor import WorkerPool

__all__ = [
    "ADVICE_SEAT",
    "SCAN_BOTS",
    "SCAN_MODES",
    "SCAN_SEATS",
    "ScanFailure",
    "advice_specs",
    "check_game",
    "run_scan",
    "scan_players",
    "scan_specs",
]

SCAN_BOTS = ("pollster", "machine")
SCAN_SEATS = (4, 5)
SCAN_MODES = (VictoryMode.POINTS, VictoryMode.AMENDMENT)
ADVICE_SEAT = "advice"
"""The name of a seat that always takes the advice (`advisor.AdviceSeat`) in a scan spec."""


@dataclass(frozen=True, slots=True)
class ScanFailure:
    """A game of the scan that crashed or broke a rule it must keep."""

    spec: GameSpec
    problem: str

    def line(self) -> str:
        """One line naming the game, so it can be played again alone."""
        return (
            f"key {self.spec.key}, seats {','.join(self.spec.players)}, mode "
            f"{self.spec.config.victory.value}, {self.spec.config.year_cap} years: {self.problem}"
        )


def scan_specs(keys: Iterable[str], years: int | None = None) -> list[GameSpec]:
    """Every seating of the two bots at 4 and 5 seats, in both modes, for each key; `years`
    shortens every game to that many years (the same rules, a smaller year cap)."""
    specs: list[GameSpec] = []
    for mode in SCAN_MODES:
        config = named_config("as-written-plus", mode.value)
        if years is not None:
            config = config.model_copy(update={"year_cap": years})
        for seats in SCAN_SEATS:
            for seating in product(SCAN_BOTS, repeat=seats):
                specs.extend(GameSpec(config, key, seating) for key in keys)
    return specs


def advice_specs(keys: Iterable[str], years: int | None = None) -> list[GameSpec]:
    """`scan_specs`' games once for each Pollster in them, that seat taking the advice instead."""
    return [
        GameSpec(spec.config, spec.key, (*spec.players[:place], ADVICE_SEAT,
                                         *spec.players[place + 1 :]))
        for spec in scan_specs(keys, years)
        for place, name in enumerate(spec.players)
        if name == "pollster"
    ]


def scan_players(names: tuple[str, ...]) -> list[Player]:
    """The bots of a scan spec, an advice seat wherever it names one."""
    players = make_bots(tuple("pollster" if n == ADVICE_SEAT else n for n in names))
    return [AdviceSeat() if n == ADVICE_SEAT else p for n, p in zip(names, players, strict=True)]


def check_game(spec: GameSpec) -> ScanFailure | None:
    """Play one game; None when it finishes and no hand is ever over the limit at scoring."""
    try:
        state, events = play_game(spec.config, spec.key, scan_players(spec.players))
    except Exception as error:  # the scan reports every crash with its game, then goes on
        where = traceback.extract_tb(error.__traceback__)[-1]
        place = f"{where.filename.rsplit('/', 1)[-1]}:{where.lineno}"
        return ScanFailure(spec, f"{type(error).__name__}: {error} (at {place})")
    if state.phase is not Phase.OVER:
        return ScanFailure(spec, f"stopped in {state.year} at {state.phase.value}")
    largest = summarise(events, spec.players)["largest_hand"]
    if largest > spec.config.hand_limit:
        return ScanFailure(spec, f"a hand of {largest} at scoring")
    return None


def run_scan(
    specs: list[GameSpec],
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    failed: Callable[[ScanFailure], None] | None = None,
) -> list[ScanFailure]:
    """Play every game of the scan (in `jobs` local processes); the failures, in spec order.

    `failed` hears of each failing game as soon as it is known, so that a scan stopped before
    its end still names the failures it found (the wide scan takes about an hour)."""
    if jobs <= 1:
        found = []
        for spec in specs:
            found.append(check_game(spec))
            if failed and found[-1] is not None:
                failed(found[-1])
            if progress:
                progress(1)
        return [failure for failure in found if failure is not None]
    reported = [0]

    def games_done(done: int) -> None:
        if progress:
            progress(done - reported[0])
        reported[0] = done

    def heard(future: Future[ScanFailure | None]) -> None:
        if failed and not future.cancelled() and future.exception() is None:
            failure = future.result()
            if failure is not None:
                failed(failure)

    with WorkerPool(jobs) as pool:
        futures = [pool.submit(check_game, spec) for spec in specs]
        for future in futures:
            future.add_done_callback(heard)
        results = pool.gather(futures, games_done)
    return [failure for failure in results if failure is not None]
