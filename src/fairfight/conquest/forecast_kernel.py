"""Whole seasons in compiled code: the season rules of `engine.py` on flat arrays, for forecasts.

The kernel plays exactly the engine's rules (§3-§8: picks in code order, integration with a
floor per region, integer morale, pools, FAN POWER and FAN CLASH, rebellions, the cap) with
one difference: a side's strength and the battle chance are binary floats, where the engine
uses exact integers and fractions. Fed the engine's own draws it reproduces the engine's
history except where a float lands on the other side of a round-chance boundary
(`bench/bench_forecast.py` counts how often). Factions are numbered by region code order.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from fairfight.conquest.kernel_bits import (
    ONE,
    below,
    clear,
    lowest,
    popcount,
    season_start,
    select,
    set_bit,
    splitmix,
)

__all__ = ["NO_CAP", "TRACE_FIELDS", "run_seasons"]

NO_CAP = -1
"""`max_battles` when the season has no battle cap."""
TRACE_FIELDS = ("attacker", "defender", "winner", "border", "upset")
"""One traced battle: faction numbers, the border index (-1 in a rebellion), the upset flag."""

_ROUND_SCALE = 4294967296.0
_ROUND_FLOOR = 189 * (1 << 32) // 1000
_ROUND_CEILING = (1 << 32) - _ROUND_FLOOR


@numba.njit(cache=True)
def _people(x: int, battle: int, after: Any, captured: Any, population: Any, settled: Any,
            boundary: Any) -> Any:
    """N of faction x: its regions, a captured one at (8 + 3k)/32, floored per region.

    A faction's regions are listed in order of capture (home first), so the fully integrated
    ones form a prefix whose people are kept in `settled`; only the rest is walked.
    """
    region = boundary[x]
    while region >= 0 and captured[region] <= battle - 9:
        settled[x] += population[region]
        region = after[region]
    boundary[x] = region
    total = settled[x]
    while region >= 0:
        total += (population[region] * (8 + 3 * (battle - captured[region] - 1))) >> 5
        region = after[region]
    return total


@numba.njit(cache=True)
def _settle(x: int, first: Any, after: Any, captured: Any, population: Any, settled: Any,
            boundary: Any) -> None:
    """Start x's integrated prefix again: its home region only (walked on by `_people`)."""
    settled[x], boundary[x] = 0, first[x]
    while boundary[x] >= 0 and captured[boundary[x]] < 0:
        settled[x] += population[boundary[x]]
        boundary[x] = after[boundary[x]]


@numba.njit(cache=True)
def _battle(a_strength: float, d_strength: float, a_special: int, d_special: int,
            draws: Any, offset: int) -> tuple[int, float]:
    """Rounds won by the attacker with draws offset+3..offset+7, and its battle chance."""
    wins = 0
    d0, d1, d2, d3, d4, d5 = 1.0, 0.0, 0.0, 0.0, 0.0, 0.0
    for category in range(5):
        a = a_strength * 1.1 if category == a_special else a_strength
        d = d_strength * 1.1 if category == d_special else d_strength
        q = int(np.floor(a / (a + d) * _ROUND_SCALE))
        q = min(_ROUND_CEILING, max(_ROUND_FLOOR, q))
        if int(draws[offset + 3 + category] >> np.uint64(32)) < q:
            wins += 1
        p = q / _ROUND_SCALE
        r = 1.0 - p
        d5 = d5 * r + d4 * p
        d4 = d4 * r + d3 * p
        d3 = d3 * r + d2 * p
        d2 = d2 * r + d1 * p
        d1 = d1 * r + d0 * p
        d0 = d0 * r
    return wins, d3 + d4 + d5


@numba.njit(cache=True)
def _strength(people: int, rating: int, factor: float, morale: int) -> Any:
    power = np.floor(people ** 0.35 * 1e6)
    return power * rating * factor * ((10000 + morale) / 10000.0)


@numba.njit(cache=True)
def _link(near: Any, degree: Any, able: Any, touch: Any, owner: Any, border_a: Any,
          border_b: Any) -> None:
    """From scratch: each holder's set of neighbouring holders (`near`) and their number, the
    set of holders able to attack (those with a neighbour), and the borders each touches."""
    near[:, :] = 0
    able[:] = 0
    touch[:, :] = 0
    for k in range(border_a.shape[0]):
        x, y = owner[border_a[k]], owner[border_b[k]]
        set_bit(touch[x], k)
        set_bit(touch[y], k)
        if x != y:
            set_bit(near[x], y)
            set_bit(near[y], x)
    for x in range(near.shape[0]):
        degree[x] = 0
        for w in range(near.shape[1]):
            degree[x] += popcount(near[x, w])
        if degree[x] > 0:
            set_bit(able, x)


@numba.njit(cache=True)
def _list_regions(owner: Any, captured: Any, population: Any, first: Any, last: Any,
                  after: Any, size: Any, settled: Any, boundary: Any) -> None:
    """Each faction's regions as a linked list in order of capture, home first."""
    factions = owner.shape[0]
    order = np.argsort(captured, kind="mergesort")  # -1 (home) first, then by battle
    size[:] = 0
    first[:] = -1
    last[:] = -1
    for j in range(factions - 1, -1, -1):
        region = order[j]
        x = owner[region]
        size[x] += 1
        after[region] = first[x]
        if first[x] < 0:
            last[x] = region
        first[x] = region
    for x in range(factions):
        _settle(x, first, after, captured, population, settled, boundary)


@numba.njit(cache=True)
def _decay_morale(morale: Any, standing: Any, hot: Any, size: int) -> int:
    """Decay every standing faction's morale [§5]; only the `hot` ones (morale not 0) can
    change. Returns how many stay hot, compacted at the front of `hot`."""
    kept = 0
    for j in range(size):
        x = hot[j]
        if standing[x]:
            morale[x] = morale[x] * 82 // 100
        if morale[x] != 0:
            hot[kept] = x
            kept += 1
    return kept


@numba.njit(cache=True)
def _census(degree: Any, pool: Any, pool_open: Any, standing: Any) -> tuple[int, int]:
    """(factions able to attack, rebellions waiting), counted from scratch."""
    eligible, waiting = 0, 0
    for x in range(degree.shape[0]):
        if degree[x] > 0:
            eligible += 1
        if pool[x] == 50 and pool_open[x] and not standing[x]:
            waiting += 1
    return eligible, waiting


@numba.njit(cache=True)
def _shared_border(attacker: int, defender: int, x: Any, touch: Any, common: Any) -> int:
    """The border drawn by x among those between two sides, in (a, b) order [§3.3].

    `touch[f]` is the set of borders with an end in one of f's regions; a border in both
    sides' sets has one end in each, so their intersection is the list to draw from.
    """
    total = 0
    for w in range(common.shape[0]):
        common[w] = touch[attacker, w] & touch[defender, w]
        total += popcount(common[w])
    return select(common, below(total, x))


@numba.njit(cache=True)
def _absorb(winner: int, loser: int, battle: int, owner: Any, captured: Any, standing: Any,
            morale: Any, first: Any, last: Any, after: Any, size: Any, settled: Any,
            boundary: Any, near: Any, degree: Any, able: Any, touch: Any) -> int:
    """Every region of the loser moves to the winner [§5]; returns the change in the number
    of factions able to attack."""
    region = first[loser]
    while region >= 0:
        owner[region], captured[region] = winner, battle
        region = after[region]
    after[last[winner]] = first[loser]
    if boundary[winner] < 0:
        boundary[winner] = first[loser]
    last[winner] = last[loser]
    first[loser] = last[loser] = boundary[loser] = -1
    size[winner] += size[loser]
    size[loser] = settled[loser] = 0
    standing[loser], morale[loser] = False, 0
    for w in range(near.shape[1]):
        word = near[loser, w]
        while word != 0:
            y = w * 64 + lowest(word)
            word &= word - ONE
            clear(near[y], loser)
            if y == winner:
                continue
            if near[winner, y >> 6] & (ONE << np.uint64(y & 63)):
                degree[y] -= 1
            else:
                set_bit(near[winner], y)
                set_bit(near[y], winner)
                degree[winner] += 1
        near[loser, w] = 0
    degree[winner] -= 1
    degree[loser] = 0
    for w in range(touch.shape[1]):
        touch[winner, w] |= touch[loser, w]
        touch[loser, w] = 0
    clear(able, loser)
    if degree[winner] == 0:
        clear(able, winner)
        return -2
    return -1


@numba.njit(cache=True)
def _play_season(population: Any, rating: Any, special: Any, border_a: Any, border_b: Any,
                 border_sea: Any, owner: Any, captured: Any, standing: Any, morale: Any, pool: Any,
                 pool_open: Any, battle: int, max_battles: int, draws: Any, from_table: bool,
                 state: Any, trace: Any, first: Any, last: Any, after: Any, size: Any,
                 settled: Any, boundary: Any, near: Any, degree: Any, able: Any, hot: Any,
                 touch: Any, common: Any) -> int:
    """Play one season to its end in place; returns the number of the next battle."""
    factions = population.shape[0]
    eligible, waiting = _census(degree, pool, pool_open, standing)
    hot_size = 0
    for x in range(factions):
        if morale[x] != 0:
            hot[hot_size] = x
            hot_size += 1
    played = 0
    while True:
        rebel = -1
        if waiting > 0:
            for x in range(factions):
                if pool[x] == 50 and pool_open[x] and not standing[x]:
                    rebel = x
                    break
        if (max_battles >= 0 and battle - 1 >= max_battles) or (rebel < 0 and eligible == 0):
            return battle
        if from_table:
            offset = 8 * played
        else:
            offset = 0
            for k in range(8):
                draws[k] = splitmix(state)
        if rebel >= 0:
            occupier = owner[rebel]
            counter_r = 1.08 if (special[rebel] + 1) % 5 == special[occupier] else 1.0
            counter_o = 1.08 if (special[occupier] + 1) % 5 == special[rebel] else 1.0
            a_force = _strength(population[rebel], rating[rebel], counter_r, 0)
            d_force = _strength(
                _people(occupier, battle, after, captured, population, settled, boundary),
                rating[occupier], 1.12 * counter_o, morale[occupier])
            d_special = special[occupier] if owner[occupier] == occupier else -1
            wins, chance = _battle(a_force, d_force, special[rebel], d_special, draws, offset)
            rebels_win = wins >= 3
            winner = rebel if rebels_win else occupier
            upset = (chance if rebels_win else 1.0 - chance) < 0.35
            pool_open[rebel] = False
            if rebels_win:
                owner[rebel], captured[rebel] = rebel, -1
                standing[rebel], morale[rebel] = True, 0
                _list_regions(owner, captured, population, first, last, after, size, settled,
                              boundary)
                _link(near, degree, able, touch, owner, border_a, border_b)
            eligible, waiting = _census(degree, pool, pool_open, standing)
            attacker, defender, chosen = rebel, occupier, -1
        else:
            attacker = select(able, below(eligible, draws[offset]))
            defender = select(near[attacker], below(degree[attacker], draws[offset + 1]))
            chosen = _shared_border(attacker, defender, draws[offset + 2], touch, common)
            a_pool = pool[attacker] if pool_open[attacker] else 0
            d_pool = pool[defender] if pool_open[defender] else 0
            a_full, d_full = a_pool == 50, d_pool == 50
            a_fan = (500 + a_pool) / 500.0 if 0 < a_pool < 50 else 1.0
            d_fan = (500 + d_pool) / 500.0 if 0 < d_pool < 50 else 1.0
            counter_a = 1.08 if (special[attacker] + 1) % 5 == special[defender] else 1.0
            counter_d = 1.08 if (special[defender] + 1) % 5 == special[attacker] else 1.0
            sea = 0.8 if border_sea[chosen] else 1.0
            a_force = _strength(
                _people(attacker, battle, after, captured, population, settled, boundary),
                rating[attacker], sea * counter_a * a_fan, morale[attacker])
            d_force = _strength(
                _people(defender, battle, after, captured, population, settled, boundary),
                rating[defender], 1.12 * counter_d * d_fan, morale[defender])
            a_special = special[attacker] if owner[attacker] == attacker else -1
            d_special = special[defender] if owner[defender] == defender else -1
            wins, chance = _battle(a_force, d_force, a_special, d_special, draws, offset)
            if a_full and not d_full:
                winner, upset = attacker, False
            elif d_full and not a_full:
                winner, upset = defender, False
            else:
                winner = attacker if wins >= 3 else defender
                upset = (chance if winner == attacker else 1.0 - chance) < 0.35
            if a_pool > 0:
                pool_open[attacker] = False
            if d_pool > 0:
                pool_open[defender] = False
            loser = defender if winner == attacker else attacker
            eligible += _absorb(winner, loser, battle, owner, captured, standing, morale, first,
                                last, after, size, settled, boundary, near, degree, able, touch)
        hot_size = _decay_morale(morale, standing, hot, hot_size)
        if morale[winner] == 0:
            hot[hot_size] = winner
            hot_size += 1
        morale[winner] = min(1200, morale[winner] + (600 if upset else 200))
        if trace.shape[0] > played:
            trace[played, 0], trace[played, 1], trace[played, 2] = attacker, defender, winner
            trace[played, 3], trace[played, 4] = chosen, 1 if upset else 0
        played += 1
        battle += 1


@numba.njit(cache=True)
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
    """
    factions, words = population.shape[0], (population.shape[0] + 63) // 64
    first0, last0 = np.empty(factions, dtype=np.int64), np.empty(factions, dtype=np.int64)
    after0, size0 = np.empty(factions, dtype=np.int64), np.empty(factions, dtype=np.int64)
    settled0 = np.empty(factions, dtype=np.int64)
    boundary0 = np.empty(factions, dtype=np.int64)
    near0 = np.zeros((factions, words), dtype=np.uint64)
    degree0 = np.zeros(factions, dtype=np.int64)
    able0 = np.zeros(words, dtype=np.uint64)
    touch0 = np.zeros((factions, (border_a.shape[0] + 63) // 64), dtype=np.uint64)
    _list_regions(owner0, captured0, population, first0, last0, after0, size0, settled0,
                  boundary0)
    _link(near0, degree0, able0, touch0, owner0, border_a, border_b)
    owner, captured = owner0.copy(), captured0.copy()
    standing, morale, pool, pool_open = (standing0.copy(), morale0.copy(), pool0.copy(),
                                         pool_open0.copy())
    first, last, after = first0.copy(), last0.copy(), after0.copy()
    size, settled, boundary = size0.copy(), settled0.copy(), boundary0.copy()
    near, degree, able, touch = near0.copy(), degree0.copy(), able0.copy(), touch0.copy()
    hot = np.empty(factions, dtype=np.int64)
    common = np.empty(touch0.shape[1], dtype=np.uint64)
    no_trace = np.zeros((0, 5), dtype=np.int64)
    draws = np.empty(8, dtype=np.uint64)
    state = np.empty(1, dtype=np.uint64)
    from_table = table.shape[0] > 0
    for i in range(seasons):
        owner[:], captured[:], standing[:] = owner0, captured0, standing0
        morale[:], pool[:], pool_open[:] = morale0, pool0, pool_open0
        first[:], last[:], after[:] = first0, last0, after0
        size[:], settled[:], boundary[:] = size0, settled0, boundary0
        near[:, :], degree[:], able[:], touch[:, :] = near0, degree0, able0, touch0
        state[0] = season_start(key, first_season + i)
        row = table[i] if from_table else draws
        rows = trace[i] if trace.shape[0] > 0 else no_trace
        end = _play_season(population, rating, special, border_a, border_b, border_sea,
                           owner, captured, standing, morale, pool,
                           pool_open, battle0, max_battles, row, from_table, state, rows,
                           first, last, after, size, settled, boundary, near, degree, able,
                           hot, touch, common)
        lengths[i] = end - battle0
        best, best_regions, best_power = -1, -1, -1.0
        for x in range(factions):
            regions = size[x]
            held[x] += regions
            if standing[x]:
                survived[x] += 1
                if regions >= best_regions:
                    power = np.floor(_people(x, end, after, captured, population, settled,
                                             boundary) ** 0.35 * 1e6)
                    if regions > best_regions or power > best_power:
                        best, best_regions, best_power = x, regions, power
        titles[best] += 1
