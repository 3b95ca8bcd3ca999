"""Luck of a whole game: a ballot game's per-seat race luck (target: at most 100 ms a game) and
a clash game's per-side loss luck, each against a baseline in the same run.

The baseline of each is the replay the luck command runs first (`verify_record`, or the clash
`replay_record`): the cost a reader of the record pays already. The ballot's luck is timed cold
(every exact chance forgotten before each game, as a fresh process has it, the deck of a key
included) and warm; the figure is milliseconds of wall clock per game, the best of a few runs.
"""

from __future__ import annotations

from fairfight.ballot import luck as ballot_luck
from fairfight.ballot import revealed
from fairfight.ballot.bots import make_bots
from fairfight.ballot.deck import build_cards
from fairfight.ballot.record import record_game, verify_record
from fairfight.ballot.tables import named_config
from fairfight.clash.ai import ai_orders
from fairfight.clash.generate import generate_scenario
from fairfight.clash.luck import game_luck as clash_game_luck
from fairfight.clash.record import GameRecord, merge_orders, replay_record
from fairfight.clash.scenario import parse_scenario

from .timing import best_seconds

KEYS = ("3400", "3401", "3402")
PLAYERS = ["pollster", "machine", "pollster", "machine"]
CLASH_TURNS = 8


def _cold() -> None:
    ballot_luck.one_die_chance.cache_clear()
    revealed._primary_chance.cache_clear()
    build_cards.cache_clear()


def _line(label: str, ms: float, baseline: float | None = None) -> None:
    ratio = f"  ({ms / baseline:,.2f}x baseline)" if baseline else ""
    print(f"{label:<52} {ms:>9,.1f} ms/game{ratio}", flush=True)


def _ballot() -> None:
    games = [record_game(named_config("as-written-plus"), key, make_bots(PLAYERS))[1]
             for key in KEYS]
    per_game = len(games)
    replay = best_seconds(lambda: [verify_record(lines) for lines in games], 2) * 1000 / per_game

    def cold() -> None:
        for lines in games:
            _cold()
            ballot_luck.record_luck(lines)

    _line("ballot verify_record (baseline)", replay)
    _line("ballot luck, cold (caches cleared every game)",
          best_seconds(cold, 3) * 1000 / per_game, replay)
    _line("ballot luck, warm",
          best_seconds(lambda: [ballot_luck.record_luck(g) for g in games], 3) * 1000 / per_game,
          replay)


def _clash() -> None:
    record = GameRecord(parse_scenario(generate_scenario("luck-bench", width=16, height=16,
                                                         per_side=16)), ("blue", "red"))
    world = record.start()
    for _ in range(CLASH_TURNS):
        world = record.play(world, merge_orders([ai_orders(world, p) for p in world.sides])
                            ).world
    clashes = sum(e["event"] == "clash" for turn in record.turns for e in turn["events"])
    owners = {unit.id: unit.player for unit in record.scenario.units}
    players = [player.id for player in record.scenario.players]
    replay = best_seconds(lambda: replay_record(record), 2) * 1000
    _line(f"clash replay_record, {clashes} clashes (baseline)", replay)
    _line("clash luck", best_seconds(
        lambda: clash_game_luck(owners, players, record.turns), 3) * 1000, replay)


def main() -> None:
    _ballot()
    _clash()
