"""The conquest season engine: every battle, pool and rebellion rule; exact, standard library only.

This single file (plus `fairfight/core/draws.py`) is all a viewer needs to replay a published
season with a bare Python: `python3 engine.py verify DIR` with `draws.py` beside it, as in a
season archive, or `python3 -S -m fairfight.conquest.engine verify DIR`. State is plain
data (dicts, lists, ints, strings); probabilities are Fractions or integers out of 2**32; there
is no floating point anywhere, so a replay matches byte for byte on every machine.
The file is longer than the project's usual module because a verifier must be one file.
"""

from __future__ import annotations

import contextlib
import enum
import hashlib
import json
import re
import sys
from collections.abc import Iterable, Mapping
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

if __package__:
    from fairfight.core.draws import beacon_key, below, hash64_run, validate_seed, verify_reveal
else:  # run as a plain file (`python3 engine.py verify .`): use the draws.py lying beside it
    from draws import (  # type: ignore[import-not-found, no-redef, unused-ignore]
        beacon_key,
        below,
        hash64_run,
        validate_seed,
        verify_reveal,
    )

__all__ = [
    "BASIS_POINTS",
    "BEACON_LEAD_SECONDS",
    "BORDER_KINDS",
    "BattleKind",
    "CATEGORIES",
    "CATEGORY_TYPES",
    "CLAMP_PER_MILLE",
    "COUNTERS",
    "COUNTER_BONUS",
    "COUNTER_CIRCLE",
    "Category",
    "DRAWS_PER_BATTLE",
    "DRAW_ROLES",
    "ENGINE_VERSION",
    "FAN_BOOST_AT_CAP",
    "FactionType",
    "HOME_BONUS",
    "INTEGRATION_DENOMINATOR",
    "INTEGRATION_START",
    "INTEGRATION_STEP",
    "LAND",
    "LedgerRefusal",
    "MORALE_CAP_BP",
    "MORALE_DECAY",
    "MORALE_UPSET_BP",
    "MORALE_WIN_BP",
    "MapError",
    "POOL_CAP",
    "POOL_STEP",
    "POWER_EXPONENT",
    "POWER_SCALE",
    "Plain",
    "PoolState",
    "QUICKNET",
    "RATING_MAX",
    "RATING_MIN",
    "RATING_WEIGHTS",
    "RECORD_FILES",
    "ROUNDS_TO_WIN",
    "ROUND_BITS",
    "ROUND_CEILING",
    "ROUND_FLOOR",
    "ROUND_SCALE",
    "Reason",
    "ReplayMismatch",
    "SEA",
    "SEA_FACTOR",
    "SPECIAL_BONUS",
    "STRENGTH_FACTORS",
    "UPSET_BELOW",
    "apply_contribution",
    "assess",
    "battle_chance",
    "beacon_round_time",
    "beacon_timing",
    "canonical_bytes",
    "canonical_map",
    "check_contribution",
    "check_header",
    "compile_world",
    "counter_bonuses",
    "defenders_of",
    "eligible_attackers",
    "faction_type",
    "fan_factor",
    "fan_outcome",
    "first_difference",
    "fraction_text",
    "initial_board",
    "integer_root",
    "integration_share",
    "load_record",
    "main",
    "map_sha256",
    "new_state",
    "odds_line",
    "owner",
    "pending_board",
    "people",
    "play_step",
    "population_power",
    "published_seconds",
    "regular_sides",
    "round_chance",
    "season_key",
    "season_over",
    "shared_borders",
    "shown",
    "strengths",
    "usable_pool",
    "utc_text",
    "verify_record",
    "waiting_rebellions",
    "weighted_rating",
]

ENGINE_VERSION = "fairfight-conquest-1"
"""Named in every season header; a record made by another engine version is not replayed."""

Plain = dict[str, Any]
"""A JSON-shaped dict: the engine's state, map, ledger and history entries are all plain data."""


class Category(enum.StrEnum):
    """A rating category; each battle fights one round per category, in this order."""

    P = "P"
    """Production (industry)"""
    S = "S"
    """Supplies (resources)"""
    M = "M"
    """Movement (logistics)"""
    R = "R"
    """Readiness (preparedness)"""
    U = "U"
    """Unity (cohesion)"""


class FactionType(enum.StrEnum):
    """A faction's type, set by its special's category; each type counters the next one."""

    FORGE = "Forge"
    """Industry: it out-produces stockpiles of raw goods."""
    SUPPLY = "Supply"
    """Stockpiles: deep reserves outlast raids on the routes."""
    ROUTE = "Route"
    """Mobility: fast columns go around fortresses."""
    FORTRESS = "Fortress"
    """Walls: prepared defences hold against coalitions."""
    ALLIANCE = "Alliance"
    """Cohesion: a united people out-organises industry."""


class BattleKind(enum.StrEnum):
    """What a history entry is."""

    REGULAR = "regular"
    """Attacker, defender and border drawn at random."""
    BONUS = "bonus"
    """A rebellion: an absorbed home region, its fund full, fights its occupier."""


class Reason(enum.StrEnum):
    """Why the winner won."""

    NATURAL = "NATURAL"
    """The side with three or more round wins."""
    FAN_POWER = "FAN POWER"
    """A full pool secured the win although the draws went the other way."""
    FAN_CLASH = "FAN CLASH"
    """Both sides held a full pool; both were spent and the draws decided."""


class PoolState(enum.StrEnum):
    """The state of a faction's single fan pool for the season."""

    OPEN = "open"
    """Still taking contributions; an empty open pool is not used in battle."""
    SPENT = "spent"
    """Used as a boost or as a rebellion fund; closed for the season."""


CATEGORIES: tuple[Category, ...] = tuple(Category)
RATING_WEIGHTS: dict[Category, int] = {
    Category.P: 30,
    Category.S: 25,
    Category.M: 20,
    Category.R: 15,
    Category.U: 10,
}
RATING_MIN, RATING_MAX = 1, 10
CATEGORY_TYPES: dict[Category, FactionType] = dict(zip(CATEGORIES, FactionType, strict=True))
COUNTER_CIRCLE: tuple[FactionType, ...] = tuple(FactionType)
COUNTERS: dict[FactionType, FactionType] = {
    kind: COUNTER_CIRCLE[(i + 1) % len(COUNTER_CIRCLE)] for i, kind in enumerate(COUNTER_CIRCLE)
}

POWER_EXPONENT = Fraction(7, 20)
POWER_SCALE = 10**6
"""Population power is N**0.35 in millionths, by an exact integer root."""

SPECIAL_BONUS = Fraction(110, 100)
HOME_BONUS = Fraction(112, 100)
SEA_FACTOR = Fraction(80, 100)
COUNTER_BONUS = Fraction(108, 100)

ROUND_BITS = 32
ROUND_SCALE = 1 << ROUND_BITS
CLAMP_PER_MILLE = 189
ROUND_FLOOR = CLAMP_PER_MILLE * ROUND_SCALE // 1000
ROUND_CEILING = ROUND_SCALE - ROUND_FLOOR
ROUNDS_TO_WIN = 3
UPSET_BELOW = Fraction(35, 100)

BASIS_POINTS = 10_000
MORALE_DECAY = Fraction(82, 100)
MORALE_WIN_BP = 200
MORALE_UPSET_BP = 600
MORALE_CAP_BP = 1200

INTEGRATION_START = 8
INTEGRATION_STEP = 3
INTEGRATION_DENOMINATOR = 32
"""A captured region counts (8 + 3k)/32 of its people k battles after the first one, at most 1."""

POOL_STEP = 5
POOL_CAP = 50
FAN_BOOST_AT_CAP = Fraction(10, 100)
"""A partial pool a multiplies strength by 1 + 0.10 * a / 50; a full pool secures the win."""

DRAWS_PER_BATTLE = 8
DRAW_ROLES = ("attacker", "defender", "border", *(f"round {c}" for c in Category))

LAND, SEA = "land", "sea"
BORDER_KINDS = (LAND, SEA)
RECORD_FILES = {
    "header": "header.json",
    "commitment": "commitment.txt",
    "seed": "seed.txt",
    "beacon": "beacon.json",
    "map": "map.json",
    "ledger": "ledger.jsonl",
    "history": "history.jsonl",
    "final_map": "final-map.json",
}
"""The files of a published season record, by role."""


class MapError(ValueError):
    """A map the engine cannot play: names the field and the rule it breaks."""

    def __init__(self, field: str, rule: str) -> None:
        super().__init__(f"{field}: {rule}")
        self.field, self.rule = field, rule


class LedgerRefusal(ValueError):
    """A contribution the pool rules refuse [§6]; it never enters the ledger."""

    def __init__(self, field: str, rule: str) -> None:
        super().__init__(f"{field}: {rule}")
        self.field, self.rule = field, rule


class ReplayMismatch(Exception):
    """A published record that the replay does not reproduce: names the first place that differs."""

    def __init__(self, place: str, detail: str) -> None:
        super().__init__(f"{place}: {detail}")
        self.place, self.detail = place, detail


# ---------------------------------------------------------------- canonical data


def canonical_bytes(value: Any) -> bytes:
    """Sorted keys, no spaces, UTF-8; floats refused (the same bytes as `core.records`)."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    json.loads(text, parse_float=_no_float, parse_constant=_no_float)  # C speed, any depth
    return text.encode()


def _no_float(_text: str) -> Any:
    raise MapError("value", "floats have no canonical form; use integers")


def fraction_text(value: Fraction) -> str:
    """A Fraction as the record writes it: reduced "num/den", "1/1" included."""
    return f"{value.numerator}/{value.denominator}"


def canonical_map(map_data: Mapping[str, Any]) -> Plain:
    """The map with regions sorted by code and borders by (a, b): the form that is hashed [§8]."""
    data = dict(map_data)
    data["regions"] = sorted(map_data.get("regions", []), key=lambda r: str(r.get("code")))
    data["borders"] = sorted(
        map_data.get("borders", []), key=lambda b: (str(b.get("a")), str(b.get("b")))
    )
    return data


def map_sha256(map_data: Mapping[str, Any]) -> str:
    """SHA-256 of the canonical map, lowercase hex; the season header publishes it."""
    return hashlib.sha256(canonical_bytes(canonical_map(map_data))).hexdigest()


# ---------------------------------------------------------------- the map the engine plays


def _positive_int(value: Any, field: str, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise MapError(field, f"must be an integer of at least {low}")
    if high is not None and value > high:
        raise MapError(field, f"must be an integer from {low} to {high}")
    return value


def compile_world(map_data: Mapping[str, Any]) -> Plain:
    """Take from a map what the engine plays with, refusing a map it cannot play [§0]."""
    regions: Plain = {}
    for i, region in enumerate(map_data.get("regions") or []):
        code = region.get("code")
        if not isinstance(code, str) or not code.isascii() or not code.strip():
            raise MapError(f"regions[{i}].code", "must be non-empty ASCII text")
        if code in regions:
            raise MapError(f"regions[{i}].code", f"{code} is listed twice")
        ratings = region.get("ratings") or {}
        special = (region.get("special") or {}).get("category")
        if special not in CATEGORIES:
            raise MapError(f"regions[{i}].special.category", "must be one of P, S, M, R, U")
        regions[code] = {
            "population": _positive_int(region.get("population"), f"regions[{i}].population", 1),
            "ratings": {
                c.value: _positive_int(
                    ratings.get(c.value), f"regions[{i}].ratings.{c}", RATING_MIN, RATING_MAX
                )
                for c in CATEGORIES
            },
            "special": str(special),
        }
    if len(regions) < 2:
        raise MapError("regions", "a season needs at least two regions")
    borders: list[list[Any]] = []
    seen: set[tuple[str, str]] = set()
    neighbours: dict[str, list[str]] = {code: [] for code in regions}
    for i, border in enumerate(map_data.get("borders") or []):
        a, b, kind = border.get("a"), border.get("b"), border.get("kind")
        if a not in regions or b not in regions:
            raise MapError(f"borders[{i}]", f"joins an unknown region ({a}-{b})")
        if not a < b:
            raise MapError(f"borders[{i}]", f"ends must be in byte order, a < b ({a}-{b})")
        if (a, b) in seen:
            raise MapError(f"borders[{i}]", f"the pair {a}-{b} is listed twice")
        if kind not in BORDER_KINDS:
            raise MapError(f"borders[{i}].kind", "must be land or sea")
        remote = bool(border.get("remote", False))
        if remote and kind != SEA:
            raise MapError(f"borders[{i}].remote", "only a sea link can be remote")
        seen.add((a, b))
        borders.append([a, b, kind, remote])
        neighbours[a].append(b)
        neighbours[b].append(a)
    borders.sort()
    for code, near in neighbours.items():
        if not near:
            raise MapError(f"regions.{code}", "has no border")
        near.sort()
    _check_connected(neighbours)
    return {"regions": regions, "borders": borders, "neighbours": neighbours}


def _check_connected(neighbours: Mapping[str, list[str]]) -> None:
    start = min(neighbours)
    reached, frontier = {start}, [start]
    while frontier:
        for other in neighbours[frontier.pop()]:
            if other not in reached:
                reached.add(other)
                frontier.append(other)
    if len(reached) != len(neighbours):
        cut_off = min(set(neighbours) - reached)
        raise MapError("borders", f"the map is not connected ({cut_off} cannot be reached)")


def initial_board(world: Plain) -> Plain:
    """Battle 1 about to start: every region its own standing faction, morale 0, empty pools."""
    return {
        "next_battle": 1,
        "ended": False,
        "factions": {
            code: {"standing": True, "morale": 0, "pool": 0, "pool_state": PoolState.OPEN.value}
            for code in world["regions"]
        },
        "regions": {code: {"owner": code, "captured_at": None} for code in world["regions"]},
    }


def new_state(map_data: Mapping[str, Any], key: str, max_battles: int | None = None) -> Plain:
    """A season ready for battle 1, drawing from season key `key` (the seed or its beacon mix)."""
    if max_battles is not None:
        _positive_int(max_battles, "max_battles", 1)
    world = compile_world(map_data)
    return {"world": world, "key": key, "max_battles": max_battles, "board": initial_board(world)}


def season_key(seed: str, beacon_randomness: str | None) -> str:
    """K = the seed, or HMAC-SHA256(seed, beacon randomness) when the season names a beacon [§2]."""
    validate_seed(seed)
    return seed if beacon_randomness is None else beacon_key(seed, beacon_randomness)


def _copy_board(board: Plain) -> Plain:
    return {
        "next_battle": board["next_battle"],
        "ended": board["ended"],
        "factions": {code: dict(f) for code, f in board["factions"].items()},
        "regions": {code: dict(r) for code, r in board["regions"].items()},
    }


# ---------------------------------------------------------------- strength [§1]


@lru_cache(maxsize=4096)
def integer_root(value: int, degree: int) -> int:
    """floor(value ** (1/degree)) exactly, by integer Newton steps."""
    if value < 0 or degree < 1:
        raise ValueError("integer_root: needs value >= 0 and degree >= 1")
    if value < 2:
        return value
    guess = 1 << -(-value.bit_length() // degree)
    while True:
        better = ((degree - 1) * guess + value // guess ** (degree - 1)) // degree
        if better >= guess:
            return guess
        guess = better


@lru_cache(maxsize=1 << 16)
def population_power(people: int) -> int:
    """N ** 0.35 in millionths (floor), the exponent written as 7/20 [§1.2]."""
    power = POWER_EXPONENT
    return integer_root(people**power.numerator * POWER_SCALE**power.denominator, power.denominator)


def weighted_rating(ratings: Mapping[str, int]) -> int:
    """30P + 25S + 20M + 15R + 10U: the rating composite, times 100 [§1.2]."""
    return sum(RATING_WEIGHTS[c] * ratings[c.value] for c in CATEGORIES)


def _integration_thirty_seconds(battle: int, captured_at: int | None) -> int:
    """The integration share of §1.2 in 32nds: 8 + 3k, at most 32 (32 for a home region)."""
    if captured_at is None:
        return INTEGRATION_DENOMINATOR
    steps = battle - captured_at - 1
    return min(INTEGRATION_DENOMINATOR, INTEGRATION_START + INTEGRATION_STEP * steps)


def integration_share(battle: int, captured_at: int | None) -> Fraction:
    """Share of a region's people counted in `battle`: 25% first, then +3/32 a battle [§1.2]."""
    return Fraction(_integration_thirty_seconds(battle, captured_at), INTEGRATION_DENOMINATOR)


def people(world: Plain, board: Plain, faction: str, battle: int) -> int:
    """N: the home region in full plus each captured region at its integration share."""
    return _people(world, board, _front(world, board), faction, battle)


def _people(world: Plain, board: Plain, front: _Front, faction: str, battle: int) -> int:
    total, regions, populations = 0, board["regions"], world["regions"]
    for code in front.holdings.get(faction, ()):
        share = _integration_thirty_seconds(battle, regions[code]["captured_at"])
        total += populations[code]["population"] * share // INTEGRATION_DENOMINATOR
    return total


def faction_type(world: Plain, faction: str) -> FactionType:
    """The type of the faction's special, read from its home region."""
    return _type_of(world["regions"][faction]["special"])


@lru_cache(maxsize=16)
def _type_of(special: str) -> FactionType:
    return CATEGORY_TYPES[Category(special)]


def counter_bonuses(attacker: FactionType, defender: FactionType) -> tuple[Fraction, Fraction]:
    """(attacker factor, defender factor): ×1.08 to the side whose type counters the other [§4]."""
    if COUNTERS[attacker] == defender:
        return COUNTER_BONUS, Fraction(1)
    if COUNTERS[defender] == attacker:
        return Fraction(1), COUNTER_BONUS
    return Fraction(1), Fraction(1)


@lru_cache(maxsize=64)
def fan_factor(amount: int) -> Fraction:
    """×(1 + 0.10·a/50) for a partial pool a; 1 for an empty or a full pool [§6]."""
    if 0 < amount < POOL_CAP:
        return 1 + FAN_BOOST_AT_CAP * amount / POOL_CAP
    return Fraction(1)


def _side(
    world: Plain, faction: str, headcount: int, morale_bp: int, special_active: bool, **factors: Any
) -> Plain:
    """One side's record: every number that enters its strength, as the history stores it."""
    power = population_power(headcount)
    rating = weighted_rating(world["regions"][faction]["ratings"])
    return {
        "faction": faction,
        "type": faction_type(world, faction).value,
        "special": world["regions"][faction]["special"],
        "special_active": special_active,
        "people": headcount,
        "power": power,
        "weighted_rating": rating,
        "base": power * rating,
        "morale_bp": morale_bp,
        "morale": _morale_text(morale_bp),
        **{name: fraction_text(value) for name, value in factors.items()},
    }


def _board_side(world: Plain, board: Plain, battle: int, faction: str, **factors: Any) -> Plain:
    """A standing faction's side as the board has it now: its people, morale and held home."""
    return _side(
        world,
        faction,
        _people(world, board, _front(world, board), faction, battle),
        board["factions"][faction]["morale"],
        owner(board, faction) == faction,
        **factors,
    )


@lru_cache(maxsize=4096)
def _morale_text(morale_bp: int) -> str:
    return fraction_text(Fraction(BASIS_POINTS + morale_bp, BASIS_POINTS))


STRENGTH_FACTORS = ("home", "sea", "counter", "morale")
"""The factors of a side record that multiply its base strength in every round (fan apart)."""


@lru_cache(maxsize=8192)
def _ratio(text: str) -> tuple[int, int]:
    """A factor as the record writes it, as (numerator, denominator)."""
    value = Fraction(text)
    return value.numerator, value.denominator


def _strength_terms(side: Plain, with_fan: bool) -> tuple[int, int, str | None]:
    """S_X outside the special's round as numerator and denominator, and the active special."""
    numerator, denominator = side["base"], 1
    for name in (*STRENGTH_FACTORS, *(("fan",) if with_fan else ())):
        top, bottom = _ratio(side[name])
        numerator *= top
        denominator *= bottom
    return numerator, denominator, side["special"] if side["special_active"] else None


def strengths(side: Plain, with_fan: bool) -> list[Fraction]:
    """S_X(c) for the five rounds: base × home × sea × counter × morale × fan, and the special
    in its own category's round while the home region is held [§1.2]."""
    numerator, denominator, special = _strength_terms(side, with_fan)
    value = Fraction(numerator, denominator)
    return [value * SPECIAL_BONUS if c.value == special else value for c in CATEGORIES]


def _clamped_share(a_top: int, a_bottom: int, d_top: int, d_bottom: int) -> int:
    """floor(A/(A+D) · 2**32) for A = a_top/a_bottom and D = d_top/d_bottom, then the clamp."""
    a_cross, d_cross = a_top * d_bottom, d_top * a_bottom
    raw = (a_cross << ROUND_BITS) // (a_cross + d_cross)
    return min(ROUND_CEILING, max(ROUND_FLOOR, raw))


def round_chance(attacker_strength: Fraction, defender_strength: Fraction) -> int:
    """Q: the attacker's round chance out of 2**32, floor of A/(A+D), clamped to 18.9..81.1%."""
    return _clamped_share(
        attacker_strength.numerator,
        attacker_strength.denominator,
        defender_strength.numerator,
        defender_strength.denominator,
    )


def _round_chances(attacker: Plain, defender: Plain, with_fan: bool) -> list[int]:
    """Q_c for the five rounds, in integers: `round_chance` of each pair of `strengths`."""
    a_top, a_bottom, a_special = _strength_terms(attacker, with_fan)
    d_top, d_bottom, d_special = _strength_terms(defender, with_fan)
    bonus_top, bonus_bottom = SPECIAL_BONUS.numerator, SPECIAL_BONUS.denominator
    chances = []
    for category in CATEGORIES:
        a_up, d_up = category.value == a_special, category.value == d_special
        chances.append(
            _clamped_share(
                a_top * bonus_top if a_up else a_top,
                a_bottom * bonus_bottom if a_up else a_bottom,
                d_top * bonus_top if d_up else d_top,
                d_bottom * bonus_bottom if d_up else d_bottom,
            )
        )
    return chances


def battle_chance(round_chances: Iterable[int]) -> Fraction:
    """P(attacker wins at least 3 of the 5 rounds), exact, from Q_c out of 2**32 [§1.2]."""
    counts = [1]
    rounds = 0
    for q in round_chances:
        counts = [
            (counts[k] if k < len(counts) else 0) * (ROUND_SCALE - q)
            + (counts[k - 1] * q if k > 0 else 0)
            for k in range(len(counts) + 1)
        ]
        rounds += 1
    return Fraction(sum(counts[ROUNDS_TO_WIN:]), ROUND_SCALE**rounds)


def assess(attacker: Plain, defender: Plain) -> Plain:
    """Round chances before and after fan power, and the battle chance of each [§1.4]."""
    before = _round_chances(attacker, defender, False)
    if attacker["fan"] == defender["fan"] == "1/1":
        after, chance_before = list(before), battle_chance(before)
        chance_after = chance_before
    else:
        after = _round_chances(attacker, defender, True)
        chance_before, chance_after = battle_chance(before), battle_chance(after)
    return {
        "before": before,
        "after": after,
        "chance_before": chance_before,
        "chance_after": chance_after,
    }


# ---------------------------------------------------------------- who fights [§3]


def owner(board: Plain, region: str) -> str:
    """The faction that holds a region now."""
    return str(board["regions"][region]["owner"])


class _Front:
    """Who holds what and which borders divide two holders, for one ownership of the map.

    Everything the choice of a battle reads depends only on who owns each region, so it is
    worked out once per ownership and kept in a small cache (see `_front`). `links[x][y]`
    lists the borders between holders x and y in (a, b) order; a conquest updates only the
    loser's neighbours (`absorbed`), never the whole map.
    """

    __slots__ = ("attackers", "holdings", "links", "owners")

    def __init__(
        self,
        owners: tuple[str, ...],
        holdings: dict[str, list[str]],
        links: dict[str, dict[str, list[Any]]],
        attackers: list[str],
    ) -> None:
        self.owners, self.holdings, self.links, self.attackers = owners, holdings, links, attackers

    @classmethod
    def scan(cls, world: Plain, owners: tuple[str, ...]) -> _Front:
        """Worked out from scratch: one pass over the regions and one over the borders."""
        holder_of = dict(zip(world["regions"], owners, strict=True))
        holdings: dict[str, list[str]] = {}
        for code, holder in holder_of.items():
            held = holdings.get(holder)
            if held is None:
                holdings[holder] = [code]
            else:
                held.append(code)
        links: dict[str, dict[str, list[Any]]] = {}
        for border in world["borders"]:
            holder_a, holder_b = holder_of[border[0]], holder_of[border[1]]
            if holder_a != holder_b:
                shared = links.setdefault(holder_a, {}).get(holder_b)
                if shared is None:
                    shared = links[holder_a][holder_b] = []
                    links.setdefault(holder_b, {})[holder_a] = shared
                shared.append(border)
        return cls(owners, holdings, links, sorted(links))

    def absorbed(self, winner: str, loser: str) -> _Front:
        """The front once every region of `loser` has moved to `winner` (a conquest, §5)."""
        holdings = dict(self.holdings)
        holdings[winner] = holdings[winner] + holdings.pop(loser)
        links = dict(self.links)
        lost = links.pop(loser)
        mine = dict(links[winner])
        del mine[loser]
        for neighbour, borders in lost.items():
            if neighbour == winner:
                continue
            theirs = dict(links[neighbour])
            del theirs[loser]
            already = theirs.get(winner)
            merged = borders if already is None else sorted(already + borders)
            theirs[winner] = mine[neighbour] = merged
            links[neighbour] = theirs
        if mine:
            links[winner] = mine
        else:
            del links[winner]
        attackers = [code for code in self.attackers if code != loser and code in links]
        owners = tuple([winner if holder == loser else holder for holder in self.owners])
        return _Front(owners, holdings, links, attackers)


_FRONTS: dict[tuple[int, tuple[str, ...]], tuple[Any, _Front]] = {}
_FRONTS_KEPT = 16


def _remember(world: Plain, front: _Front) -> _Front:
    """Keep a front in the cache; the world's border list stays referenced by the entry, so
    its id (part of the key) cannot be reused by another world while the entry lives."""
    if len(_FRONTS) >= _FRONTS_KEPT:
        # another thread may be trimming the cache too; a front is never changed in place
        with contextlib.suppress(RuntimeError, StopIteration):
            _FRONTS.pop(next(iter(_FRONTS)), None)
    _FRONTS[(id(world["borders"]), front.owners)] = (world["borders"], front)
    return front


def _front(world: Plain, board: Plain) -> _Front:
    """The `_Front` of the board's ownership (owners read in the world's region order)."""
    regions = board["regions"]
    owners = tuple([regions[code]["owner"] for code in world["regions"]])
    found = _FRONTS.get((id(world["borders"]), owners))
    if found is not None and found[0] is world["borders"]:
        return found[1]
    return _remember(world, _Front.scan(world, owners))


def eligible_attackers(world: Plain, board: Plain) -> list[str]:
    """Standing factions with an enemy across any border, in code order [§3.1]."""
    return list(_front(world, board).attackers)


def defenders_of(world: Plain, board: Plain, attacker: str) -> list[str]:
    """Factions holding a region next to one of the attacker's, in code order [§3.2]."""
    return _defenders(_front(world, board), attacker)


def _defenders(front: _Front, attacker: str) -> list[str]:
    return sorted(front.links.get(attacker, ()))


def shared_borders(world: Plain, board: Plain, attacker: str, defender: str) -> list[list[Any]]:
    """Borders with one end held by each side, in (a, b) order [§3.3]."""
    return _shared(_front(world, board), attacker, defender)


def _shared(front: _Front, attacker: str, defender: str) -> list[list[Any]]:
    return list(front.links.get(attacker, {}).get(defender, ()))


def waiting_rebellions(board: Plain) -> list[str]:
    """Absorbed factions whose open fund holds exactly $50, in region-code order [§7]."""
    return sorted(
        [
            code
            for code, faction in board["factions"].items()
            if faction["pool"] == POOL_CAP
            and not faction["standing"]
            and faction["pool_state"] == PoolState.OPEN
        ]
    )


def usable_pool(board: Plain, faction: str) -> int:
    """The amount a side brings to a regular battle: an open pool's amount (0 means not used)."""
    pool = board["factions"][faction]
    return int(pool["pool"]) if pool["pool_state"] == PoolState.OPEN else 0


# ---------------------------------------------------------------- fan pools [§6]


def apply_contribution(board: Plain, entry: Mapping[str, Any]) -> None:
    """Add one ledger entry to its pool, or raise LedgerRefusal naming the rule it breaks."""
    faction, amount, battle = entry.get("faction"), entry.get("amount"), entry.get("before_battle")
    if board["ended"]:
        raise LedgerRefusal("season", "the season is over; no contribution is accepted")
    if not isinstance(faction, str) or faction not in board["factions"]:
        raise LedgerRefusal("faction", f"no faction has the code {faction!r}")
    if (
        isinstance(amount, bool)
        or not isinstance(amount, int)
        or amount % POOL_STEP
        or not POOL_STEP <= amount <= POOL_CAP
    ):
        raise LedgerRefusal(
            "amount", f"must be ${POOL_STEP} to ${POOL_CAP} in ${POOL_STEP} steps, got {amount!r}"
        )
    if battle != board["next_battle"]:
        raise LedgerRefusal(
            "before_battle", f"must be the next battle, {board['next_battle']}, got {battle!r}"
        )
    pool = board["factions"][faction]
    if pool["pool_state"] == PoolState.SPENT:
        raise LedgerRefusal("faction", f"{faction} has already spent its pool this season")
    if pool["pool"] + amount > POOL_CAP:
        raise LedgerRefusal(
            "amount",
            f"{faction}'s pool holds ${pool['pool']}; "
            f"${amount} more would pass the ${POOL_CAP} cap",
        )
    pool["pool"] += amount


def _apply_due(board: Plain, ledger: Iterable[Mapping[str, Any]]) -> None:
    """Apply the entries dated to the coming battle, in seq order, before anything else."""
    due = sorted(
        (e for e in ledger if e.get("before_battle") == board["next_battle"]),
        key=lambda e: int(e["seq"]),
    )
    for entry in due:
        try:
            apply_contribution(board, entry)
        except LedgerRefusal as refusal:
            raise LedgerRefusal(
                f"ledger seq {entry['seq']}.{refusal.field}", refusal.rule
            ) from None


def check_contribution(state: Plain, ledger: list[Plain], faction: str, amount: int) -> Plain:
    """The ledger entry a new contribution would become, or LedgerRefusal; nothing is changed."""
    board = _copy_board(state["board"])
    _apply_due(board, ledger)
    entry = {
        "seq": max((int(e["seq"]) for e in ledger), default=0) + 1,
        "before_battle": board["next_battle"],
        "faction": faction,
        "amount": amount,
    }
    apply_contribution(board, entry)
    return entry


def pending_board(state: Plain, ledger: list[Plain]) -> Plain:
    """The board as the next battle will see it: contributions already dated to it applied."""
    board = _copy_board(state["board"])
    if not board["ended"]:
        _apply_due(board, ledger)
    return board


# ---------------------------------------------------------------- battles


def _draws(key: str, battle: int) -> list[int]:
    """The 8 draws of battle n: indices 8(n-1) .. 8(n-1)+7 [§2]."""
    return hash64_run(key, DRAWS_PER_BATTLE * (battle - 1), DRAWS_PER_BATTLE)


def regular_sides(
    world: Plain, board: Plain, battle: int, attacker: str, defender: str, sea: bool
) -> tuple[Plain, Plain]:
    """Both sides' strength records for a regular battle, pools as they stand on `board`."""
    counter_a, counter_d = counter_bonuses(
        faction_type(world, attacker), faction_type(world, defender)
    )
    sides = []
    for faction, home, sea_factor, counter in (
        (attacker, Fraction(1), SEA_FACTOR if sea else Fraction(1), counter_a),
        (defender, HOME_BONUS, Fraction(1), counter_d),
    ):
        amount = usable_pool(board, faction)
        side = _board_side(
            world,
            board,
            battle,
            faction,
            home=home,
            sea=sea_factor,
            counter=counter,
            fan=fan_factor(amount),
        )
        side["pool"] = amount
        sides.append(side)
    return sides[0], sides[1]


def fan_outcome(attacker: Plain, defender: Plain) -> tuple[str | None, bool]:
    """(the role a full pool secures, or None; whether it is a FAN CLASH) [§6]."""
    full_a, full_d = attacker["pool"] == POOL_CAP, defender["pool"] == POOL_CAP
    if full_a and full_d:
        return None, True
    if full_a or full_d:
        return ("attacker" if full_a else "defender"), False
    return None, False


def _chance_text(q: int) -> str:
    """fraction_text(Q / 2**32), reduced by the powers of two Q shares with 2**32."""
    if q == 0:
        return "0/1"
    shift = min(ROUND_BITS, (q & -q).bit_length() - 1)
    return f"{q >> shift}/{1 << (ROUND_BITS - shift)}"


def odds_line(attacker: Plain, defender: Plain, secured: str | None) -> Plain:
    """The odds a viewer is shown: battle chance before and after fan power, per-round chances.

    A secured win shows 1 or 0 after fan power [§1.4]; the rounds keep their real chances.
    """
    odds = assess(attacker, defender)
    after = odds["chance_after"]
    if secured is not None:
        after = Fraction(1 if secured == "attacker" else 0)
    rounds = [
        {
            "category": category.value,
            "before": _chance_text(before),
            "after": _chance_text(q_after),
        }
        for category, before, q_after in zip(CATEGORIES, odds["before"], odds["after"], strict=True)
    ]
    return {
        "before": odds["chance_before"],
        "after": after,
        "rounds": rounds,
        "q": odds["after"],
    }


def _fight(
    entry: Plain, attacker: Plain, defender: Plain, draws: list[int], secured: str | None
) -> None:
    """Rounds, natural and final winner, odds line and upset, written into the entry."""
    line = odds_line(attacker, defender, secured)
    first = entry["draws"][0]["index"]
    rounds, attacker_wins = [], 0
    for i, shown in enumerate(line["rounds"]):
        won = (draws[3 + i] >> ROUND_BITS) < line["q"][i]
        attacker_wins += won
        rounds.append(
            {**shown, "draw_index": first + 3 + i, "winner": "attacker" if won else "defender"}
        )
    natural = "attacker" if attacker_wins >= ROUNDS_TO_WIN else "defender"
    after = line["after"]
    winner = secured or natural
    winner_chance = after if winner == "attacker" else 1 - after
    entry.update(
        rounds=rounds,
        attacker_rounds=attacker_wins,
        battle_chance={
            "before": fraction_text(line["before"]),
            "after": fraction_text(after),
        },
        natural_winner=entry[natural],
        winner=entry[winner],
        loser=entry["defender" if winner == "attacker" else "attacker"],
        upset=winner_chance < UPSET_BELOW,
    )


def _regular_battle(world: Plain, board: Plain, battle: int, draws: list[int]) -> Plain:
    front = _front(world, board)
    attackers = front.attackers
    if not attackers:
        raise ValueError("no faction has an enemy on its border; the season is over")
    attacker = attackers[below(len(attackers), draws[0])]
    defenders = _defenders(front, attacker)
    defender = defenders[below(len(defenders), draws[1])]
    borders = _shared(front, attacker, defender)
    a, b, kind, remote = borders[below(len(borders), draws[2])]
    attacker_side, defender_side = regular_sides(
        world, board, battle, attacker, defender, kind == SEA
    )
    secured, clash = fan_outcome(attacker_side, defender_side)
    entry = _entry(battle, BattleKind.REGULAR, draws, attacker_side, defender_side)
    entry["candidates"] = {
        "attackers": len(attackers),
        "defenders": len(defenders),
        "borders": len(borders),
    }
    entry["border"] = {"a": a, "b": b, "kind": kind, "remote": remote}
    entry["secured"] = secured is not None
    _fight(entry, attacker_side, defender_side, draws, secured)
    natural_reason = Reason.FAN_CLASH if clash else Reason.NATURAL
    reason = Reason.FAN_POWER if entry["winner"] != entry["natural_winner"] else natural_reason
    entry["reason"] = reason.value
    spent = {}
    for side in (attacker_side, defender_side):
        if side["pool"] > 0:
            board["factions"][side["faction"]]["pool_state"] = PoolState.SPENT.value
            spent[side["faction"]] = side["pool"]
    entry["pools_spent"] = spent
    loser = entry["loser"]
    moved = sorted(front.holdings[loser])
    for code in moved:
        board["regions"][code] = {"owner": entry["winner"], "captured_at": battle}
    _remember(world, front.absorbed(entry["winner"], loser))
    board["factions"][loser].update(standing=False, morale=0)
    entry.update(changed_hands=moved, absorbed=loser, restored=None)
    return entry


def _rebellion(world: Plain, board: Plain, battle: int, draws: list[int], rebel: str) -> Plain:
    """A bonus round: the rebel home region alone against its occupier, on land [§7]."""
    occupier = owner(board, rebel)
    counter_r, counter_o = counter_bonuses(
        faction_type(world, rebel), faction_type(world, occupier)
    )
    one = Fraction(1)
    rebel_side = _side(
        world,
        rebel,
        world["regions"][rebel]["population"],
        0,
        True,
        home=one,
        sea=one,
        counter=counter_r,
        fan=one,
    )
    occupier_side = _board_side(
        world,
        board,
        battle,
        occupier,
        home=HOME_BONUS,
        sea=one,
        counter=counter_o,
        fan=one,
    )
    rebel_side["pool"] = occupier_side["pool"] = 0
    entry = _entry(battle, BattleKind.BONUS, draws, rebel_side, occupier_side)
    entry.update(candidates=None, border=None, secured=False)
    _fight(entry, rebel_side, occupier_side, draws, None)
    entry["reason"] = Reason.NATURAL.value
    fund = board["factions"][rebel]
    entry["pools_spent"] = {rebel: fund["pool"]}
    fund["pool_state"] = PoolState.SPENT.value
    if entry["winner"] == rebel:
        board["regions"][rebel] = {"owner": rebel, "captured_at": None}
        fund.update(standing=True, morale=0)
        entry.update(changed_hands=[rebel], absorbed=None, restored=rebel)
    else:
        entry.update(changed_hands=[], absorbed=None, restored=None)
    return entry


def _entry(
    battle: int, kind: BattleKind, draws: list[int], attacker: Plain, defender: Plain
) -> Plain:
    first = DRAWS_PER_BATTLE * (battle - 1)
    return {
        "number": battle,
        "kind": kind.value,
        "draws": [{"index": first + i, "value": x} for i, x in enumerate(draws)],
        "attacker": attacker["faction"],
        "defender": defender["faction"],
        "sides": {"attacker": attacker, "defender": defender},
    }


def _update_morale(board: Plain, winner: str, upset: bool) -> None:
    """Decay every standing faction, add the win bonus, cap [§5]."""
    keep, out_of = MORALE_DECAY.numerator, MORALE_DECAY.denominator
    for faction in board["factions"].values():
        if faction["morale"] and faction["standing"]:
            faction["morale"] = faction["morale"] * keep // out_of
    won = board["factions"][winner]
    won["morale"] = min(
        MORALE_CAP_BP, won["morale"] + (MORALE_UPSET_BP if upset else MORALE_WIN_BP)
    )


def season_over(world: Plain, board: Plain, max_battles: int | None) -> bool:
    """The cap is reached, or no rebellion waits and nobody has an enemy on its border [§8]."""
    played = board["next_battle"] - 1
    if max_battles is not None and played >= max_battles:
        return True
    return not waiting_rebellions(board) and not eligible_attackers(world, board)


def play_step(state: Plain, ledger: list[Plain]) -> tuple[Plain, Plain]:
    """Fight the next history entry: apply its contributions, then a rebellion or a battle."""
    board = _copy_board(state["board"])
    if board["ended"]:
        raise ValueError("the season is over; no battle is left to fight")
    world, battle = state["world"], board["next_battle"]
    _apply_due(board, ledger)
    draws = _draws(state["key"], battle)
    waiting = waiting_rebellions(board)
    if waiting:
        entry = _rebellion(world, board, battle, draws, waiting[0])
    else:
        entry = _regular_battle(world, board, battle, draws)
    _update_morale(board, entry["winner"], entry["upset"])
    entry["morale_after"] = {
        role: board["factions"][entry[role]]["morale"] for role in ("attacker", "defender")
    }
    board["next_battle"] = battle + 1
    board["ended"] = season_over(world, board, state["max_battles"])
    entry["season_over"] = board["ended"]
    return {**state, "board": board}, entry


# ---------------------------------------------------------------- replay verifier [§9]

QUICKNET: dict[str, Any] = {
    "name": "quicknet",
    "chain_hash": "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971",
    "genesis": 1692803367,
    "period_seconds": 3,
}
"""drand quicknet, the default beacon: round r comes out at genesis + (r − 1) × period_seconds
(unix seconds). The verifier knows a chain by its hash and times rounds only on chains it knows."""
BEACON_LEAD_SECONDS = 60
"""`conquest new` takes a beacon round only if it comes out at least this long after the header
is published, time enough to post the commitment first; the verifier asks only "after"."""

_HEADER_FIELDS = (
    "beacon",
    "engine_files",
    "engine_version",
    "map_name",
    "map_sha256",
    "max_battles",
    "ruleset",
)
"""Every field a season header must hold."""
_PUBLISHED = "published"
"""The one optional header field: when the header (naming a beacon) was published, in UTC."""
_PUBLISHED_FORM = "YYYY-MM-DDTHH:MM:SSZ"
_PUBLISHED_PATTERN = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})Z", re.ASCII
)
_BEACON_SPEC_FIELDS = ("chain_hash", "name", "period_seconds", "round")
_BEACON_VALUE_FIELDS = ("randomness", "round", "signature")
_LEDGER_FIELDS = ("amount", "before_battle", "faction", "seq")
_MAP_FIELDS: dict[str, tuple[str, ...]] = {
    "map": ("borders", "name", "regions"),
    "region": (
        "code",
        "name",
        "population",
        "population_basis",
        "population_year",
        "ratings",
        "special",
    ),
    "ratings": tuple(c.value for c in CATEGORIES),
    "special": ("category", "citation", "fact", "name", "source_status"),
    "border": ("a", "b", "distance_km", "kind", "remote"),
}
"""The keys a map may hold, by object kind (the map format's schema, repeated for the verifier)."""
_ENGINE_FILES = ("draws.py", "engine.js", "engine.py")
"""The verifier files a season archive carries; the header names the SHA-256 of each."""
_GUIDE = "VERIFY.md"
_MANIFEST = "manifest.sha256"
"""`sha256sum` format: one `<64 hex digits>  <file name>` line per other file of the archive."""
_SPACES = " \t\n\r"
"""The whitespace a `.txt` record file may carry around its value (JSON's own four)."""
_RECORD_FILE_LIMIT = 64 * 1024 * 1024
"""Bytes; a record file above this is refused rather than read (a real season is ~2 MB)."""
_SHOWN_LENGTH = 40
"""A value in a mismatch message is cut to this many characters, so the line stays short."""

_ABSENT = object()
"""Stands for a key that one side of a comparison lacks."""


def shown(value: Any) -> str:
    """A value as a mismatch message shows it: compact JSON, cut to _SHOWN_LENGTH characters."""
    if value is _ABSENT:
        return "nothing"
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text if len(text) <= _SHOWN_LENGTH else text[: _SHOWN_LENGTH - 3] + "..."


def _differs(place: str, where: str, expected: Any, found: Any) -> ReplayMismatch:
    return ReplayMismatch(place, f"field {where}: expected {shown(expected)}, found {shown(found)}")


_PLAIN_LEAVES = frozenset({str, int, bool, type(None)})


def _surely_equal(saved: Any, replayed: Any) -> bool:
    """True only when `first_difference` would find nothing: same exact types, equal values.

    A quick pass for the common case (a replay that matches); False sends the caller to the
    full walk, which names the place.
    """
    kind = type(saved)
    if kind is not type(replayed):
        return False
    if kind in _PLAIN_LEAVES:
        return bool(saved == replayed)
    if kind is dict:
        if len(saved) != len(replayed):
            return False
        for key, value in saved.items():
            other = replayed.get(key, _ABSENT)
            if type(value) in _PLAIN_LEAVES and type(value) is type(other):
                if value != other:
                    return False
            elif not _surely_equal(value, other):
                return False
        return True
    if kind is list:
        return len(saved) == len(replayed) and all(
            _surely_equal(a, b) for a, b in zip(saved, replayed, strict=True)
        )
    return False


def first_difference(saved: Any, replayed: Any, path: str = "") -> tuple[str, Any, Any] | None:
    """The first place (dotted path, keys in sorted order) where two JSON values differ.

    Returns (path, saved, replayed); a key one side lacks is given as `_ABSENT`.
    """
    if _surely_equal(saved, replayed):
        return None
    if isinstance(saved, dict) and isinstance(replayed, dict):
        for key in sorted(set(saved) | set(replayed)):
            where = f"{path}.{key}" if path else str(key)
            if key not in saved or key not in replayed:
                return where, saved.get(key, _ABSENT), replayed.get(key, _ABSENT)
            found = first_difference(saved[key], replayed[key], where)
            if found:
                return found
        return None
    if isinstance(saved, list) and isinstance(replayed, list):
        for i, (a, b) in enumerate(zip(saved, replayed, strict=False)):
            found = first_difference(a, b, f"{path}[{i}]")
            if found:
                return found
        if len(saved) != len(replayed):
            return f"{path} length", len(saved), len(replayed)
        return None
    if type(saved) is not type(replayed) or saved != replayed:
        return path or "value", saved, replayed
    return None


def _is_int(value: Any, low: int = 0) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and low <= value


def _is_hex64(value: Any) -> bool:
    return (
        isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)
    )


def _check_known(place: str, value: Any, fields: Iterable[str], path: str = "") -> None:
    """An object with no key outside `fields` (the first unknown key in sorted order is named)."""
    if not isinstance(value, dict):
        raise ReplayMismatch(
            place, f"field {path or 'value'}: must be an object, found {shown(value)}"
        )
    allowed = set(fields)
    for key in sorted(value):
        if key not in allowed:
            raise _differs(place, f"{path}.{key}" if path else key, _ABSENT, value[key])


def _check_fields(place: str, value: Any, fields: Iterable[str], path: str = "") -> None:
    """An object holding exactly `fields`: an unknown key, then a missing one, is named."""
    fields = tuple(fields)
    _check_known(place, value, fields, path)
    _check_present(place, value, fields, path)


def _check_present(place: str, value: Plain, fields: Iterable[str], path: str = "") -> None:
    """Every one of `fields` is a key of `value` (the first missing one in sorted order)."""
    for key in sorted(fields):
        if key not in value:
            raise ReplayMismatch(place, f"field {f'{path}.{key}' if path else key}: missing")


def check_header(header: Any) -> None:
    """Raise ReplayMismatch unless the header holds exactly its fields, each well formed [§8]."""
    if not isinstance(header, dict):
        raise ReplayMismatch("header", f"field value: must be an object, found {shown(header)}")
    if header.get("engine_version") != ENGINE_VERSION:
        raise _differs(
            "header", "engine_version", ENGINE_VERSION, header.get("engine_version", _ABSENT)
        )
    _check_known("header", header, (*_HEADER_FIELDS, _PUBLISHED))
    _check_present("header", header, _HEADER_FIELDS)
    if header["ruleset"] != "conquest":
        raise _differs("header", "ruleset", "conquest", header["ruleset"])
    if not isinstance(header["map_name"], str) or not header["map_name"]:
        raise ReplayMismatch("header", "field map_name: must be non-empty text")
    if not _is_hex64(header["map_sha256"]):
        raise ReplayMismatch("header", "field map_sha256: must be 64 lowercase hex digits")
    files = header["engine_files"]
    _check_fields("header", files, _ENGINE_FILES, "engine_files")
    for name in _ENGINE_FILES:
        if not _is_hex64(files[name]):
            raise ReplayMismatch(
                "header", f"field engine_files.{name}: must be 64 lowercase hex digits"
            )
    cap = header["max_battles"]
    if cap is not None and not _is_int(cap, 1):
        raise ReplayMismatch(
            "header", f"field max_battles: must be null or a whole number >= 1, found {shown(cap)}"
        )
    spec = header["beacon"]
    if spec is not None:
        _check_fields("header", spec, _BEACON_SPEC_FIELDS, "beacon")
        if not isinstance(spec["name"], str) or not _is_hex64(spec["chain_hash"]):
            raise ReplayMismatch(
                "header", "field beacon: needs a name and a 64-hex-digit chain_hash"
            )
        for key in ("period_seconds", "round"):
            if not _is_int(spec[key], 1):
                raise ReplayMismatch("header", f"field beacon.{key}: must be a whole number >= 1")
    if _PUBLISHED in header:
        if spec is None:
            raise _differs("header", _PUBLISHED, _ABSENT, header[_PUBLISHED])
        _checked_published(header[_PUBLISHED])


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (integer arithmetic, any year)."""
    year -= month <= 2
    era = year // 400
    year_of_era = year - era * 400
    day_of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146097 + day_of_era - 719468


def utc_text(seconds: int) -> str:
    """Unix seconds as `YYYY-MM-DDTHH:MM:SSZ` (integer arithmetic, so no year is out of range)."""
    days, rest = divmod(seconds, 86400)
    shifted = days + 719468
    era = shifted // 146097
    day_of_era = shifted - era * 146097
    year_of_era = (
        day_of_era - day_of_era // 1460 + day_of_era // 36524 - day_of_era // 146096
    ) // 365
    day_of_year = day_of_era - (365 * year_of_era + year_of_era // 4 - year_of_era // 100)
    shifted_month = (5 * day_of_year + 2) // 153
    day = day_of_year - (153 * shifted_month + 2) // 5 + 1
    month = shifted_month + 3 if shifted_month < 10 else shifted_month - 9
    year = year_of_era + era * 400 + (month <= 2)
    hour, minute, second = rest // 3600, rest // 60 % 60, rest % 60
    return f"{year:04d}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}Z"


def published_seconds(text: Any) -> int | None:
    """Unix seconds of a strict `YYYY-MM-DDTHH:MM:SSZ` UTC time; None if it is anything else."""
    found = _PUBLISHED_PATTERN.fullmatch(text) if isinstance(text, str) else None
    if found is None:
        return None
    year, month, day, hour, minute, second = (int(part) for part in found.groups())
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    month_days = (31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
    if not 1 <= month <= 12 or not 1 <= day <= month_days[month - 1]:
        return None
    if hour > 23 or minute > 59 or second > 59:
        return None
    return _days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second


def _checked_published(value: Any) -> int:
    seconds = published_seconds(value)
    if seconds is None:
        raise ReplayMismatch(
            "header",
            f"field {_PUBLISHED}: must be a UTC time written {_PUBLISHED_FORM}, "
            f"found {shown(value)}",
        )
    return seconds


def beacon_round_time(chain_hash: str, beacon_round: int) -> int | None:
    """Unix seconds at which a round comes out, for a chain this verifier knows; else None."""
    if chain_hash != QUICKNET["chain_hash"]:
        return None
    return int(QUICKNET["genesis"] + (beacon_round - 1) * QUICKNET["period_seconds"])


def beacon_timing(header: Plain) -> tuple[bool, str]:
    """Check that the beacon round came out after the header was published [§8].

    Returns (checked, note): the note shows both times, or says plainly why the timing could
    not be checked (no publication time recorded, or a chain not known here). Raises
    ReplayMismatch naming header field beacon.round when the round did not come out after.
    """
    spec = header["beacon"]
    known = spec["chain_hash"] == QUICKNET["chain_hash"]
    if known and spec["period_seconds"] != QUICKNET["period_seconds"]:
        raise _differs(
            "header", "beacon.period_seconds", QUICKNET["period_seconds"], spec["period_seconds"]
        )
    if _PUBLISHED not in header:
        return False, "publication time not recorded: the beacon timing cannot be checked"
    published = header[_PUBLISHED]
    came_out = beacon_round_time(spec["chain_hash"], spec["round"])
    if came_out is None:
        return False, (
            f"beacon timing not checked: chain {spec['chain_hash']} is not one this verifier "
            f"knows (header.published {published})"
        )
    gap = came_out - _checked_published(published)
    said = f"{QUICKNET['name']} round {spec['round']} came out at {utc_text(came_out)}"
    if gap <= 0:
        raise ReplayMismatch(
            "header",
            f"field beacon.round: {said}, not after header.published {published}; "
            "the round must come after the commitment is published",
        )
    return True, f"beacon timing: {said}, {gap} s after header.published {published}"


def _check_map_fields(map_data: Any) -> None:
    """The map holds only the keys of the map format (its hash covers them all)."""
    _check_fields("map", map_data, _MAP_FIELDS["map"])
    for name, kind in (("regions", "region"), ("borders", "border")):
        items = map_data[name]
        if not isinstance(items, list):
            raise ReplayMismatch("map", f"field {name}: must be a list")
        for i, item in enumerate(items):
            _check_known("map", item, _MAP_FIELDS[kind], f"{name}[{i}]")
            for inner in ("ratings", "special") if kind == "region" else ():
                if isinstance(item.get(inner), dict):
                    _check_known("map", item[inner], _MAP_FIELDS[inner], f"{name}[{i}].{inner}")


def _check_ledger_lines(ledger: list[Any]) -> None:
    """Exactly four fields a line, seq strictly increasing, battles never going back [§9.2]."""
    previous_seq, previous_battle = 0, 0
    for i, entry in enumerate(ledger):
        seq = entry.get("seq") if isinstance(entry, dict) else None
        place = f"ledger seq {seq}" if _is_int(seq) else f"ledger[{i}]"
        _check_fields(place, entry, _LEDGER_FIELDS)
        if not isinstance(seq, int) or not _is_int(seq) or seq <= previous_seq:
            raise ReplayMismatch(f"ledger[{i}].seq", f"must increase strictly, found {shown(seq)}")
        battle = entry["before_battle"]
        if not _is_int(battle) or battle < previous_battle:
            raise ReplayMismatch(
                f"{place}.before_battle", f"must not go back, found {shown(battle)}"
            )
        if battle < 1:
            raise ReplayMismatch(
                f"{place}.before_battle",
                f"must be the next battle at arrival; no battle has number {battle}",
            )
        if not isinstance(entry["faction"], str) or not _is_int(entry["amount"], -(2**64)):
            raise ReplayMismatch(place, "field faction or amount: must be text and a whole number")
        previous_seq, previous_battle = seq, battle


def _replay_season(state: Plain, ledger: list[Plain]) -> tuple[Plain, list[Plain]]:
    """Play the season to its end, validating every ledger entry on the way [§9.2].

    The ledger is judged against the replayed state alone, so a refused entry is reported
    before any saved battle is compared, as §9 orders the checks.
    """
    entries = []
    while not state["board"]["ended"]:
        try:
            state, entry = play_step(state, ledger)
        except LedgerRefusal as refusal:
            raise ReplayMismatch(refusal.field, refusal.rule) from None
        entries.append(entry)
    for contribution in ledger:
        if contribution["before_battle"] >= state["board"]["next_battle"]:
            raise ReplayMismatch(
                f"ledger seq {contribution['seq']}",
                "dated after the season ended; it was never applied",
            )
    return state, entries


def verify_record(record: Mapping[str, Any]) -> list[str]:
    """Replay a published season and compare every field; raise ReplayMismatch at the first miss.

    Returns notes for the viewer (what was checked, and anything that could not be).
    """
    try:
        return _verify(record)
    except (KeyError, TypeError, AttributeError, IndexError) as error:
        raise ReplayMismatch("record", f"malformed ({type(error).__name__}: {error})") from None


def _season_key_of(record: Mapping[str, Any], header: Plain, seed: str) -> tuple[str, list[str]]:
    """The season key, mixing in the recorded beacon round when the header names one [§2]."""
    beacon, spec = record.get("beacon"), header["beacon"]
    if spec is None:
        if beacon is not None:
            raise ReplayMismatch("beacon", "recorded, but the header names no beacon round")
        return season_key(seed, None), []
    _, timing = beacon_timing(header)
    if beacon is None:
        raise ReplayMismatch("beacon", "the header names a beacon round but none is recorded")
    _check_fields("beacon", beacon, _BEACON_VALUE_FIELDS)
    if not _is_int(beacon["round"], 1) or beacon["round"] != spec["round"]:
        raise _differs("beacon", "round", spec["round"], beacon["round"])
    if not _is_hex64(beacon["randomness"]):
        raise ReplayMismatch("beacon", "field randomness: must be 64 lowercase hex digits")
    note = (
        f"beacon round {beacon['round']} mixed into the season key; its signature is not "
        "checked here (check it against the beacon's own public record)"
    )
    return season_key(seed, beacon["randomness"]), [timing, note]


def _verify(record: Mapping[str, Any]) -> list[str]:
    header, seed = record["header"], record.get("seed")
    check_header(header)
    notes = []
    manifest = record.get("manifest")
    if manifest is not None:
        for name in _ENGINE_FILES:
            if manifest.get(name) != header["engine_files"][name]:
                raise ReplayMismatch(
                    name, "its SHA-256 is not the one header.engine_files names for it"
                )
        notes.append("every file matches manifest.sha256; the engine files are the header's")
    if seed is None:
        raise ReplayMismatch("seed", "not revealed yet; a season is replayed after the reveal")
    if not verify_reveal(seed, record["commitment"]):
        raise ReplayMismatch("seed", "its SHA-256 does not match the published commitment")
    map_data = record["map"]
    _check_map_fields(map_data)
    if map_sha256(map_data) != header["map_sha256"]:
        raise ReplayMismatch("map", "its SHA-256 does not match header.map_sha256")
    if map_data["name"] != header["map_name"]:
        raise _differs("header", "map_name", map_data["name"], header["map_name"])
    notes += [f"seed matches commitment {record['commitment']}", "map matches header.map_sha256"]
    key, beacon_notes = _season_key_of(record, header, seed)
    notes += beacon_notes
    try:
        state = new_state(map_data, key, header["max_battles"])
    except ValueError as error:
        raise ReplayMismatch("map", str(error)) from None
    ledger = list(record["ledger"])
    _check_ledger_lines(ledger)
    state, replayed = _replay_season(state, ledger)
    board = state["board"]
    saved_history = list(record["history"])
    for saved, entry in zip(saved_history, replayed, strict=False):
        found = first_difference(saved, entry)
        if found:
            where, was, now = found
            raise _differs(f"battle {entry['number']}", where, now, was)
    if len(saved_history) > len(replayed):
        raise ReplayMismatch(
            f"battle {len(replayed) + 1}", "extra entry: the season had already ended"
        )
    if len(saved_history) < len(replayed):
        raise ReplayMismatch(
            f"battle {len(saved_history) + 1}", "missing: the season had not ended"
        )
    found = first_difference(record["final_map"], board)
    if found:
        where, was, now = found
        raise _differs("final map", where, now, was)
    notes.append(f"{board['next_battle'] - 1} battles replayed; the final map matches")
    return notes


class _RecordFileError(ValueError):
    """A record file that cannot be read as canonical JSON."""


def _refuse_float(text: str) -> Any:
    raise _RecordFileError(f"numbers must be whole, found {text[:_SHOWN_LENGTH]}")


def _refuse_duplicates(pairs: list[tuple[str, Any]]) -> Plain:
    value: Plain = {}
    for key, item in pairs:
        if key in value:
            raise _RecordFileError(f"the key {shown(key)} appears twice")
        value[key] = item
    return value


def _parse_json(text: str) -> Any:
    return json.loads(
        text,
        parse_float=_refuse_float,
        parse_constant=_refuse_float,
        object_pairs_hook=_refuse_duplicates,
    )


def _parse_record_file(name: str, data: bytes) -> Any:
    """One record file's value: UTF-8, canonical JSON values only (whole numbers, unique keys)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ReplayMismatch(name, "not UTF-8 text") from None
    if name.endswith(".txt"):
        return text.strip(_SPACES)
    lines = text.split("\n") if name.endswith(".jsonl") else [text]
    values = []
    for number, line in enumerate(lines, start=1):
        if name.endswith(".jsonl") and not line.strip(_SPACES):
            continue
        try:
            values.append(_parse_json(line))
        except RecursionError:
            raise ReplayMismatch(name, f"line {number}: nested too deeply") from None
        except _RecordFileError as error:
            raise ReplayMismatch(name, f"line {number}: {error}") from None
        except ValueError as error:
            raise ReplayMismatch(
                name, f"line {number}: not valid JSON ({shown(str(error))})"
            ) from None
    return values if name.endswith(".jsonl") else values[0]


def _archive_names() -> tuple[str, ...]:
    return (*RECORD_FILES.values(), *_ENGINE_FILES, _GUIDE, _MANIFEST)


def _read_folder(folder: Path) -> dict[str, bytes]:
    """The archive's files found in a folder (other files are not part of the record)."""
    files = {}
    for name in _archive_names():
        path = folder / name
        if not path.is_file():
            if path.exists() or path.is_symlink():
                raise ReplayMismatch(name, "not a regular file")
            continue
        if path.stat().st_size > _RECORD_FILE_LIMIT:
            raise ReplayMismatch(name, f"larger than {_RECORD_FILE_LIMIT} bytes; refused")
        try:
            files[name] = path.read_bytes()
        except OSError as error:
            raise ReplayMismatch(name, f"cannot be read ({error.strerror})") from None
    return files


def _read_zip(path: Path) -> dict[str, bytes]:
    """The archive's files from a .zip (flat names; sizes checked before anything is unpacked)."""
    import zipfile

    files = {}
    try:
        with zipfile.ZipFile(path) as archive:
            for member in archive.infolist():
                if member.filename not in _archive_names():
                    raise ReplayMismatch(member.filename, "is not a file of a season record")
                if member.filename in files or member.file_size > _RECORD_FILE_LIMIT:
                    raise ReplayMismatch(member.filename, "listed twice or too large; refused")
                files[member.filename] = archive.read(member)
    except (zipfile.BadZipFile, OSError, EOFError, ValueError):
        raise ReplayMismatch("archive", "not a readable zip archive") from None
    return files


def _check_manifest(files: Mapping[str, bytes]) -> dict[str, str]:
    """Every file listed once with its SHA-256, and every archive file present is listed."""
    if _MANIFEST not in files:
        raise ReplayMismatch(_MANIFEST, "missing from the record")
    listed: dict[str, str] = {}
    lines = files[_MANIFEST].decode("utf-8", errors="replace").split("\n")
    if lines[-1] == "":
        lines.pop()
    for number, line in enumerate(lines, start=1):
        digest, _, name = line.partition("  ")
        if not _is_hex64(digest) or name not in _archive_names() or name == _MANIFEST:
            raise ReplayMismatch(
                _MANIFEST, f"line {number}: not '<sha256>  <record file name>': {shown(line)}"
            )
        if name in listed:
            raise ReplayMismatch(_MANIFEST, f"line {number}: {name} is listed twice")
        listed[name] = digest
    for name in sorted(set(listed) | set(files) - {_MANIFEST}):
        if name not in files:
            raise ReplayMismatch(name, f"listed in {_MANIFEST} but missing from the record")
        if name not in listed:
            raise ReplayMismatch(name, f"not listed in {_MANIFEST}")
        if hashlib.sha256(files[name]).hexdigest() != listed[name]:
            raise ReplayMismatch(name, f"its SHA-256 does not match {_MANIFEST}")
    return listed


def load_record(source: Path) -> Plain:
    """Read a season archive (a folder or a .zip), checking its manifest first.

    Missing optional files (the seed before the reveal, the beacon) become None.
    """
    files = _read_folder(source) if source.is_dir() else _read_zip(source)
    record: Plain = {"manifest": _check_manifest(files)}
    for role, name in RECORD_FILES.items():
        if name not in files:
            if role in ("seed", "beacon"):
                record[role] = None
                continue
            raise ReplayMismatch(name, "missing from the record")
        record[role] = _parse_record_file(name, files[name])
    return record


def main(arguments: list[str]) -> int:
    """`python -S -m fairfight.conquest.engine verify DIR`: 0 when the record replays exactly."""
    if len(arguments) != 2 or arguments[0] != "verify":
        print("usage: python3 engine.py verify RECORD_FOLDER_OR_ZIP", file=sys.stderr)
        return 2
    if not Path(arguments[1]).exists():
        print(f"no such folder or file: {arguments[1]}", file=sys.stderr)
        return 2
    try:
        notes = verify_record(load_record(Path(arguments[1])))
    except ReplayMismatch as mismatch:
        print(f"MISMATCH {mismatch}", file=sys.stderr)
        return 1
    for note in notes:
        print(f"ok: {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
