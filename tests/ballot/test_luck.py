"""A ballot game's luck: hand-computed races, every die enumerated, a recorded game, calibration."""

from __future__ import annotations

import copy
import json
import random
from fractions import Fraction
from functools import cache
from itertools import product
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from fairfight.ballot.bots import make_bots
from fairfight.ballot.luck import (
    game_luck,
    one_die_chance,
    presidency_chance,
    race_chances,
    record_luck,
)
from fairfight.ballot.record import load_record, record_game, write_record
from fairfight.ballot.tables import BOARD, named_config
from fairfight.cli import app
from fairfight.core.luck import luck_of_wins

DIE = range(1, 7)


def side(player: int, part: int, national: int = 3, state: int = 3,
         partisan: int = 0) -> dict[str, int]:
    """A race event's side as the engine writes it (the candidate die and total are not read)."""
    return {"player": player, "part": part, "national": national, "state": state,
            "partisan": partisan, "candidate": 1, "total": 0}


def race(name: str, d: dict[str, int], r: dict[str, int], holder: int,
         primaries: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"event": "race", "year": 2028, "race": name, "sides": {"D": d, "R": r},
            "primaries": primaries or [], "holder": holder}


def test_one_die_by_hand() -> None:
    # d6 + 0 against d6: 15 of 36 win, 6 tie (half each): (30 + 6) / 72.
    assert one_die_chance(0) == Fraction(1, 2)
    # d6 + 1 against d6: D wins when d >= r (21 of 36), ties when d + 1 = r (5): (42 + 5) / 72.
    assert one_die_chance(1) == Fraction(47, 72)
    assert one_die_chance(-1) == Fraction(25, 72)
    # +5: only d = 1, r = 6 ties. +6 and beyond cannot lose.
    assert one_die_chance(5) == Fraction(71, 72)
    assert one_die_chance(6) == 1


def test_three_races_by_hand() -> None:
    # Seat 0 runs three races against board generics:
    #  A: D edge +1 once the dice are down (3+3+2 against 3+3+1): 47/72, won;
    #  B: edge 0 (as R, part 1 against the board's 1): 1/2, lost;
    #  C: a D primary against seat 1 at equal parts (1/2 each), then edge 0: 1/4, won.
    # P(at least 2) = P(AB) + P(AC) + P(BC) - 2 P(ABC)
    #   = 47/144 + 47/288 + 1/8 - 47/288 = 65/144; expected = 47/72 + 1/2 + 1/4 = 101/72.
    primary = {"party": "D", "winner": 0, "recount": [], "entries": [
        {"player": 0, "card": 1, "part": 2, "dice": [3, 3], "total": 8},
        {"player": 1, "card": 2, "part": 2, "dice": [1, 1], "total": 4}]}
    events = [
        race("A", side(0, 2), side(BOARD, 1), holder=0),
        race("B", side(BOARD, 1), side(0, 1), holder=BOARD),
        race("C", side(0, 2), side(BOARD, 2), holder=0, primaries=[primary]),
    ]
    seat0, seat1 = game_luck(["pollster", "machine"], "1", events)
    assert [r.chance for r in seat0.races] == [Fraction(47, 72), Fraction(1, 2), Fraction(1, 4)]
    assert [r.won for r in seat0.races] == [True, False, True]
    assert seat0.luck.observed == 2
    assert seat0.luck.expected == Fraction(101, 72)
    assert seat0.luck.at_least == Fraction(65, 144)
    assert seat0.sentence().startswith("won 2 of 3 races; the chances said 1.4 on average")
    assert [(r.race, r.chance, r.won) for r in seat1.races] == [("C", Fraction(1, 4), False)]


def brute_force_race(d_parts: dict[int, int], r_parts: dict[int, int], base_d: int,
                     base_r: int) -> dict[int, Fraction]:
    """Every primary die and both candidate dice enumerated; k sides tied at the top of a
    primary, or two in the general, each win 1/k (a fair recount)."""
    chances: dict[int, Fraction] = {}
    entrants = [*d_parts.items(), *r_parts.items()]
    # only a party with two or more entrants holds a primary, 2d6 + part each
    rolling = [p for parts in (d_parts, r_parts) if len(parts) > 1 for p in parts]
    rolls = list(product(DIE, repeat=2 * len(rolling) + 2))
    for roll in rolls:
        dice = iter(roll[:-2])
        totals = {p: part + (next(dice) + next(dice) if p in rolling else 0)
                  for p, part in entrants}
        fields = []
        for parts in (d_parts, r_parts):
            best = max(totals[p] for p in parts)
            top = [p for p in parts if totals[p] == best]
            fields.append([(p, Fraction(1, len(top))) for p in top])
        for (pd, wd), (pr, wr) in product(*fields):
            d = base_d + d_parts[pd] + roll[-2]
            r = base_r + r_parts[pr] + roll[-1]
            share = Fraction(1) if d > r else Fraction(1, 2) if d == r else Fraction(0)
            for player, won in ((pd, share), (pr, 1 - share)):
                chances[player] = chances.get(player, Fraction(0)) + wd * wr * won
    return {p: c / len(rolls) for p, c in chances.items()}


@pytest.mark.parametrize("seed", range(4))
def test_races_equal_every_die_enumerated(seed: int) -> None:
    rng = random.Random(seed)
    d_parts = {0: rng.randint(-1, 4), 1: rng.randint(-1, 4)}
    r_parts = {2: rng.randint(-1, 4)}
    base_d, base_r = rng.randint(2, 12), rng.randint(2, 12)
    primary = {"party": "D", "winner": 0, "recount": [], "entries": [
        {"player": p, "card": p, "part": part, "dice": [1, 1], "total": 2 + part}
        for p, part in d_parts.items()]}
    event = race("X", side(0, d_parts[0], national=base_d - 1, state=1),
                 side(2, r_parts[2], national=base_r - 1, state=1), holder=0,
                 primaries=[primary])
    assert race_chances(event) == brute_force_race(d_parts, r_parts, base_d, base_r)


def test_presidency_equals_every_candidate_die_enumerated() -> None:
    # Three states of 3, 5 and 4 votes (12 in all: D needs 7 or more).
    edges = [(0, 3), (2, 5), (-3, 4)]
    won = Fraction(0)
    for roll in product(DIE, repeat=6):
        pairs = list(zip(roll[::2], roll[1::2], strict=True))
        # a tied state is a fair recount: carry both ways with half the weight each
        outcomes = [[(1, Fraction(1))] if d + e > r else [(0, Fraction(1))] if d + e < r
                    else [(1, Fraction(1, 2)), (0, Fraction(1, 2))]
                    for (e, _), (d, r) in zip(edges, pairs, strict=True)]
        for chosen in product(*outcomes):
            weight = Fraction(1)
            votes = 0
            for (carried, w), (_, v) in zip(chosen, edges, strict=True):
                weight *= w
                votes += carried * v
            if 2 * votes > 12:
                won += weight
    assert presidency_chance(edges) == won / 6 ** 6


@cache
def recorded(key: str) -> tuple[dict[str, Any], ...]:
    _, lines = record_game(named_config("as-written-plus"), key,
                           make_bots(["pollster", "machine", "pollster", "machine"]))
    return tuple(lines)


def test_a_recorded_game() -> None:
    lines = recorded("1000")
    seats = record_luck(list(lines))
    assert [one.name for one in seats] == ["pollster", "machine", "pollster", "machine"]
    won = {(event["year"], event.get("race", "P"), event["holder"]) for event in lines[1:-1]
           if event.get("event") in ("race", "presidency")}
    for one in seats:
        assert one.races
        for entry in one.races:
            assert 0 <= entry.chance <= 1
            assert entry.won == ((entry.year, entry.race, one.seat) in won)
            assert not (entry.chance == 0 and entry.won)
            assert not (entry.chance == 1 and not entry.won)
        assert one.luck.observed == sum(entry.won for entry in one.races)
    for event in lines[1:-1]:   # the fields the chance reads add up to the engine's totals
        if event.get("event") == "race":
            for party, one_side in event["sides"].items():
                assert one_side["total"] == (one_side["national"] + one_side["state"]
                                             + one_side["partisan"] + one_side["part"]
                                             + one_side["candidate"]), (event["race"], party)
    presidential = [e for one in seats for e in one.races if e.race == "P"]
    assert presidential, "the game has presidential elections with players in them"


def test_the_engine_is_calibrated_against_the_chances() -> None:
    # Over three games' races the engine's dice win about as often as the chances say.
    chances: list[Fraction] = []
    won = 0
    for key in ("1000", "1001", "1002"):
        for one in record_luck(list(recorded(key))):
            chances += [entry.chance for entry in one.races]
            won += one.luck.observed
    expected = sum(chances, Fraction(0))
    spread = sum((p * (1 - p) for p in chances), Fraction(0))
    assert (won - expected) ** 2 < 16 * spread


def test_the_stated_tail_is_calibrated_for_a_games_races() -> None:
    # Seeded runs of one seat's first 16 races: "at least this lucky" with chance q or less
    # happens in at most about a fraction q of the runs (fewer, the total being discrete).
    chances = [entry.chance for entry in record_luck(list(recorded("1000")))[0].races[:16]]
    rng = random.Random(34)
    runs = 3000
    tails = []
    for _ in range(runs):
        result = [rng.random() < p for p in chances]
        tails.append(luck_of_wins(chances, result).at_least)
    for q in (Fraction(1, 20), Fraction(1, 10), Fraction(1, 4), Fraction(1, 2)):
        share = Fraction(sum(tail <= q for tail in tails), runs)
        assert share <= q + 3 * Fraction(1, 2) / 55   # about 3 standard errors
        assert share >= q / 3


def test_the_luck_command(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    write_record(path, list(recorded("1000")))
    runner = CliRunner()
    shown = runner.invoke(app, ["ballot", "luck", str(path)])
    assert shown.exit_code == 0, shown.output
    lines = shown.output.strip().splitlines()
    assert len(lines) == 4 and lines[0].startswith("seat 0 (pollster): won ")
    answer = runner.invoke(app, ["ballot", "luck", str(path), "--json"])
    data = json.loads(answer.output)
    seats = record_luck(list(recorded("1000")))
    for given, one in zip(data["seats"], seats, strict=True):
        assert Fraction(given["at_least"]) == one.luck.at_least
        assert given["observed"] == sum(race["won"] for race in given["races"])
        assert [Fraction(race["chance"]) for race in given["races"]] == [
            race.chance for race in one.races]


@pytest.mark.parametrize(("content", "exit_code", "says"), [
    (None, 2, "file not found"),
    ("not json\n", 2, "line 1"),
    ('{"format": "fairfight-ballot-record"}\n', 1, "VerificationError"),
])
def test_bad_files_are_one_line(tmp_path: Path, content: str | None, exit_code: int,
                                says: str) -> None:
    path = tmp_path / "record.jsonl"
    if content is not None:
        path.write_text(content)
    result = CliRunner().invoke(app, ["ballot", "luck", str(path)])
    assert result.exit_code == exit_code
    assert says in result.output and len(result.output.strip().splitlines()) == 1


def test_a_changed_die_is_refused(tmp_path: Path) -> None:
    lines = copy.deepcopy(list(recorded("1000")))
    race_line = next(n for n, e in enumerate(lines) if e.get("event") == "race")
    lines[race_line]["sides"]["D"]["candidate"] = 7 - lines[race_line]["sides"]["D"]["candidate"]
    path = tmp_path / "changed.jsonl"
    write_record(path, lines)
    result = CliRunner().invoke(app, ["ballot", "luck", str(path)])
    assert result.exit_code == 1 and "candidate" in result.output


def test_the_final_screen_of_play_shows_the_luck(tmp_path: Path) -> None:
    path = tmp_path / "played.jsonl"
    shown = CliRunner().invoke(app, ["ballot", "play", "--seed", "1000", "--record", str(path)])
    assert shown.exit_code == 0, shown.output
    seats = record_luck(load_record(path))
    after = shown.output.split("Luck in the races", 1)[1]
    for one in seats:
        assert f"seat {one.seat} ({one.name}): {one.sentence()}" in after


def _primary_by_dice(parts: dict[int, int]) -> dict[int, Fraction]:
    """Each entrant's chance of the nomination, every 2d6 enumerated, k tied at the top 1/k."""
    chances = dict.fromkeys(parts, Fraction(0))
    rolls = list(product(DIE, repeat=2 * len(parts)))
    for roll in rolls:
        totals = {p: roll[2 * n] + roll[2 * n + 1] + part
                  for n, (p, part) in enumerate(parts.items())}
        top = [p for p, total in totals.items() if total == max(totals.values())]
        for p in top:
            chances[p] += Fraction(1, len(top))
    return {p: c / len(rolls) for p, c in chances.items()}


def test_a_presidency_with_two_primaries_from_the_rules_tables() -> None:
    # Game 1001's 2032 presidency has a primary in each party, so every possible nominee's
    # card is in the event. Each pairing's state edges come from the presidency module's
    # tables (card part, fit, baseline) plus the year's national and state dice.
    from fairfight.ballot.deck import build_cards
    from fairfight.ballot.presidency import card_side, state_edges
    from fairfight.ballot.tables import Party

    lines = recorded("1001")
    dice = next(e for e in lines if e.get("event") == "dice" and e["year"] == 2032)
    event = next(e for e in lines if e.get("event") == "presidency" and e["year"] == 2032)
    cards = build_cards(lines[-1]["key"])
    national = dice["national"]["D"] - dice["national"]["R"]
    shared = [national + d - r for d, r in zip(dice["state"]["D"], dice["state"]["R"],
                                                strict=True)]
    fields = {}
    for primary in event["primaries"]:
        chances = _primary_by_dice({row["player"]: row["part"] for row in primary["entries"]})
        fields[primary["party"]] = [
            (row["player"], chances[row["player"]],
             card_side(cards[row["card"]], Party(primary["party"])))
            for row in primary["entries"]]
    expected: dict[int, Fraction] = {}
    for d_player, d_chance, d_side in fields["D"]:
        for r_player, r_chance, r_side in fields["R"]:
            edges = [(edge + extra, votes) for (edge, votes), extra
                     in zip(state_edges(d_side, r_side), shared, strict=True)]
            won = presidency_chance(edges)
            for player, share in ((d_player, won), (r_player, 1 - won)):
                expected[player] = expected.get(player, Fraction(0)) + d_chance * r_chance * share
    seats = record_luck(list(lines))
    found = {one.seat: race.chance for one in seats for race in one.races
             if race.year == 2032 and race.race == "P"}
    assert found == expected
