"""A clash game's luck: a hand-computed pair of exchanges, every draw enumerated, a recorded
AI game, the command, and a seeded calibration check."""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fairfight.clash.ai import ai_orders
from fairfight.clash.exchange import resolve_exchange
from fairfight.clash.generate import generate_scenario
from fairfight.clash.luck import ExchangeLoss, clash_losses, game_luck, side_luck
from fairfight.clash.record import GameRecord, merge_orders
from fairfight.clash.scenario import parse_scenario
from fairfight.clash.spec import parse_spec
from fairfight.cli import app
from fairfight.core.luck import Outcomes


def test_two_exchanges_by_hand() -> None:
    # Exchange one: the side defends and loses 10 in 400 draws, 20 in 600; it lost 20.
    # Exchange two: it attacks and loses 0 in 250 draws, 5 in 750; it lost 0.
    # Totals over 1000 x 1000 pairs: 10 in 100,000, 15 in 300,000, 20 in 150,000,
    # 25 in 450,000. Lost 20: at most 20 is 550,000 (11/20), at least 20 is 600,000 (3/5).
    # Expected: (4,000 + 12,000) / 1000 + 3,750 / 1000 = 19.75, so 20 is unlucky.
    first = ExchangeLoss(1, "a", "defender", 700, 20, Outcomes.from_counts({10: 400, 20: 600}))
    second = ExchangeLoss(2, "b", "attacker", 100, 0, Outcomes.from_counts({0: 250, 5: 750}))
    assert (first.draws_at_most, first.at_least) == (1000, Fraction(3, 5))
    side = side_luck("blue", [first, second])
    assert side.luck.observed == 20
    assert side.luck.expected == Fraction(79, 4)
    assert side.luck.at_most == Fraction(11, 20)
    assert side.luck.at_least == Fraction(3, 5)
    assert not side.luck.lucky
    assert side.sentence() == ("lost 20 strength in 2 exchanges; the chances said 19.8 on "
                               "average; a run at least this unlucky happens about 6 times in 10")


def _ai_game(turns: int = 5) -> GameRecord:
    record = GameRecord(parse_scenario(generate_scenario("luck", width=12, height=12,
                                                         per_side=10)), ("blue", "red"))
    world = record.start()
    for _ in range(turns):
        world = record.play(world, merge_orders([ai_orders(world, p) for p in world.sides])
                            ).world
    return record


@pytest.fixture(scope="module")
def game() -> GameRecord:
    return _ai_game()


def _clash_events(game: GameRecord) -> list[dict[str, object]]:
    return [e for turn in game.turns for e in turn["events"] if e["event"] == "clash"]


def test_losses_equal_the_resolution_at_every_draw(game: GameRecord) -> None:
    events = _clash_events(game)[:2]
    specs = [parse_spec(event["outcome"]["spec"]) for event in events]  # type: ignore[index]
    for spec, (ld, la) in zip(specs, clash_losses(specs), strict=True):
        outcomes = [resolve_exchange(spec, r).exchange for r in range(1000)]
        assert ld == Counter(x.ld for x in outcomes)
        assert la == Counter(x.la for x in outcomes)


def test_a_recorded_game_and_every_pair_of_draws(game: GameRecord) -> None:
    owners = {unit.id: unit.player for unit in game.scenario.units}
    sides = game_luck(owners, ["blue", "red"], game.turns)
    clashes = len(_clash_events(game))
    assert clashes >= 2
    assert sum(len(side.exchanges) for side in sides) == 2 * clashes
    for side in sides:
        assert side.luck.observed == sum(one.loss for one in side.exchanges)
    # The first two exchanges of a side, every pair of draws enumerated.
    side = max(sides, key=lambda s: len(s.exchanges))
    first, second = side.exchanges[:2]
    pair = side_luck(side.player, [first, second])
    total = first.loss + second.loss
    one = [loss for loss, count in first.outcomes.ways for _ in range(count)]
    two = [loss for loss, count in second.outcomes.ways for _ in range(count)]
    sums = Counter(a + b for a in one for b in two)
    assert pair.luck.at_most == Fraction(sum(c for v, c in sums.items() if v <= total), 10**6)
    assert pair.luck.at_least == Fraction(sum(c for v, c in sums.items() if v >= total), 10**6)


def test_a_changed_loss_is_refused(game: GameRecord) -> None:
    turns = json.loads(json.dumps(game.turns))
    event = next(e for turn in turns for e in turn["events"] if e["event"] == "clash")
    event["outcome"]["ld"] += 1
    owners = {unit.id: unit.player for unit in game.scenario.units}
    with pytest.raises(Exception, match="the kernel says"):
        game_luck(owners, ["blue", "red"], turns)


def test_the_command(game: GameRecord, tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    game.save(path)
    runner = CliRunner()
    shown = runner.invoke(app, ["clash", "luck", str(path)])
    assert shown.exit_code == 0, shown.output
    assert shown.output.startswith("blue: lost ")
    data = json.loads(runner.invoke(app, ["clash", "luck", str(path), "--json"]).output)
    assert [side["player"] for side in data["sides"]] == ["blue", "red"]
    for side in data["sides"]:
        assert side["observed"] == sum(one["loss"] for one in side["exchanges"])
        for one in side["exchanges"]:
            assert sum(one["draws"].values()) == 1000
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "something else"}\n')
    refused = runner.invoke(app, ["clash", "luck", str(bad)])
    assert refused.exit_code == 2 and len(refused.output.strip().splitlines()) == 1
    missing = runner.invoke(app, ["clash", "luck", str(tmp_path / "none.jsonl")])
    assert missing.exit_code == 2 and "not found" in missing.output


def test_the_stated_tail_is_calibrated(game: GameRecord) -> None:
    # Seeded draws for a side's exchanges: "at least this lucky" (losing no more) with chance
    # q or less happens in at most about a fraction q of the runs.
    owners = {unit.id: unit.player for unit in game.scenario.units}
    side = max(game_luck(owners, ["blue", "red"], game.turns), key=lambda s: len(s.exchanges))
    exchanges = side.exchanges[:6]
    draws = [[loss for loss, count in one.outcomes.ways for _ in range(count)]
             for one in exchanges]
    rng = random.Random(34)
    runs = 2000
    tails = []
    for _ in range(runs):
        drawn = [ExchangeLoss(one.turn, one.initiator, one.role, 0, rng.choice(losses),
                              one.outcomes) for one, losses in zip(exchanges, draws, strict=True)]
        tails.append(side_luck(side.player, drawn).luck.at_most)
    for q in (Fraction(1, 20), Fraction(1, 10), Fraction(1, 4), Fraction(1, 2)):
        share = Fraction(sum(tail <= q for tail in tails), runs)
        assert share <= q + 3 * Fraction(1, 2) / 44   # about 3 standard errors
