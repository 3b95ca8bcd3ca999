"""The conquest season rules: battles, pools and rebellions; exact, standard library only.

Every constant and enum lives in `tables.py`; the record verifier (`verifier.py`) replays a
published season with these rules. State is plain data (dicts, lists, ints, strings);
probabilities are Fractions or integers out of 2**32; there is no floating point anywhere, so
a replay matches byte for byte on every machine. A season archive ships this file beside
`tables.py`, `draws.py`, `errors.py` and `exact.py`, and imports them as plain files there
(`python3 engine.py verify .` still runs the verifier, as older archives' guides say).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any, Literal, cast

if __package__:
    from fairfight.conquest.rules import tables
    from fairfight.conquest.rules.tables import BattleEntry, Board, Side, World
    from fairfight.core.draws import beacon_key, below, hash64_run, validate_seed
    from fairfight.core.errors import InputError, RuleError, VerificationError
    from fairfight.core.exact import at_least_scaled
    from fairfight.core.records import ABSENT
else:  # a plain file in a season archive: the files lying beside it stand in for the package
    import tables  # type: ignore[import-not-found, no-redef, unused-ignore]
    from draws import beacon_key, below, hash64_run, validate_seed  # type: ignore[import-not-found, no-redef, unused-ignore]
    from errors import InputError, RuleError, VerificationError  # type: ignore[import-not-found, no-redef, unused-ignore]
    from exact import at_least_scaled  # type: ignore[import-not-found, no-redef, unused-ignore]
    from records import ABSENT  # type: ignore[import-not-found, no-redef, unused-ignore]
    from tables import BattleEntry, Board, Side, World  # type: ignore[import-not-found, no-redef, unused-ignore, assignment]

__all__ = [
    "ABSENT",
    "LedgerRefusal",
    "MapError",
    "Plain",
    "Read",
    "ReplayMismatch",
    "apply_contribution",
    "assess",
    "battle_chance",
    "canonical_bytes",
    "canonical_map",
    "check_contribution",
    "compile_world",
    "counter_bonuses",
    "defenders_of",
    "eligible_attackers",
    "faction_type",
    "fan_factor",
    "fan_outcome",
    "fraction_text",
    "initial_board",
    "integer_root",
    "integration_share",
    "main",
    "map_sha256",
    "new_state",
    "odds_line",
    "owner",
    "pending_board",
    "people",
    "play_step",
    "population_power",
    "regular_sides",
    "round_chance",
    "season_key",
    "season_over",
    "shared_borders",
    "shown",
    "strengths",
    "usable_pool",
    "waiting_rebellions",
    "weighted_rating",
]

Plain = dict[str, Any]
"""A JSON-shaped dict: the engine's state, map, ledger and history entries are all plain data."""
Read = Mapping[str, Any]
"""Plain data a function only reads: a dict, or one of the typed records below."""



_Role = Literal["attacker", "defender"]
"""A side of a battle, as entries and secured wins name it."""


class MapError(InputError):
    """A map the engine cannot play: names the field and the rule it breaks."""


class LedgerRefusal(RuleError):
    """A contribution the pool rules refuse [§6]; it never enters the ledger."""


class ReplayMismatch(VerificationError):
    """A published record that the replay does not reproduce: names the first place that differs."""

    @classmethod
    def of_field(cls, place: str, where: str, expected: Any, found: Any) -> ReplayMismatch:
        """The mismatch of one field: `field WHERE: expected X, found Y` (values as `shown`)."""
        return cls(place, f"field {where}: expected {shown(expected)}, found {shown(found)}")


def shown(value: Any) -> str:
    """A value as a mismatch message shows it: compact JSON, cut to SHOWN_LENGTH characters."""
    if value is ABSENT:
        return "nothing"
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text if len(text) <= tables.SHOWN_LENGTH else text[: tables.SHOWN_LENGTH - 3] + "..."


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


def canonical_map(map_data: Read) -> Plain:
    """The map with regions sorted by code and borders by (a, b): the form that is hashed [§8]."""
    data = dict(map_data)
    data["regions"] = sorted(map_data.get("regions", []), key=lambda r: str(r.get("code")))
    data["borders"] = sorted(
        map_data.get("borders", []), key=lambda b: (str(b.get("a")), str(b.get("b")))
    )
    return data


def map_sha256(map_data: Read) -> str:
    """SHA-256 of the canonical map, lowercase hex; the season header publishes it."""
    return hashlib.sha256(canonical_bytes(canonical_map(map_data))).hexdigest()


# ---------------------------------------------------------------- the map the engine plays


def _positive_int(value: Any, field: str, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise MapError(field, f"must be an integer of at least {low}")
    if high is not None and value > high:
        raise MapError(field, f"must be an integer from {low} to {high}")
    return value


def compile_world(map_data: Read) -> Plain:
    """Take from a map what the engine plays with, refusing a map it cannot play [§0]."""
    regions: dict[str, tables.RegionRules] = {}
    for i, region in enumerate(map_data.get("regions") or []):
        code = region.get("code")
        if not isinstance(code, str) or not code.isascii() or not code.strip():
            raise MapError(f"regions[{i}].code", "must be non-empty ASCII text")
        if code in regions:
            raise MapError(f"regions[{i}].code", f"{code} is listed twice")
        ratings = region.get("ratings") or {}
        special = (region.get("special") or {}).get("category")
        if special not in tables.CATEGORIES:
            raise MapError(f"regions[{i}].special.category", "must be one of P, S, M, R, U")
        regions[code] = {
            "population": _positive_int(region.get("population"), f"regions[{i}].population", 1),
            "ratings": {
                c.value: _positive_int(
                    ratings.get(c.value),
                    f"regions[{i}].ratings.{c}",
                    tables.RATING_MIN,
                    tables.RATING_MAX,
                )
                for c in tables.CATEGORIES
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
        if kind not in tables.BORDER_KINDS:
            raise MapError(f"borders[{i}].kind", "must be land or sea")
        remote = bool(border.get("remote", False))
        if remote and kind != tables.SEA:
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
    return cast(Plain, World(regions=regions, borders=borders, neighbours=neighbours))


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


def initial_board(world: Read) -> Plain:
    """Battle 1 about to start: every region its own standing faction, morale 0, empty pools."""
    board: Board = {
        "next_battle": 1,
        "ended": False,
        "factions": {
            code: {
                "standing": True,
                "morale": 0,
                "pool": 0,
                "pool_state": tables.PoolState.OPEN.value,
            }
            for code in world["regions"]
        },
        "regions": {code: {"owner": code, "captured_at": None} for code in world["regions"]},
    }
    return cast(Plain, board)


def new_state(map_data: Read, key: str, max_battles: int | None = None) -> Plain:
    """A season ready for battle 1, drawing from season key `key` (the seed or its beacon mix)."""
    if max_battles is not None:
        _positive_int(max_battles, "max_battles", 1)
    world = compile_world(map_data)
    return {"world": world, "key": key, "max_battles": max_battles, "board": initial_board(world)}


def season_key(seed: str, beacon_randomness: str | None) -> str:
    """K = the seed, or HMAC-SHA256(seed, beacon randomness) when the season names a beacon [§2]."""
    validate_seed(seed)
    return seed if beacon_randomness is None else beacon_key(seed, beacon_randomness)


_Factions = dict[str, tables.FactionRecord]
_Regions = dict[str, tables.RegionRecord]


def _copy_board(board: Read) -> Board:
    return {
        "next_battle": board["next_battle"],
        "ended": board["ended"],
        "factions": cast(_Factions, {code: dict(f) for code, f in board["factions"].items()}),
        "regions": cast(_Regions, {code: dict(r) for code, r in board["regions"].items()}),
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
    power = tables.POWER_EXPONENT
    return integer_root(
        people**power.numerator * tables.POWER_SCALE**power.denominator, power.denominator
    )


def weighted_rating(ratings: Mapping[str, int]) -> int:
    """30P + 25S + 20M + 15R + 10U: the rating composite, times 100 [§1.2]."""
    return sum(tables.RATING_WEIGHTS[c] * ratings[c.value] for c in tables.CATEGORIES)


def _integration_thirty_seconds(battle: int, captured_at: int | None) -> int:
    """The integration share of §1.2 in 32nds: 8 + 3k, at most 32 (32 for a home region)."""
    if captured_at is None:
        return tables.INTEGRATION_DENOMINATOR
    steps = battle - captured_at - 1
    return min(
        tables.INTEGRATION_DENOMINATOR, tables.INTEGRATION_START + tables.INTEGRATION_STEP * steps
    )


def integration_share(battle: int, captured_at: int | None) -> Fraction:
    """Share of a region's people counted in `battle`: 25% first, then +3/32 a battle [§1.2]."""
    return Fraction(
        _integration_thirty_seconds(battle, captured_at), tables.INTEGRATION_DENOMINATOR
    )


def people(world: Read, board: Read, faction: str, battle: int) -> int:
    """N: the home region in full plus each captured region at its integration share."""
    return _people(world, board, _front(world, board), faction, battle)


def _people(world: Read, board: Read, front: _Front, faction: str, battle: int) -> int:
    total, regions, populations = 0, board["regions"], world["regions"]
    for code in front.holdings.get(faction, ()):
        share = _integration_thirty_seconds(battle, regions[code]["captured_at"])
        total += populations[code]["population"] * share // tables.INTEGRATION_DENOMINATOR
    return total


def faction_type(world: Read, faction: str) -> tables.FactionType:
    """The type of the faction's special, read from its home region."""
    return _type_of(world["regions"][faction]["special"])


@lru_cache(maxsize=16)
def _type_of(special: str) -> tables.FactionType:
    return tables.CATEGORY_TYPES[tables.Category(special)]


def counter_bonuses(
    attacker: tables.FactionType, defender: tables.FactionType
) -> tuple[Fraction, Fraction]:
    """(attacker factor, defender factor): ×1.08 to the side whose type counters the other [§4]."""
    if tables.COUNTERS[attacker] == defender:
        return tables.COUNTER_BONUS, Fraction(1)
    if tables.COUNTERS[defender] == attacker:
        return Fraction(1), tables.COUNTER_BONUS
    return Fraction(1), Fraction(1)


@lru_cache(maxsize=64)
def fan_factor(amount: int) -> Fraction:
    """×(1 + 0.10·a/50) for a partial pool a; 1 for an empty or a full pool [§6]."""
    if 0 < amount < tables.POOL_CAP:
        return 1 + tables.FAN_BOOST_AT_CAP * amount / tables.POOL_CAP
    return Fraction(1)


def _side(
    world: Read, faction: str, headcount: int, morale_bp: int, special_active: bool, *,
    home: Fraction, sea: Fraction, counter: Fraction, fan: Fraction,
) -> Side:
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
        "home": fraction_text(home),
        "sea": fraction_text(sea),
        "counter": fraction_text(counter),
        "fan": fraction_text(fan),
    }


def _board_side(world: Read, board: Read, battle: int, faction: str, **factors: Fraction) -> Side:
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
    return fraction_text(Fraction(tables.BASIS_POINTS + morale_bp, tables.BASIS_POINTS))


@lru_cache(maxsize=8192)
def _ratio(text: str) -> tuple[int, int]:
    """A factor as the record writes it, as (numerator, denominator)."""
    value = Fraction(text)
    return value.numerator, value.denominator


def _strength_terms(side: Read, with_fan: bool) -> tuple[int, int, str | None]:
    """S_X outside the special's round as numerator and denominator, and the active special."""
    numerator, denominator = side["base"], 1
    for name in (*tables.STRENGTH_FACTORS, *(("fan",) if with_fan else ())):
        top, bottom = _ratio(side[name])
        numerator *= top
        denominator *= bottom
    return numerator, denominator, side["special"] if side["special_active"] else None


def strengths(side: Read, with_fan: bool) -> list[Fraction]:
    """S_X(c) for the five rounds: base × home × sea × counter × morale × fan, and the special
    in its own category's round while the home region is held [§1.2]."""
    numerator, denominator, special = _strength_terms(side, with_fan)
    value = Fraction(numerator, denominator)
    return [
        value * tables.SPECIAL_BONUS if c.value == special else value for c in tables.CATEGORIES
    ]


def _clamped_share(a_top: int, a_bottom: int, d_top: int, d_bottom: int) -> int:
    """floor(A/(A+D) · 2**32) for A = a_top/a_bottom and D = d_top/d_bottom, then the clamp."""
    a_cross, d_cross = a_top * d_bottom, d_top * a_bottom
    raw = (a_cross << tables.ROUND_BITS) // (a_cross + d_cross)
    return min(tables.ROUND_CEILING, max(tables.ROUND_FLOOR, raw))


def round_chance(attacker_strength: Fraction, defender_strength: Fraction) -> int:
    """Q: the attacker's round chance out of 2**32, floor of A/(A+D), clamped to 18.9..81.1%."""
    return _clamped_share(
        attacker_strength.numerator,
        attacker_strength.denominator,
        defender_strength.numerator,
        defender_strength.denominator,
    )


def _round_chances(attacker: Read, defender: Read, with_fan: bool) -> list[int]:
    """Q_c for the five rounds, in integers: `round_chance` of each pair of `strengths`."""
    a_top, a_bottom, a_special = _strength_terms(attacker, with_fan)
    d_top, d_bottom, d_special = _strength_terms(defender, with_fan)
    bonus_top, bonus_bottom = tables.SPECIAL_BONUS.numerator, tables.SPECIAL_BONUS.denominator
    chances = []
    for category in tables.CATEGORIES:
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
    return at_least_scaled(tables.ROUNDS_TO_WIN, round_chances, tables.ROUND_SCALE)


def assess(attacker: Read, defender: Read) -> Plain:
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


def owner(board: Read, region: str) -> str:
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
    def scan(cls, world: Read, owners: tuple[str, ...]) -> _Front:
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


def _remember(world: Read, front: _Front) -> _Front:
    """Keep a front in the cache; the world's border list stays referenced by the entry, so
    its id (part of the key) cannot be reused by another world while the entry lives."""
    if len(_FRONTS) >= _FRONTS_KEPT:
        # another thread may be trimming the cache too; a front is never changed in place
        with contextlib.suppress(RuntimeError, StopIteration):
            _FRONTS.pop(next(iter(_FRONTS)), None)
    _FRONTS[(id(world["borders"]), front.owners)] = (world["borders"], front)
    return front


def _front(world: Read, board: Read) -> _Front:
    """The `_Front` of the board's ownership (owners read in the world's region order)."""
    regions = board["regions"]
    owners = tuple([regions[code]["owner"] for code in world["regions"]])
    found = _FRONTS.get((id(world["borders"]), owners))
    if found is not None and found[0] is world["borders"]:
        return found[1]
    return _remember(world, _Front.scan(world, owners))


def eligible_attackers(world: Read, board: Read) -> list[str]:
    """Standing factions with an enemy across any border, in code order [§3.1]."""
    return list(_front(world, board).attackers)


def defenders_of(world: Read, board: Read, attacker: str) -> list[str]:
    """Factions holding a region next to one of the attacker's, in code order [§3.2]."""
    return _defenders(_front(world, board), attacker)


def _defenders(front: _Front, attacker: str) -> list[str]:
    return sorted(front.links.get(attacker, ()))


def shared_borders(world: Read, board: Read, attacker: str, defender: str) -> list[list[Any]]:
    """Borders with one end held by each side, in (a, b) order [§3.3]."""
    return _shared(_front(world, board), attacker, defender)


def _shared(front: _Front, attacker: str, defender: str) -> list[list[Any]]:
    return list(front.links.get(attacker, {}).get(defender, ()))


def waiting_rebellions(board: Read) -> list[str]:
    """Absorbed factions whose open fund holds exactly $50, in region-code order [§7]."""
    return sorted(
        [
            code
            for code, faction in board["factions"].items()
            if faction["pool"] == tables.POOL_CAP
            and not faction["standing"]
            and faction["pool_state"] == tables.PoolState.OPEN
        ]
    )


def usable_pool(board: Read, faction: str) -> int:
    """The amount a side brings to a regular battle: an open pool's amount (0 means not used)."""
    pool = board["factions"][faction]
    return int(pool["pool"]) if pool["pool_state"] == tables.PoolState.OPEN else 0


# ---------------------------------------------------------------- fan pools [§6]


def apply_contribution(board: Board, entry: Read) -> None:
    """Add one ledger entry to its pool, or raise LedgerRefusal naming the rule it breaks."""
    faction, amount, battle = entry.get("faction"), entry.get("amount"), entry.get("before_battle")
    if board["ended"]:
        raise LedgerRefusal("season", "the season is over; no contribution is accepted")
    if not isinstance(faction, str) or faction not in board["factions"]:
        raise LedgerRefusal("faction", f"no faction has the code {faction!r}")
    if (
        isinstance(amount, bool)
        or not isinstance(amount, int)
        or amount % tables.POOL_STEP
        or not tables.POOL_STEP <= amount <= tables.POOL_CAP
    ):
        raise LedgerRefusal(
            "amount",
            f"must be ${tables.POOL_STEP} to ${tables.POOL_CAP} in ${tables.POOL_STEP} steps, "
            f"got {amount!r}",
        )
    if battle != board["next_battle"]:
        raise LedgerRefusal(
            "before_battle", f"must be the next battle, {board['next_battle']}, got {battle!r}"
        )
    pool = board["factions"][faction]
    if pool["pool_state"] == tables.PoolState.SPENT:
        raise LedgerRefusal("faction", f"{faction} has already spent its pool this season")
    if pool["pool"] + amount > tables.POOL_CAP:
        raise LedgerRefusal(
            "amount",
            f"{faction}'s pool holds ${pool['pool']}; "
            f"${amount} more would pass the ${tables.POOL_CAP} cap",
        )
    pool["pool"] += amount


def _apply_due(board: Board, ledger: Iterable[Read]) -> None:
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


def check_contribution(state: Read, ledger: Sequence[Read], faction: str, amount: int) -> Plain:
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


def pending_board(state: Read, ledger: Sequence[Read]) -> Plain:
    """The board as the next battle will see it: contributions already dated to it applied."""
    board = _copy_board(state["board"])
    if not board["ended"]:
        _apply_due(board, ledger)
    return cast(Plain, board)


# ---------------------------------------------------------------- battles


def _draws(key: str, battle: int) -> list[int]:
    """The 8 draws of battle n: indices 8(n-1) .. 8(n-1)+7 [§2]."""
    return hash64_run(key, tables.DRAWS_PER_BATTLE * (battle - 1), tables.DRAWS_PER_BATTLE)


def regular_sides(
    world: Read,
    board: Read,
    battle: int,
    attacker: str,
    defender: str,
    sea: bool,
) -> tuple[Side, Side]:
    """Both sides' strength records for a regular battle, pools as they stand on `board`."""
    counter_a, counter_d = counter_bonuses(
        faction_type(world, attacker), faction_type(world, defender)
    )
    sides = []
    for faction, home, sea_factor, counter in (
        (attacker, Fraction(1), tables.SEA_FACTOR if sea else Fraction(1), counter_a),
        (defender, tables.HOME_BONUS, Fraction(1), counter_d),
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


def fan_outcome(attacker: Read, defender: Read) -> tuple[_Role | None, bool]:
    """(the role a full pool secures, or None; whether it is a FAN CLASH) [§6]."""
    full_a, full_d = attacker["pool"] == tables.POOL_CAP, defender["pool"] == tables.POOL_CAP
    if full_a and full_d:
        return None, True
    if full_a or full_d:
        return ("attacker" if full_a else "defender"), False
    return None, False


def _chance_text(q: int) -> str:
    """fraction_text(Q / 2**32), reduced by the powers of two Q shares with 2**32."""
    if q == 0:
        return "0/1"
    shift = min(tables.ROUND_BITS, (q & -q).bit_length() - 1)
    return f"{q >> shift}/{1 << (tables.ROUND_BITS - shift)}"


def odds_line(attacker: Read, defender: Read, secured: str | None) -> Plain:
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
        for category, before, q_after in zip(
            tables.CATEGORIES, odds["before"], odds["after"], strict=True
        )
    ]
    return {
        "before": odds["chance_before"],
        "after": after,
        "rounds": rounds,
        "q": odds["after"],
    }


_FIRST_ROUND_DRAW = tables.DRAW_ROLES.index(f"round {tables.CATEGORIES[0]}")
"""The index, within a battle's draws, of the first round's draw (the picks come first)."""


def _fight(
    entry: BattleEntry, attacker: Side, defender: Side, draws: list[int], secured: _Role | None
) -> None:
    """Rounds, natural and final winner, odds line and upset, written into the entry."""
    line = odds_line(attacker, defender, secured)
    first = entry["draws"][0]["index"]
    rounds, attacker_wins = [], 0
    for i, odds in enumerate(line["rounds"]):
        index = _FIRST_ROUND_DRAW + i
        won = (draws[index] >> tables.ROUND_BITS) < line["q"][i]
        attacker_wins += won
        rounds.append(
            {**odds, "draw_index": first + index, "winner": "attacker" if won else "defender"}
        )
    natural: _Role = "attacker" if attacker_wins >= tables.ROUNDS_TO_WIN else "defender"
    after = line["after"]
    winner = secured or natural
    winner_chance = after if winner == "attacker" else 1 - after
    entry.update(
        {
            "rounds": rounds,
            "attacker_rounds": attacker_wins,
            "battle_chance": {
                "before": fraction_text(line["before"]),
                "after": fraction_text(after),
            },
            "natural_winner": entry[natural],
            "winner": entry[winner],
            "loser": entry["defender" if winner == "attacker" else "attacker"],
            "upset": winner_chance < tables.UPSET_BELOW,
        }
    )


def _regular_battle(world: World, board: Board, battle: int, draws: list[int]) -> BattleEntry:
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
        world, board, battle, attacker, defender, kind == tables.SEA
    )
    secured, clash = fan_outcome(attacker_side, defender_side)
    entry = _entry(battle, tables.BattleKind.REGULAR, draws, attacker_side, defender_side)
    entry["candidates"] = {
        "attackers": len(attackers),
        "defenders": len(defenders),
        "borders": len(borders),
    }
    entry["border"] = {"a": a, "b": b, "kind": kind, "remote": remote}
    entry["secured"] = secured is not None
    _fight(entry, attacker_side, defender_side, draws, secured)
    natural_reason = tables.Reason.FAN_CLASH if clash else tables.Reason.NATURAL
    reason = (
        tables.Reason.FAN_POWER if entry["winner"] != entry["natural_winner"] else natural_reason
    )
    entry["reason"] = reason.value
    spent = {}
    for side in (attacker_side, defender_side):
        if side["pool"] > 0:
            board["factions"][side["faction"]]["pool_state"] = tables.PoolState.SPENT.value
            spent[side["faction"]] = side["pool"]
    entry["pools_spent"] = spent
    loser = entry["loser"]
    moved = sorted(front.holdings[loser])
    for code in moved:
        board["regions"][code] = {"owner": entry["winner"], "captured_at": battle}
    _remember(world, front.absorbed(entry["winner"], loser))
    board["factions"][loser].update({"standing": False, "morale": 0})
    entry.update({"changed_hands": moved, "absorbed": loser, "restored": None})
    return entry


def _rebellion(
    world: World, board: Board, battle: int, draws: list[int], rebel: str
) -> BattleEntry:
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
        home=tables.HOME_BONUS,
        sea=one,
        counter=counter_o,
        fan=one,
    )
    rebel_side["pool"] = occupier_side["pool"] = 0
    entry = _entry(battle, tables.BattleKind.BONUS, draws, rebel_side, occupier_side)
    entry.update({"candidates": None, "border": None, "secured": False})
    _fight(entry, rebel_side, occupier_side, draws, None)
    entry["reason"] = tables.Reason.NATURAL.value
    fund = board["factions"][rebel]
    entry["pools_spent"] = {rebel: fund["pool"]}
    fund["pool_state"] = tables.PoolState.SPENT.value
    if entry["winner"] == rebel:
        board["regions"][rebel] = {"owner": rebel, "captured_at": None}
        fund.update({"standing": True, "morale": 0})
        entry.update({"changed_hands": [rebel], "absorbed": None, "restored": rebel})
    else:
        entry.update({"changed_hands": [], "absorbed": None, "restored": None})
    return entry


def _entry(
    battle: int, kind: tables.BattleKind, draws: list[int], attacker: Side, defender: Side
) -> BattleEntry:
    first = tables.DRAWS_PER_BATTLE * (battle - 1)
    return {
        "number": battle,
        "kind": kind.value,
        "draws": [{"index": first + i, "value": x} for i, x in enumerate(draws)],
        "attacker": attacker["faction"],
        "defender": defender["faction"],
        "sides": {"attacker": attacker, "defender": defender},
    }


def _update_morale(board: Board, winner: str, upset: bool) -> None:
    """Decay every standing faction, add the win bonus, cap [§5]."""
    keep, out_of = tables.MORALE_DECAY.numerator, tables.MORALE_DECAY.denominator
    for faction in board["factions"].values():
        if faction["morale"] and faction["standing"]:
            faction["morale"] = faction["morale"] * keep // out_of
    won = board["factions"][winner]
    won["morale"] = min(
        tables.MORALE_CAP_BP,
        won["morale"] + (tables.MORALE_UPSET_BP if upset else tables.MORALE_WIN_BP),
    )


def season_over(world: Read, board: Read, max_battles: int | None) -> bool:
    """The cap is reached, or no rebellion waits and nobody has an enemy on its border [§8]."""
    played = board["next_battle"] - 1
    if max_battles is not None and played >= max_battles:
        return True
    return not waiting_rebellions(board) and not eligible_attackers(world, board)


def play_step(state: Read, ledger: Sequence[Read]) -> tuple[Plain, Plain]:
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
    return {**state, "board": board}, cast(Plain, entry)


def main(arguments: list[str]) -> int:
    """`python3 engine.py verify DIR`, as older archives' guides say: runs `verifier.main`."""
    verifier = importlib.import_module(
        "fairfight.conquest.record.verifier" if __package__ else "verifier"
    )
    result: int = verifier.main(arguments)
    return result


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
