"""Whole seasons in compiled code: the season rules of `engine.py` on flat arrays, for forecasts.

The kernel plays exactly the engine's rules (§3-§8: picks in code order, integration with a
floor per region, integer morale, pools, FAN POWER and FAN CLASH, rebellions, the cap) with
one difference: a side's strength and the battle chance are binary floats, where the engine
uses exact integers and fractions. Fed the engine's own draws it reproduces the engine's
history except where a float lands on the other side of a round-chance boundary
(`bench/bench_forecast.py` counts how often). Factions are numbered by region code order.

Its bookkeeping is per faction, not per region (docs/scale-out.md says why): a conquest moves
the loser's summed people and floored shares into a ring slot for that battle, and regions are
relabelled from the absorption chains only when a rebellion needs them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt

from fairfight.conquest.forecast.kernel_bits import (
    ONE,
    ZERO,
    below,
    clear,
    copy_into,
    count,
    has_bit,
    lowest,
    popcount,
    season_start,
    select,
    set_bit,
    splitmix_next,
    splitmix_output,
    swap_bit,
)
from fairfight.conquest.forecast.kernel_power import population_power
from fairfight.conquest.rules import tables

__all__ = ["NO_CAP", "TRACE_FIELDS", "run_seasons"]

NO_CAP = -1
"""`max_battles` when the season has no battle cap."""
TRACE_FIELDS = ("attacker", "defender", "winner", "border", "upset")
"""One traced battle: faction numbers, the border index (-1 in a rebellion), the upset flag."""

_F = TypeVar("_F", bound=Callable[..., Any])


def _compiled_without_refcounts(function: _F) -> _F:
    """numba.njit (cached) with no reference counting: the season loop passes dozens of
    arrays that its caller keeps alive, and counting each use was a quarter of its time.
    Such a function cannot allocate arrays (`run_seasons` allocates everything). Numpy's
    error model drops the zero test before each division: no divisor here can be 0 (a side's
    strength is positive), and the results are the same floats."""
    options: dict[str, Any] = {"cache": True, "_nrt": False, "error_model": "numpy"}
    return cast(_F, numba.njit(**options)(function))


# Every rule number the kernel uses, read from tables.py once, as the plain ints and floats
# compiled code takes (a float of a Fraction is the double nearest to it, as a literal is).
_ROUND_SCALE = float(tables.ROUND_SCALE)
_ROUND_BITS = np.uint64(tables.ROUND_BITS)
_ROUND_FLOOR, _ROUND_CEILING = tables.ROUND_FLOOR, tables.ROUND_CEILING
_ROUNDS = len(tables.CATEGORIES)
_ROUNDS_TO_WIN = tables.ROUNDS_TO_WIN
_UPSET_BELOW = float(tables.UPSET_BELOW)
_DRAWS = tables.DRAWS_PER_BATTLE
_ATTACKER_DRAW, _DEFENDER_DRAW, _BORDER_DRAW = (
    tables.DRAW_ROLES.index(role) for role in ("attacker", "defender", "border")
)
_FIRST_ROUND_DRAW = tables.DRAW_ROLES.index(f"round {tables.CATEGORIES[0]}")
_SPECIAL = float(tables.SPECIAL_BONUS)
_HOME = float(tables.HOME_BONUS)
_SEA = float(tables.SEA_FACTOR)
_COUNTER = float(tables.COUNTER_BONUS)
_KINDS = len(tables.COUNTER_CIRCLE)
_BASIS_POINTS = tables.BASIS_POINTS
_BASIS = float(tables.BASIS_POINTS)
_DECAY_TOP, _DECAY_BOTTOM = tables.MORALE_DECAY.numerator, tables.MORALE_DECAY.denominator
_MORALE_WIN, _MORALE_UPSET = tables.MORALE_WIN_BP, tables.MORALE_UPSET_BP
_MORALE_CAP = tables.MORALE_CAP_BP
_POOL_CAP = tables.POOL_CAP
_FAN_SPAN = tables.POOL_CAP / tables.FAN_BOOST_AT_CAP
"""A partial pool a gives (span + a) / span: 1 + 0.10 a / 50 with span = 50 / 0.10 = 500."""
_START, _STEP = tables.INTEGRATION_START, tables.INTEGRATION_STEP
_SHARES = tables.INTEGRATION_DENOMINATOR
_SETTLED_AFTER = -(-(_SHARES - _START) // _STEP) + 1
"""A region captured in battle c counts in full from battle c + 9 on (8 + 3k reaches 32)."""
_PARTIALS = _SETTLED_AFTER - 1
"""Battles a capture counts in part: k = 0 .. 7 battles after the one that took it."""
_PARTIAL_SHARES = np.asarray([min(_SHARES, _START + _STEP * k) for k in range(_PARTIALS)],
                             dtype=np.int64)
_RING = 1 << _SETTLED_AFTER.bit_length()
"""Slots of the capture ring, indexed by battle number modulo a power of two above 9."""
_RING_MASK = _RING - 1
_SHARED_BORDERS, _SEA_BORDERS = 0, 1
"""Rows of the border scratch bitsets: the borders two sides share, and the sea borders."""
_FAN_SPAN_INT = int(_FAN_SPAN)
_FAN_SPAN_FLOAT = float(_FAN_SPAN)
if _FAN_SPAN != _FAN_SPAN_INT:
    raise ValueError("the fan factor's span must be a whole number for the kernel")
if [tables.COUNTERS[kind] for kind in tables.COUNTER_CIRCLE] != [
    *tables.COUNTER_CIRCLE[1:], tables.COUNTER_CIRCLE[0]
] or list(tables.CATEGORY_TYPES.values()) != list(tables.COUNTER_CIRCLE):
    raise ValueError("the kernel counts a type's counter as the next special round the circle")
if (_ROUNDS, _ROUNDS_TO_WIN) != (5, 3):
    raise ValueError("the kernel's battle chance is written for three wins of five rounds")
_FIRST, _SECOND, _THIRD, _FOURTH, _FIFTH = range(_ROUNDS)
"""The categories in round order, as the battle writes its rounds out."""


@numba.njit(cache=True, inline="always")
def _people(x: int, battle: int, settled: Any, live: Any, ring_owner: Any,
            ring_part: Any) -> Any:
    """N of faction x before `battle`: its fully integrated people, plus each of its captures
    of the last 8 battles at (8 + 3k)/32, floored per region (summed when it was taken).
    `live[x]` is the set of ring slots x holds, so only those are read."""
    total = settled[x]
    slots = live[x]
    while slots != 0:
        slot = lowest(slots)
        slots &= slots - ONE
        total += ring_part[slot, (battle - 1 - slot) & _RING_MASK]
    return total


@numba.njit(cache=True, inline="always")
def _fold(battle: int, settled: Any, live: Any, ring_owner: Any, ring_full: Any) -> None:
    """From `battle` on, the capture of battle - 9 counts in full: into its owner's total."""
    slot = (battle - _SETTLED_AFTER) & _RING_MASK
    holder = ring_owner[slot]
    if holder >= 0:
        settled[holder] += ring_full[slot]
        live[holder] &= ~(ONE << np.uint64(slot))
        ring_owner[slot] = -1


def _decay_table() -> npt.NDArray[np.unsignedinteger[Any]]:
    """Row m, column k: morale m after k decays [§5], until every value has reached 0. One
    value's row is a cache line or two, so the values factions hold stay cached."""
    columns = [np.arange(_MORALE_CAP + 1, dtype=np.int64)]
    while columns[-1].any():
        columns.append(columns[-1] * _DECAY_TOP // _DECAY_BOTTOM)
    return np.ascontiguousarray(np.asarray(columns, dtype=np.min_scalar_type(_MORALE_CAP)).T)


_DECAYED = _decay_table()
_DECAY_STEPS = _DECAYED.shape[1] - 1
"""After this many decays any morale up to the cap is 0 (the last column)."""
_MORALE_FACTOR = (_BASIS_POINTS + np.arange(_MORALE_CAP + 1, dtype=np.int64)) / _BASIS
"""Entry m: (10000 + m) / 10000, the strength factor of morale m, divided once here."""


@numba.njit(cache=True, inline="always")
def _decayed(value: int, battles: int) -> Any:
    """Morale (0 to the cap) after `battles` decays [§5]."""
    return np.int64(_DECAYED[value, min(battles, _DECAY_STEPS)])


@numba.njit(cache=True, inline="always")
def _round_chance(a: float, d: float) -> Any:
    """Q of a round between two strengths: a/(a+d) in 2^-32 steps, clamped [§1.2]."""
    q = np.int64(np.floor(a / (a + d) * _ROUND_SCALE))
    return min(_ROUND_CEILING, max(_ROUND_FLOOR, q))


@numba.njit(cache=True, inline="always")
def _round(category: int, plain: int, a_special_chance: int, d_special_chance: int,
           a_special: int, d_special: int, draws: Any, offset: int) -> tuple[Any, float]:
    """Whether the attacker wins round `category` (1 or 0), and its chance as a float. The
    three chances a round can have are computed once by the caller; picking one is a pair of
    selects, not branches on the specials (which a branch predictor cannot learn)."""
    q = a_special_chance if category == a_special else (
        d_special_chance if category == d_special else plain)
    won = np.int64(np.int64(draws[offset + _FIRST_ROUND_DRAW + category] >> _ROUND_BITS) < q)
    return won, q / _ROUND_SCALE


@numba.njit(cache=True, inline="always")
def _battle(a_strength: float, d_strength: float, a_special: int, d_special: int,
            draws: Any, offset: int) -> tuple[int, float]:
    """Rounds won by the attacker with the battle's round draws, and its battle chance.

    A round's chance is the plain one, the attacker's special one (the defender's strength
    raised too when the two specials are one category) or the defender's special one; all
    three are computed, as the same floats a round computing only its own would get.
    The chance is the Poisson-binomial sum d3 + d4 + d5 of the attacker's wins distribution,
    updated round by round as d[k] = d[k] r + d[k-1] p. Written out, each round updates only
    the slots it can reach and that a later round reads: a slot not reached yet holds 0,
    and 0 r + x p is the float x p, so these are the floats of the update of all six slots
    (which the compiler keeps, as it may not drop a product with 0 from float code).
    """
    a_raised, d_raised = a_strength * _SPECIAL, d_strength * _SPECIAL
    plain = _round_chance(a_strength, d_strength)
    a_special_chance = _round_chance(a_raised,
                                     d_raised if d_special == a_special else d_strength)
    d_special_chance = _round_chance(a_strength, d_raised)
    w0, p0 = _round(_FIRST, plain, a_special_chance, d_special_chance, a_special, d_special,
                   draws, offset)
    w1, p1 = _round(_SECOND, plain, a_special_chance, d_special_chance, a_special, d_special,
                   draws, offset)
    w2, p2 = _round(_THIRD, plain, a_special_chance, d_special_chance, a_special, d_special,
                   draws, offset)
    w3, p3 = _round(_FOURTH, plain, a_special_chance, d_special_chance, a_special, d_special,
                   draws, offset)
    w4, p4 = _round(_FIFTH, plain, a_special_chance, d_special_chance, a_special, d_special,
                   draws, offset)
    r1, r2, r3, r4 = 1.0 - p1, 1.0 - p2, 1.0 - p3, 1.0 - p4
    d0, d1 = 1.0 - p0, p0
    d0, d1, d2 = d0 * r1, d1 * r1 + d0 * p1, d1 * p1
    d1, d2, d3 = d1 * r2 + d0 * p2, d2 * r2 + d1 * p2, d2 * p2
    d2, d3, d4 = d2 * r3 + d1 * p3, d3 * r3 + d2 * p3, d3 * p3
    d3, d4, d5 = d3 * r4 + d2 * p4, d4 * r4 + d3 * p4, d4 * p4
    return w0 + w1 + w2 + w3 + w4, d3 + d4 + d5


@numba.njit(cache=True)
def _link(near: Any, able: Any, touch: Any, owner: Any, border_a: Any, border_b: Any) -> None:
    """From scratch: each holder's set of neighbouring holders (`near`), the set of holders
    able to attack (those with a neighbour), and the borders each touches."""
    near[:, :] = 0
    able[:, :] = 0
    touch[:, :] = 0
    for k in range(border_a.shape[0]):
        x, y = owner[border_a[k]], owner[border_b[k]]
        set_bit(touch, x, k)
        set_bit(touch, y, k)
        if x != y:
            set_bit(near, x, y)
            set_bit(near, y, x)
    for x in range(near.shape[0]):
        if count(near, x) > 0:
            set_bit(able, 0, x)


@_compiled_without_refcounts
def _settle_owners(owner: Any, captured: Any, parent: Any, absorbed_at: Any) -> None:
    """Write each region's holder and capture battle out of the absorption chains (a faction
    absorbed in battle c points to its absorber, `parent`), which then start again."""
    for region in range(owner.shape[0]):
        x, moved = owner[region], -1
        while parent[x] >= 0:
            moved = absorbed_at[x]
            x = parent[x]
        owner[region] = x
        if moved >= 0:
            captured[region] = moved
    parent[:] = -1


@_compiled_without_refcounts
def _holdings(battle: int, owner: Any, captured: Any, population: Any, share_part: Any,
              size: Any, held_people: Any, held_shares: Any, home_held: Any, settled: Any,
              live: Any, ring_owner: Any, ring_full: Any, ring_part: Any) -> None:
    """From scratch, before `battle`: each faction's regions counted, their people and
    floored partial shares summed, its fully integrated people, and the ring of the last 8
    battles' captures (one holder each: a battle moves regions to its winner only)."""
    size[:], held_people[:], held_shares[:, :], settled[:], live[:] = 0, 0, 0, 0, 0
    ring_owner[:], ring_full[:], ring_part[:, :] = -1, 0, 0
    for region in range(owner.shape[0]):
        x, taken = owner[region], captured[region]
        home_held[region] = x == region
        size[x] += 1
        held_people[x] += population[region]
        for k in range(_PARTIALS):
            held_shares[x, k] += share_part[region, k]
        if taken < 0 or taken <= battle - _SETTLED_AFTER:
            settled[x] += population[region]
            continue
        slot = taken & _RING_MASK
        if ring_owner[slot] < 0:
            ring_owner[slot] = x
            live[x] |= ONE << np.uint64(slot)
        elif ring_owner[slot] != x:
            raise ValueError("two factions took regions in the same battle")
        ring_full[slot] += population[region]
        for k in range(_PARTIALS):
            ring_part[slot, k] += share_part[region, k]


@numba.njit(cache=True)
def _census(able: Any, pool: Any, pool_open: Any, standing: Any) -> tuple[int, int]:
    """(factions able to attack, rebellions waiting), counted from scratch."""
    eligible, waiting = count(able, 0), 0
    for x in range(pool.shape[0]):
        if pool[x] == _POOL_CAP and pool_open[x] and not standing[x]:
            waiting += 1
    return eligible, waiting


@numba.njit(cache=True, inline="always")
def _shared_border(attacker: int, defender: int, x: Any, touch: Any, common: Any,
                   tracing: bool) -> tuple[int, bool]:
    """The border drawn by x among those between two sides, in (a, b) order [§3.3], and
    whether it is a sea border; -1 for the border when only its kind was needed.

    `touch[f]` is the set of borders with an end in one of f's regions; a border in both
    sides' sets has one end in each, so their intersection is the list to draw from. Row 1
    of `common` is the set of sea borders: when the shared ones are all of one kind and no
    trace is kept, the kind is known without finding the border, and a first pass asks only
    that, with plain and/or (no count, no store): most pairs of sides share one kind only.
    """
    if not tracing:
        by_sea, by_land = ZERO, ZERO
        for w in range(common.shape[1]):
            shared = touch[attacker, w] & touch[defender, w]
            by_sea |= shared & common[_SEA_BORDERS, w]
            by_land |= shared & ~common[_SEA_BORDERS, w]
        if by_sea == ZERO or by_land == ZERO:
            return -1, by_sea != ZERO
    total, sea_total = 0, 0
    for w in range(common.shape[1]):
        shared = touch[attacker, w] & touch[defender, w]
        common[_SHARED_BORDERS, w] = shared
        total += popcount(shared)
        sea_total += popcount(shared & common[_SEA_BORDERS, w])
    chosen = select(common, _SHARED_BORDERS, below(total, x))
    return chosen, has_bit(common, _SEA_BORDERS, chosen)


@numba.njit(cache=True, inline="always")
def _absorb(winner: int, loser: int, battle: int, parent: Any, absorbed_at: Any,
            standing: Any, morale: Any, size: Any, held_people: Any, held_shares: Any,
            settled: Any, live: Any, ring_owner: Any, ring_full: Any, ring_part: Any,
            near: Any, able: Any, touch: Any) -> int:
    """Every region of the loser moves to the winner [§5], as this battle's capture: the
    loser's sums become the ring slot of this battle, and the loser points to the winner
    (regions are relabelled only when a rebellion needs them). The loser's own rows of
    `near` and `touch` are left as they were: only standing factions' rows are read, and a
    rebellion that restores a faction builds them again. Returns the change in the number of
    factions able to attack.

    The winner's neighbours become its own and the loser's, word by word; the loser's trade
    its bit for the winner's (set whether or not it was there). No count of them is kept."""
    slots = live[loser]
    while slots != 0:
        ring_owner[lowest(slots)] = -1
        slots &= slots - ONE
    slot = battle & _RING_MASK
    ring_owner[slot], ring_full[slot] = winner, held_people[loser]
    held_people[winner] += held_people[loser]
    for k in range(_PARTIALS):
        ring_part[slot, k] = held_shares[loser, k]
        held_shares[winner, k] += held_shares[loser, k]
    live[winner] |= ONE << np.uint64(slot)
    parent[loser], absorbed_at[loser] = winner, battle
    size[winner] += size[loser]
    size[loser] = settled[loser] = 0
    live[loser] = 0
    standing[loser], morale[loser] = False, 0
    for w in range(near.shape[1]):
        near[winner, w] |= near[loser, w]
    for w in range(near.shape[1]):
        word = near[loser, w]
        while word != 0:
            y = w * 64 + lowest(word)
            word &= word - ONE
            swap_bit(near, y, loser, winner)
    clear(near, winner, winner)
    clear(near, winner, loser)
    for w in range(touch.shape[1]):
        touch[winner, w] |= touch[loser, w]
    clear(able, 0, loser)
    if count(near, winner) == 0:
        clear(able, 0, winner)
        return -2
    return -1


@numba.njit(cache=True, inline="always")
def _strength(power: float, rating: int, factor: float, morale: int) -> Any:
    return power * rating * factor * _MORALE_FACTOR[morale]


@_compiled_without_refcounts
def _play_season(population: Any, rating: Any, special: Any, countered: Any, border_a: Any,
                 border_b: Any, share_part: Any, owner: Any, captured: Any, parent: Any,
                 absorbed_at: Any, standing: Any, morale: Any, stamp: Any, pool: Any,
                 pool_open: Any, size: Any, held_people: Any, held_shares: Any,
                 home_held: Any, settled: Any, live: Any, ring_owner: Any,
                 ring_full: Any, ring_part: Any, near: Any, able: Any,
                 touch: Any, battle: int, max_battles: int, draws: Any, from_table: bool,
                 state: Any, trace: Any, common: Any, eligible: int,
                 waiting: int) -> int:
    """Play one season to its end in place; returns the number of the next battle.
    `eligible` and `waiting` are the starting board's factions able to attack and
    rebellions waiting (counted once for all the seasons of a chunk).

    Morale is kept as the value a faction had after battle `stamp[x]`, decayed when read;
    `owner` and `captured` hold for each region as of the last rebellion (or the start),
    the absorption chains in `parent` say where it is now.
    """
    factions = population.shape[0]
    tracing = trace.shape[0] > 0
    played = 0
    position = state[0]
    while True:
        _fold(battle, settled, live, ring_owner, ring_full)
        rebel = -1
        if waiting > 0:
            for x in range(factions):
                if pool[x] == _POOL_CAP and pool_open[x] and not standing[x]:
                    rebel = x
                    break
        if (max_battles >= 0 and battle - 1 >= max_battles) or (rebel < 0 and eligible == 0):
            return battle
        if from_table:
            offset = _DRAWS * played
        else:  # the generator's state in a local: a store to `draws` cannot alias it
            offset = 0
            for k in range(_DRAWS):
                position = splitmix_next(position)
                draws[k] = splitmix_output(position)
        if rebel >= 0:
            _settle_owners(owner, captured, parent, absorbed_at)
            occupier = owner[rebel]
            counter_r = _COUNTER if countered[rebel] == special[occupier] else 1.0
            counter_o = _COUNTER if countered[occupier] == special[rebel] else 1.0
            a_morale = 0
            d_morale = _decayed(morale[occupier], battle - 1 - stamp[occupier])
            a_force = _strength(population_power(population[rebel]),
                                rating[rebel], counter_r, a_morale)
            d_people = _people(occupier, battle, settled, live, ring_owner, ring_part)
            d_force = _strength(population_power(d_people),
                                rating[occupier], _HOME * counter_o, d_morale)
            d_special = special[occupier] if home_held[occupier] else -1
            wins, chance = _battle(a_force, d_force, special[rebel], d_special, draws, offset)
            rebels_win = wins >= _ROUNDS_TO_WIN
            winner = rebel if rebels_win else occupier
            upset = (chance if rebels_win else 1.0 - chance) < _UPSET_BELOW
            pool_open[rebel] = False
            if rebels_win:
                owner[rebel], captured[rebel] = rebel, -1
                standing[rebel], morale[rebel] = True, 0
                _holdings(battle, owner, captured, population, share_part, size, held_people,
                          held_shares, home_held, settled, live, ring_owner, ring_full,
                          ring_part)
                _link(near, able, touch, owner, border_a, border_b)
            eligible, waiting = _census(able, pool, pool_open, standing)
            attacker, defender, chosen = rebel, occupier, -1
        else:
            attacker = select(able, 0, below(eligible, draws[offset + _ATTACKER_DRAW]))
            defender = select(near, attacker,
                              below(count(near, attacker), draws[offset + _DEFENDER_DRAW]))
            chosen, by_sea = _shared_border(attacker, defender, draws[offset + _BORDER_DRAW],
                                            touch, common, tracing)
            a_pool = pool[attacker] if pool_open[attacker] else 0
            d_pool = pool[defender] if pool_open[defender] else 0
            a_full, d_full = a_pool == _POOL_CAP, d_pool == _POOL_CAP
            a_fan = (_FAN_SPAN_INT + a_pool) / _FAN_SPAN_FLOAT if 0 < a_pool < _POOL_CAP else 1.0
            d_fan = (_FAN_SPAN_INT + d_pool) / _FAN_SPAN_FLOAT if 0 < d_pool < _POOL_CAP else 1.0
            counter_a = _COUNTER if countered[attacker] == special[defender] else 1.0
            counter_d = _COUNTER if countered[defender] == special[attacker] else 1.0
            sea = _SEA if by_sea else 1.0
            a_people = _people(attacker, battle, settled, live, ring_owner, ring_part)
            d_people = _people(defender, battle, settled, live, ring_owner, ring_part)
            a_morale = _decayed(morale[attacker], battle - 1 - stamp[attacker])
            d_morale = _decayed(morale[defender], battle - 1 - stamp[defender])
            a_force = _strength(population_power(a_people),
                                rating[attacker], sea * counter_a * a_fan, a_morale)
            d_force = _strength(population_power(d_people),
                                rating[defender], _HOME * counter_d * d_fan, d_morale)
            a_special = special[attacker] if home_held[attacker] else -1
            d_special = special[defender] if home_held[defender] else -1
            wins, chance = _battle(a_force, d_force, a_special, d_special, draws, offset)
            if a_full and not d_full:
                winner, upset = attacker, False
            elif d_full and not a_full:
                winner, upset = defender, False
            else:
                winner = attacker if wins >= _ROUNDS_TO_WIN else defender
                upset = (chance if winner == attacker else 1.0 - chance) < _UPSET_BELOW
            if a_pool > 0:
                pool_open[attacker] = False
            if d_pool > 0:
                pool_open[defender] = False
            loser = defender if winner == attacker else attacker
            eligible += _absorb(winner, loser, battle, parent, absorbed_at, standing, morale,
                                size, held_people, held_shares, settled, live, ring_owner,
                                ring_full, ring_part, near, able, touch)
        # The morale the battle read, decayed once more (no second look-up in the table).
        kept = (a_morale if winner == attacker else d_morale) * _DECAY_TOP // _DECAY_BOTTOM
        morale[winner] = min(_MORALE_CAP, kept + (_MORALE_UPSET if upset else _MORALE_WIN))
        stamp[winner] = battle
        if trace.shape[0] > played:
            trace[played, 0], trace[played, 1], trace[played, 2] = attacker, defender, winner
            trace[played, 3], trace[played, 4] = chosen, 1 if upset else 0
        played += 1
        battle += 1


@numba.njit(cache=True, nogil=True)  # a forecast on a service thread leaves the loop alone
def run_seasons(population: Any, rating: Any, special: Any, border_a: Any, border_b: Any,
                border_sea: Any, owner0: Any,
                captured0: Any, standing0: Any, morale0: Any, pool0: Any, pool_open0: Any,
                battle0: int, max_battles: int, key: Any, first_season: int, seasons: int,
                table: Any, trace: Any, titles: Any, held: Any, survived: Any,
                lengths: Any) -> None:
    """Play `seasons` seasons from one state, adding their outcomes to the totals.

    With an empty `table` season s draws from splitmix64 started at `splitmix_state(key, s)`;
    otherwise row i of `table` holds season i's draws (8 per battle), and `trace[i]` receives
    its battles (see `TRACE_FIELDS`). `titles` counts seasons won (most regions, then most
    population power, then lowest code), `held` sums regions held at the end, `survived`
    counts seasons ending with the faction standing, `lengths[i]` is season i's battle count.
    Everything a season changes is allocated here once and copied back from the starting
    state before each season.
    """
    factions, words = population.shape[0], (population.shape[0] + 63) // 64
    countered = (special + 1) % _KINDS
    """The special each faction's type counters: the next one round the circle."""
    share_part = np.empty((factions, _PARTIALS), dtype=np.int64)
    for region in range(factions):
        for k in range(_PARTIALS):
            share_part[region, k] = population[region] * _PARTIAL_SHARES[k] // _SHARES
    if morale0.min() < 0 or morale0.max() > _MORALE_CAP:
        raise ValueError("morale: must be 0 to the cap")
    size0, held_people0 = np.empty(factions, dtype=np.int64), np.empty(factions, dtype=np.int64)
    held_shares0 = np.empty((factions, _PARTIALS), dtype=np.int64)
    home_held0 = np.empty(factions, dtype=np.bool_)
    settled0, live0 = np.empty(factions, dtype=np.int64), np.empty(factions, dtype=np.uint64)
    ring_owner0, ring_full0 = np.empty(_RING, dtype=np.int64), np.empty(_RING, dtype=np.int64)
    ring_part0 = np.empty((_RING, _PARTIALS), dtype=np.int64)
    stamp0 = np.full(factions, battle0 - 1, dtype=np.int64)
    near0 = np.zeros((factions, words), dtype=np.uint64)
    able0 = np.zeros((1, words), dtype=np.uint64)
    touch0 = np.zeros((factions, (border_a.shape[0] + 63) // 64), dtype=np.uint64)
    _holdings(battle0, owner0, captured0, population, share_part, size0, held_people0,
              held_shares0, home_held0, settled0, live0, ring_owner0, ring_full0, ring_part0)
    _link(near0, able0, touch0, owner0, border_a, border_b)
    eligible0, waiting0 = _census(able0, pool0, pool_open0, standing0)
    owner, captured = owner0.copy(), captured0.copy()
    standing, morale, stamp = standing0.copy(), morale0.copy(), stamp0.copy()
    pool, pool_open = pool0.copy(), pool_open0.copy()
    parent, absorbed_at = np.full(factions, -1, dtype=np.int64), np.zeros(factions, np.int64)
    size, held_people, held_shares = size0.copy(), held_people0.copy(), held_shares0.copy()
    home_held = home_held0.copy()
    settled, live = settled0.copy(), live0.copy()
    ring_owner, ring_full, ring_part = ring_owner0.copy(), ring_full0.copy(), ring_part0.copy()
    near, able, touch = near0.copy(), able0.copy(), touch0.copy()
    common = np.zeros((_SEA_BORDERS + 1, touch0.shape[1]), dtype=np.uint64)
    for k in range(border_sea.shape[0]):
        if border_sea[k]:
            set_bit(common, _SEA_BORDERS, k)
    no_trace = np.zeros((0, len(TRACE_FIELDS)), dtype=np.int64)
    draws = np.empty(_DRAWS, dtype=np.uint64)
    state = np.empty(1, dtype=np.uint64)
    from_table = table.shape[0] > 0
    for i in range(seasons):
        copy_into(owner, owner0)
        copy_into(captured, captured0)
        copy_into(standing, standing0)
        copy_into(morale, morale0)
        copy_into(stamp, stamp0)
        copy_into(pool, pool0)
        copy_into(pool_open, pool_open0)
        copy_into(size, size0)
        copy_into(held_people, held_people0)
        copy_into(held_shares, held_shares0)
        copy_into(home_held, home_held0)
        copy_into(settled, settled0)
        copy_into(live, live0)
        copy_into(ring_owner, ring_owner0)
        copy_into(ring_full, ring_full0)
        copy_into(ring_part, ring_part0)
        copy_into(near, near0)
        copy_into(able, able0)
        copy_into(touch, touch0)
        parent[:] = -1
        state[0] = season_start(key, first_season + i)
        row = table[i] if from_table else draws
        rows = trace[i] if trace.shape[0] > 0 else no_trace
        end = _play_season(population, rating, special, countered, border_a, border_b,
                           share_part, owner, captured, parent, absorbed_at, standing, morale,
                           stamp, pool, pool_open, size, held_people, held_shares, home_held,
                           settled, live, ring_owner, ring_full, ring_part, near,
                           able, touch, battle0,
                           max_battles, row, from_table, state, rows, common,
                           eligible0, waiting0)
        lengths[i] = end - battle0
        best, best_regions, best_power = -1, -1, -1.0
        for x in range(factions):
            regions = size[x]
            held[x] += regions
            if standing[x]:
                survived[x] += 1
                if regions >= best_regions:
                    people = _people(x, end, settled, live, ring_owner, ring_part)
                    power = population_power(people)
                    if regions > best_regions or power > best_power:
                        best, best_regions, best_power = x, regions, power
        titles[best] += 1
