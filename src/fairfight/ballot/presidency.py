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
which any seat could compute for itself. A card face against the board generic is not counted
in a process at all: every such count ships with the package (`AGAINST_BOARD_FILE`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from importlib import resources

from fairfight.ballot.deck import Card
from fairfight.ballot.elections import board_part
from fairfight.ballot.geo import game_map, state_tag_sets
from fairfight.ballot.racebook import presidential_part
from fairfight.ballot.state import Holding
from fairfight.ballot.tables import BOARD_GENERIC_PART, DIE_SIDES, GENERAL_CANDIDATE_DICE, Party
from fairfight.core.exact import compare, dice_sum

__all__ = [
    "AGAINST_BOARD_FILE",
    "PresidentialSide",
    "STATE_CONTEST_DICE",
    "board_side",
    "card_side",
    "clear_cache",
    "counted_chance",
    "electoral_chance",
    "face_key",
    "map_fingerprint",
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


@lru_cache(maxsize=1024)
def state_edges(d: PresidentialSide, r: PresidentialSide) -> tuple[tuple[int, int], ...]:
    """(D's edge before the national dice, electoral votes) in every state, in map order: the
    card parts, each side's fit in the state, and D's baseline [5.8]. Kept per pairing: the
    withdraw step's counts ask for the same pairing once per race of the year."""
    rows = []
    for home, tags in zip(game_map().states, state_tag_sets(), strict=True):
        edge = d.part + len(d.tags & tags) + home.baseline - r.part - len(r.tags & tags)
        rows.append((edge, home.electoral_votes))
    return tuple(rows)


def presidential_chance(d: PresidentialSide, r: PresidentialSide) -> Fraction:
    """The exact chance that D's side wins the presidency against R's on the real map.

    A card face against the board generic (every declaration while the presidency is open or
    held by the board, and every rival-less general) is read from the counts kept with the
    package (`AGAINST_BOARD_FILE`), made by this same count and checked by the tests."""
    board = PresidentialSide(BOARD_GENERIC_PART)
    if d == board or r == board:
        card_party, card = ("R", r) if d == board else ("D", d)
        known = _against_board().get((card_party, face_key(card)))
        if known is not None:
            return known
    return counted_chance(d, r)


def counted_chance(d: PresidentialSide, r: PresidentialSide) -> Fraction:
    """`presidential_chance` counted now, never read from `AGAINST_BOARD_FILE` (what the
    file is written from)."""
    return electoral_chance(state_edges(d, r), game_map().electoral_majority())


AGAINST_BOARD_FILE = "data/presidency_against_board.json"
"""D's exact presidential chance for every card face a candidate may show (its part and tags,
running as D or as R) against the board generic, counted once by `electoral_chance`
(`tools/ballot_presidency_table.py` writes it): ~1,000 faces, 5 ms each to count, and the
first presidential year's declare page prices some 30 of them for each seat."""


def face_key(side: PresidentialSide) -> str:
    """A side's entry name in `AGAINST_BOARD_FILE`: its part and its tags (`1:black,union`)."""
    return f"{side.part}:{','.join(sorted(side.tags))}"


def map_fingerprint() -> str:
    """SHA-256 of what a count reads besides the two sides (each state's baseline, votes and
    tags, the majority, the dice, the board generic's part): the kept counts are read only
    while it matches, so a change to the map or the dice can never be answered from them."""
    gmap = game_map()
    states = [[home.baseline, home.electoral_votes, sorted(tags)]
              for home, tags in zip(gmap.states, state_tag_sets(), strict=True)]
    facts = [states, gmap.electoral_majority(), DIE_SIDES, STATE_CONTEST_DICE, BOARD_GENERIC_PART]
    return hashlib.sha256(json.dumps(facts, separators=(",", ":")).encode()).hexdigest()


@cache
def _against_board() -> dict[tuple[str, str], Fraction]:
    """The kept counts by (the card's party, `face_key`), or none when they were made for
    another map or dice."""
    kept = json.loads(
        resources.files("fairfight.ballot").joinpath(AGAINST_BOARD_FILE).read_text("utf-8"))
    if kept["fingerprint"] != map_fingerprint():
        return {}
    denominator = int(kept["denominator"])
    return {
        (party, face): Fraction(int(numerator, 16), denominator)
        for party, faces in kept["chances"].items()
        for face, numerator in faces.items()
    }


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
def _difference_counts(sides: int) -> tuple[tuple[int, int], ...]:
    """`national_differences` in whole numbers: each difference's outcomes of the two dice."""
    return tuple((difference, int(p * sides * sides))
                 for difference, p in national_differences(sides))


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


@lru_cache(maxsize=512)
def _below(edges: tuple[int, ...], votes: tuple[int, ...], top: int, sides: int) -> tuple[int, ...]:
    """The whole convolution kept to `top` votes, as running sums: entry t counts the dice
    outcomes, over `_denominator(sides) ** len(edges)`, in which D's states bring fewer than t
    votes (t from 0 to `top`), each state won at 2d6 + edge against 2d6 (the national
    difference already added to its edge, so pairings a national shift apart share it)."""
    whole = _denominator(sides)
    step = (whole ** len(edges)).bit_length() // 8 + 1
    width = 8 * step
    kept = (1 << (top * width)) - 1  # the counts of totals below `top`: the rest is not read
    packed = 1
    for edge, worth in zip(edges, votes, strict=True):
        won = _state_numerator(edge, sides)
        packed = (packed * (whole - won) + (packed << (worth * width)) * won) & kept
    fields = packed.to_bytes(top * step, "little")
    running = [0]
    for at in range(0, len(fields), step):
        running.append(running[-1] + int.from_bytes(fields[at : at + step], "little"))
    return tuple(running)


def _below_without(
    below: tuple[int, ...], total: int, outcomes: int, left_out: tuple[int, int], threshold: int,
    sides: int,
) -> int:
    """The dice outcomes of every state but one that bring D fewer than `threshold` votes
    (over `_denominator(sides)` to one power fewer), read from the running sums of all of
    them (`_below`, `outcomes` in all, `total` votes) without counting again.

    With the left-out state won in W of its `whole` outcomes (L = whole - W lost) at `votes`,
    every running sum of all the states is L times the others' at the same total plus W times
    the others' `votes` lower: so the others' sum at t is (all's at t - W * others' at
    t - votes) / L, each division exact, climbing from t <= 0 where it is 0; when L is 0 the
    state is always carried and the others' sum at t is all's at t + votes, over W."""
    edge, votes = left_out
    whole = _denominator(sides)
    won = _state_numerator(edge, sides)
    lost = whole - won

    def all_below(t: int) -> int:
        return 0 if t <= 0 else outcomes if t > total else below[t]

    if threshold <= 0:
        return 0
    if lost == 0:
        return all_below(threshold + votes) // won
    others = 0  # at the first total of the climb less `votes`, which is 0 or below
    for t in range(threshold - votes * ((threshold - 1) // votes), threshold + 1, votes):
        others = (all_below(t) - won * others) // lost
    return others


@cache
def _one_die(edge: int, sides: int) -> int:
    """One candidate die each, the rest of the contest set: d6 + edge against d6, ties half;
    D's chance over `_one_die_outcomes(sides)`."""
    die = dice_sum(1, sides)
    chance = compare(die, die, edge).ties_as_half() * _one_die_outcomes(sides)
    assert chance.denominator == 1
    return int(chance)


def _one_die_outcomes(sides: int) -> int:
    """A common denominator of `_one_die`: one die a side, doubled for the recount's half."""
    return 2 * sides * sides


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

    Every term is a count of outcomes over one common denominator, summed in whole numbers and
    divided once at the end (a sum of Fractions of 170-digit denominators costs a gcd a term).
    """
    if_d, if_r, current = honeymoon
    votes = edges[state_index][1]
    state_edge = edges[state_index][0]
    scale = _denominator(sides) ** (len(edges) - 1)  # the outcomes of the other states
    every_vote = _one_copy(tuple(worth for _, worth in edges))
    total_votes = sum(every_vote)
    top = min(needed + max(every_vote), total_votes + 1)  # the same for every state left out
    die = _one_die_outcomes(sides)
    differences = _difference_counts(sides)
    total = 0
    for national, p_national in differences:
        below = _below(tuple(edge + national for edge, _ in edges), every_vote, top, sides)
        carried_or_not = [
            scale - _below_without(below, total_votes, scale * _denominator(sides),
                                   (state_edge + national, votes), threshold, sides)
            for threshold in (needed - votes, needed)
        ]
        for shared, p_shared in differences:
            # the state die difference is shared by the state's presidential contest and the race
            carried = _one_die(national + shared + state_edge, sides)
            base = national + shared + race_edge
            weight = p_national * p_shared
            for is_carried, p_carried, reach in (
                (True, carried, carried_or_not[0]),
                (False, die - carried, carried_or_not[1]),
            ):
                d_pips = if_d if is_carried and if_d is not None else current
                r_pips = if_r if not is_carried and if_r is not None else current
                race = (
                    reach * _one_die(base + d_pips, sides)
                    + (scale - reach) * _one_die(base + r_pips, sides)
                )
                total += weight * p_carried * race
    pair = sides * sides  # the national and the state difference: one die a side each
    return Fraction(total, pair * pair * die * die * scale)


def clear_cache() -> None:
    """Forget remembered chances (benchmarks measure the cost of computing them)."""
    for cached in (electoral_chance, _short_count, _below, race_with_honeymoon, _state_numerator,
                   _one_die, state_edges):
        cached.cache_clear()
