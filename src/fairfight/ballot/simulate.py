"""Seeded bot games and the smoke metrics of the design (section 11, Appendix B).

Each game is summarised from its events into a small dict, so games can run in other
processes; summaries are combined in game order, so the figures do not depend on how many
processes ran them.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from fairfight.ballot.bots import make_bots
from fairfight.ballot.elections import Event
from fairfight.ballot.players import play_game
from fairfight.ballot.tables import BallotConfig, VictoryMode
from fairfight.core.executor import Executor, WorkerPool

__all__ = [
    "COLLECT_EVERY",
    "GameSpec",
    "Summary",
    "metrics",
    "run_game",
    "run_games",
    "summarise",
]


Summary = dict[str, Any]
COLLECT_EVERY = 50_000
"""Net container allocations between the collector's young-generation passes during a batch."""


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One simulated game: config, key and the bots by seat."""

    config: BallotConfig
    key: str
    players: tuple[str, ...]


def summarise(events: list[Event], players: Sequence[str]) -> Summary:
    """The per-game numbers the metrics need, read off the event stream."""
    summary: Summary = {
        "races": {},
        "contested": {},
        "house_even": [0, 0],
        "proposed": 0,
        "bills": 0,
        "non_author": 0,
        "motions": 0,
        "impeached": 0,
        "presidencies": 0,
        "kept": 0,
        "ev_margins": [],
        "largest_hand": 0,
        "primaries": 0,
        "length": 0,
        "reason": "",
        "winners": [],
        "scores": [],
        "players": list(players),
    }
    for event in events:
        kind = event["event"]
        if kind == "elections":
            year = str(event["year"])
            summary["races"][year] = sum(event["races"].values())
            summary["contested"][year] = sum(event["contested"].values())
            if event["year"] % 2 == 0:
                summary["house_even"][0] += event["contested"]["house"]
                summary["house_even"][1] += event["races"]["house"]
        elif kind in ("race", "presidency"):
            summary["primaries"] += len(event["primaries"])
            if kind == "presidency":
                votes = event["electoral_votes"]
                summary["ev_margins"].append(abs(votes["D"] - votes["R"]))
                if summary["ev_margins"][1:]:
                    summary["presidencies"] += 1
                    summary["kept"] += event["previous"]["party"] == event["winner"]
        elif kind == "bill-vote":
            summary["proposed"] += 1
        elif kind == "enacted":
            summary["bills"] += 1
            summary["non_author"] += event["holder"] != event["author"]
        elif kind == "impeach-motion":
            summary["motions"] += 1
        elif kind == "impeach-vote":
            summary["impeached"] += event["passed"]
        elif kind == "scoring":
            summary["largest_hand"] = max(summary["largest_hand"], *event["hands"])
            summary["length"] += 1
        elif kind == "end":
            summary["reason"] = event["reason"]
            summary["winners"] = event["winners"]
            summary["scores"] = event["scores"]
    return summary


def run_game(spec: GameSpec) -> Summary:
    """Play one seeded bot game and summarise it."""
    _, events = play_game(spec.config, spec.key, make_bots(spec.players))
    return summarise(events, spec.players)


def run_games(
    specs: list[GameSpec],
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    executor: Executor | None = None,
) -> list[Summary]:
    """Run games in order, in this process or in `jobs` local processes; same results either way.

    An `executor` (e.g. a Dask scheduler's) runs one game per task instead; each game carries
    its own key, so the results are the same again.
    """
    results: list[Summary] = []
    if executor is not None:
        finished = [0]

        def advance(done: int) -> None:
            if progress:
                progress(done - finished[0])
            finished[0] = done

        return list(executor.map(run_game, [(spec,) for spec in specs], advance))
    if jobs <= 1:
        with _fewer_collections():
            for spec in specs:
                results.append(run_game(spec))
                if progress:
                    progress(1)
        return results
    reported = [0]

    def games_done(done: int) -> None:
        if progress:
            progress(done - reported[0])
        reported[0] = done

    # One game per task: a game's pickled spec costs far less than the idle core a worker
    # would leave while the other plays out a chunk of several at the end of the batch.
    with WorkerPool(jobs, setup=_collect_as_a_batch) as pool:
        return pool.gather([pool.submit(run_game, spec) for spec in specs], games_done)


def _collect_as_a_batch() -> None:
    """A worker collects garbage as a batch does (it ends with the batch: nothing to restore)."""
    gc.freeze()
    gc.set_threshold(COLLECT_EVERY, *gc.get_threshold()[1:])


@contextmanager
def _fewer_collections() -> Iterator[None]:
    """A game allocates hundreds of thousands of short-lived tuples and keeps no cycles worth
    chasing, while the collector's full passes would walk every table and cache alive before
    the batch: those are set aside (`gc.freeze`) and the young generation is collected less
    often. Settings are restored afterwards; no result depends on them."""
    previous = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(COLLECT_EVERY, *previous[1:])
    try:
        yield
    finally:
        gc.set_threshold(*previous)
        gc.unfreeze()


def _share(part: float, whole: float) -> float:
    return part / whole if whole else 0.0


def metrics(summaries: list[Summary], mode: VictoryMode) -> dict[str, Any]:
    """The smoke metrics of one mode's batch of games [11, Appendix B]."""
    games = len(summaries)
    players = summaries[0]["players"] if summaries else []
    wins_by_bot, wins_by_seat, scores_by_bot = _wins_and_scores(summaries, len(players))
    years = _contests_by_year(summaries)
    contested = sum(pair[0] for pair in years.values())
    races = sum(pair[1] for pair in years.values())
    even = [pair for year, pair in years.items() if int(year) % 2 == 0]
    house = [sum(s["house_even"][0] for s in summaries), sum(s["house_even"][1] for s in summaries)]
    bills = sum(s["bills"] for s in summaries)
    margins = [m for s in summaries for m in s["ev_margins"]]
    return {
        "mode": mode.value,
        "games": games,
        "ended_by": {
            r: sum(s["reason"] == r for s in summaries) / games
            for r in sorted({s["reason"] for s in summaries})
        }
        if games
        else {},
        "win_share_by_bot": {bot: w / games for bot, w in sorted(wins_by_bot.items())},
        "win_share_by_seat": [w / games for w in wins_by_seat] if games else [],
        "contested_by_year": {y: _share(*pair) for y, pair in sorted(years.items())},
        "contested_all": _share(contested, races),
        "contested_even": _share(sum(p[0] for p in even), sum(p[1] for p in even)),
        "house_contested_even": _share(*house),
        "games_with_bill": _share(sum(s["bills"] > 0 for s in summaries), games),
        "bills_per_game": _share(bills, games),
        "non_author_bills": sum(s["non_author"] for s in summaries),
        "bills_proposed_per_game": _share(sum(s["proposed"] for s in summaries), games),
        "bill_pass_rate": _share(bills, sum(s["proposed"] for s in summaries)),
        "bills_per_year": _share(bills, sum(s["length"] for s in summaries)),
        "impeachments": [
            sum(s["impeached"] for s in summaries),
            sum(s["motions"] for s in summaries),
        ],
        "incumbent_party_keeps": _share(
            sum(s["kept"] for s in summaries), sum(s["presidencies"] for s in summaries)
        ),
        "mean_ev_margin": _share(sum(margins), len(margins)),
        "largest_hand": max((s["largest_hand"] for s in summaries), default=0),
        "mean_length": _share(sum(s["length"] for s in summaries), games),
        "mean_score_by_bot": {b: _share(sum(v), len(v)) for b, v in sorted(scores_by_bot.items())},
        "primaries_per_game": _share(sum(s["primaries"] for s in summaries), games),
    }


def _wins_and_scores(
    summaries: list[Summary], seats: int,
) -> tuple[dict[str, float], list[float], dict[str, list[int]]]:
    """Wins by bot and by seat (a shared win split evenly) and every final score by bot."""
    wins_by_bot: dict[str, float] = {}
    wins_by_seat = [0.0] * seats
    scores_by_bot: dict[str, list[int]] = {}
    for summary in summaries:
        for seat in summary["winners"]:
            credit = 1 / len(summary["winners"])
            wins_by_bot[summary["players"][seat]] = (
                wins_by_bot.get(summary["players"][seat], 0) + credit
            )
            wins_by_seat[seat] += credit
        for seat, score in enumerate(summary["scores"]):
            scores_by_bot.setdefault(summary["players"][seat], []).append(score)
    return wins_by_bot, wins_by_seat, scores_by_bot


def _contests_by_year(summaries: list[Summary]) -> dict[str, list[int]]:
    """For each year, [contested races, races] summed over the games, in first-seen order."""
    years: dict[str, list[int]] = {}
    for summary in summaries:
        for year, races in summary["races"].items():
            pair = years.setdefault(year, [0, 0])
            pair[0] += summary["contested"][year]
            pair[1] += races
    return years
