"""The presidential chance counted exactly: shared national dice, state dice, electoral votes [5.8].

In every state each side rolls its party's national die, its state die and a candidate die of
its own. The national dice are shared by all fifty contests, so the contests are not
independent; once the national difference N_D - N_R is fixed they are, and each state is a
2d6 + edge against 2d6 contest (state and candidate die; ties are a fair recount). So the chance
is, over the 36 national outcomes, the chance that the states D carries bring at least the
majority of electoral votes, each found by convolving the states' win chances over their
votes. Every step is a count of dice outcomes: the answer is a Fraction.

The convolution runs on whole numbers: each state's chance is a numerator over one common
denominator, and the electoral-vote polynomial is packed into one big integer (one fixed-width
field per vote count), so a state costs a few big-integer operations instead of hundreds of
Fraction ones. Only the live counts are kept: a total that has reached the majority is won
whatever follows, and a total that cannot reach it even if D carries every state still to
come is lost, so its count leaves the polynomial at once; states are taken smallest first,
which keeps the polynomial short longest.

Every count here reads public things only (a card face's part and tags, the map's baselines
and votes, the board generic), never a hand or the deck, so one process shares its counts
across every table and seat: a count is kept under the shifted state edges it was made from,
which any seat could compute for itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache

from fairfight.ballot.deck import Card
from fairfight.ballot.elections import board_part
from fairfight.ballot.geo import game_map, state_tag_sets
from fairfight.ballot.racebook import presidential_part
from fairfight.ballot.state import Holding
from fairfight.ballot.tables import DIE_SIDES, GENERAL_CANDIDATE_DICE, Party
from fairfight.core.exact import compare, dice_sum

__all__ = [
    "PresidentialSide",
    "STATE_CONTEST_DICE",
    "board_side",
    "card_side",
    "clear_cache",
    "electoral_chance",
    "national_differences",
    "presidential_chance",
    "race_with_honeymoon",
    "state_edges",
]

STATE_CONTEST_DICE = GENERAL_CANDIDATE_DICE - 1
"""Dice of one side in a state contest once the shared national die is set apart: the state
die and the candidate die [5.1, 5.8]."""


@dataclass(frozen=True, slots=True)
class PresidentialSide:
    """One side of the presidential general: its card part before fit, and the tags that fit."""

    part: int
    """m minus the switch for a card; the board generic's part for the board [5.6, 5.8]."""
    tags: frozenset[str] = frozenset()
    """The card's tags, each worth +1 in a state carrying it (a board generic has none)."""


def card_side(card: Card, party: Party) -> PresidentialSide:
    """A candidate card running for president under `party` [5.8]."""
    return PresidentialSide(presidential_part(card, party), card.tags)


def board_side(holding: Holding, party: Party) -> PresidentialSide:
    """The board generic filling an empty side (no incumbency in the presidency) [5.6]."""
    return PresidentialSide(board_part(holding, party, True))


def state_edges(d: PresidentialSide, r: PresidentialSide) -> tuple[tuple[int, int], ...]:
    """(D's edge before the national dice, electoral votes) in every state, in map order: the
    card parts, each side's fit in the state, and D's baseline [5.8]."""
    rows = []
    for home, tags in zip(game_map().states, state_tag_sets(), strict=True):
        edge = d.part + len(d.tags & tags) + home.baseline - r.part - len(r.tags & tags)
        rows.append((edge, home.electoral_votes))
    return tuple(rows)


def presidential_chance(d: PresidentialSide, r: PresidentialSide) -> Fraction:
    """The exact chance that D's side wins the presidency against R's on the real map."""
    return electoral_chance(state_edges(d, r), game_map().electoral_majority())


@cache
def national_differences(sides: int = DIE_SIDES) -> tuple[tuple[int, Fraction], ...]:
    """The distribution of N_D - N_R, one national die per party [5.1]."""
    one = dice_sum(1, sides)
    found: dict[int, Fraction] = {}
    for d, pd in one.items():
        for r, pr in one.items():
            found[d - r] = found.get(d - r, Fraction(0)) + pd * pr
    return tuple(sorted(found.items()))


@cache
def _state_numerator(edge: int, sides: int) -> int:
    """D's chance in one state at this edge (national dice set), over `_denominator(sides)`."""
    dist = dice_sum(STATE_CONTEST_DICE, sides)
    chance = compare(dist, dist, edge).ties_as_half() * _denominator(sides)
    assert chance.denominator == 1
    return int(chance)


def _denominator(sides: int) -> int:
    """A common denominator of every state chance: the dice outcomes, doubled for the
    recount's half [5.7]."""
    outcomes: int = sides ** (2 * STATE_CONTEST_DICE)
    return 2 * outcomes


@lru_cache(maxsize=4096)
def electoral_chance(
    edges: tuple[tuple[int, int], ...], needed: int, sides: int = DIE_SIDES
) -> Fraction:
    """The exact chance that D carries states worth at least `needed` electoral votes.

    `edges` holds (D's edge before the national dice, votes) per state; each state is won at
    2d6 + edge + (N_D - N_R) against 2d6, a tie being a fair recount. With `needed` = half the
    votes plus one this is the engine's rule (more votes than R wins; a tie on an even map goes
    to R). `sides` is the die (6 in the rules; small dice let a test enumerate every roll).
    """
    votes = _one_copy(tuple(votes for _, votes in edges))
    scale = _denominator(sides) ** len(edges)
    return sum(
        (
            weight * Fraction(scale - _short_count(
                tuple(edge + difference for edge, _ in edges), votes, needed, sides), scale)
            for difference, weight in national_differences(sides)
        ),
        Fraction(0),
    )


@lru_cache(maxsize=8192)
def _short_count(
    edges: tuple[int, ...], votes: tuple[int, ...], needed: int, sides: int
) -> int:
    """The dice outcomes, over `_denominator(sides) ** len(edges)`, in which D's states bring
    fewer than `needed` votes, each state won at 2d6 + edge against 2d6 (the national
    difference already added to its edge, so faces whose edges differ by a national shift
    share the count)."""
    whole = _denominator(sides)
    total = sum(votes)
    if needed <= 0:
        return 0
    if needed > total:
        return int(whole ** len(edges))
    step = (whole ** len(edges)).bit_length() // 8 + 1
    width = 8 * step
    packed, low, fields, left = 1, 0, 1, total
    short, short_fields = 0, 0  # the lost counts, each scaled by the states still to come
    ascending = sorted(zip(votes, edges, strict=True))
    rows = ascending[0::2] + ascending[1::2][::-1]  # small states first and last
    still = [whole ** (len(rows) - done) for done in range(1, len(rows) + 1)]
    for (worth, edge), outcomes in zip(rows, still, strict=True):
        won = _state_numerator(edge, sides)
        packed = packed * (whole - won) + ((packed * won) << (worth * width))
        fields += worth
        if fields > needed - low:  # totals at `needed` or more are won
            fields = needed - low
            packed &= (1 << (fields * width)) - 1
        left -= worth
        lost = min(fields, needed - left - low)  # totals short even if D carries the rest
        if lost > 0:
            short += (packed & ((1 << (lost * width)) - 1)) * outcomes
            short_fields = max(short_fields, lost)
            packed >>= lost * width
            low += lost
            fields -= lost
    return _field_sum(short, short_fields, step)


@cache
def _one_copy(votes: tuple[int, ...]) -> tuple[int, ...]:
    """One tuple per map's votes, so the kept counts do not each hold a copy of it."""
    return votes


def _field_sum(packed: int, fields: int, step: int) -> int:
    """The sum of the first `fields` counts packed `step` bytes apart."""
    data = packed.to_bytes(fields * step, "little")
    return sum(int.from_bytes(data[at : at + step], "little") for at in range(0, len(data), step))


@lru_cache(maxsize=4096)
def _reach(
    rows: tuple[tuple[int, int], ...], difference: int, needed: tuple[int, ...], sides: int
) -> tuple[Fraction, ...]:
    """For a national difference: the chance that D's states bring each of `needed` votes."""
    total_votes = sum(votes for _, votes in rows)
    top = max(0, min(max(needed), total_votes + 1))
    whole = _denominator(sides)
    scale = whole ** len(rows)
    step = scale.bit_length() // 8 + 1
    width = 8 * step
    below = (1 << (top * width)) - 1
    # Only the counts below the highest threshold are kept: reaching it is the rest.
    packed = 1
    for edge, votes in rows:
        won = _state_numerator(edge + difference, sides)
        packed = (packed * (whole - won) + (packed << (votes * width)) * won) & below
    fields = packed.to_bytes(top * step, "little")
    counts = [
        int.from_bytes(fields[at : at + step], "little") for at in range(0, len(fields), step)
    ]
    reached = []
    for threshold in needed:
        short = sum(counts[: max(0, min(threshold, top))])
        reached.append(Fraction(scale - short, scale) if threshold <= total_votes else Fraction(0))
    return tuple(reached)


@cache
def _one_die(edge: int, sides: int) -> Fraction:
    """One candidate die each, the rest of the contest set: d6 + edge against d6, ties half."""
    die = dice_sum(1, sides)
    return compare(die, die, edge).ties_as_half()


@lru_cache(maxsize=4096)
def race_with_honeymoon(
    edges: tuple[tuple[int, int], ...],
    needed: int,
    state_index: int,
    race_edge: int,
    honeymoon: tuple[int | None, int | None, int],
    sides: int = DIE_SIDES,
) -> Fraction:
    """D's exact chance in a down-ballot general of a presidential year, the presidency counted.

    The presidency is resolved first and its winner may put a honeymoon counter in each state
    it carries, which this race's partisan term then reads [5.9]; both contests share the
    national dice and the state's dice. `edges` and `needed` are the presidential contest's
    (as in `electoral_chance`), `state_index` the race's state, `race_edge` D's edge in the race
    before any dice and without the honeymoon, `honeymoon` the pips D's total gets if D's
    president carries the state (None: no counters for that winner), if R's does (None
    likewise), and otherwise (today's counter).
    """
    if_d, if_r, current = honeymoon
    votes = edges[state_index][1]
    state_edge = edges[state_index][0]
    others = edges[:state_index] + edges[state_index + 1 :]
    chance = Fraction(0)
    for national, p_national in national_differences(sides):
        carried_or_not = _reach(others, national, (needed - votes, needed), sides)
        for shared, p_shared in national_differences(sides):
            # the state die difference is shared by the state's presidential contest and the race
            carried = _one_die(national + shared + state_edge, sides)
            base = national + shared + race_edge
            for is_carried, p_carried, reach in (
                (True, carried, carried_or_not[0]),
                (False, 1 - carried, carried_or_not[1]),
            ):
                d_pips = if_d if is_carried and if_d is not None else current
                r_pips = if_r if not is_carried and if_r is not None else current
                race = (
                    reach * _one_die(base + d_pips, sides)
                    + (1 - reach) * _one_die(base + r_pips, sides)
                )
                chance += p_national * p_shared * p_carried * race
    return chance


def clear_cache() -> None:
    """Forget remembered chances (benchmarks measure the cost of computing them)."""
    for cached in (electoral_chance, _short_count, _reach, race_with_honeymoon, _state_numerator,
                   _one_die):
        cached.cache_clear()
