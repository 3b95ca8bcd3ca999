"""Golden vectors worked out by hand from the spec's rules, never from our own output.

The speed digests (test_speed_identity.py) catch any change at all; these say what a few
numbers must be. Each names its rule; the arithmetic is in the comments.

Sums of dice, counted once here and used below. 2d6 totals 2..12 come up
1 2 3 4 5 6 5 4 3 2 1 ways (of 36); 3d6 totals 3..18 come up
1 3 6 10 15 21 25 27 27 25 21 15 10 6 3 1 ways (of 216). For two sides rolling the same dice,
the ways their totals differ by exactly k are the sum of count(t) * count(t + k) over t:
    2d6: k=0: 1+4+9+16+25+36+25+16+9+4+1 = 146;  k=1: 2+6+12+20+30+30+20+12+6+2 = 140
    3d6: k=0: 1+9+36+100+225+441+625+729+729+625+441+225+100+36+9+1 = 4332
         k=1: 3+18+60+150+315+525+675+729+675+525+315+150+60+18+3 = 4221
         k=2: 6+30+90+210+375+567+675+675+567+375+210+90+30+6 = 3906
out of 36^2 = 1296 and 216^2 = 46656 pairs. A side with edge e wins when the other side's roll
beats its own by less than e, and a tie (difference exactly e) is a recount, won half the
time [5.7]: chance(e) = (pairs with difference <= e - 1 + half those with difference e) / all.
By symmetry the pairs with difference <= 0 are (all + ways(0)) / 2.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from fairfight.ballot.advice import declaration_chance
from fairfight.ballot.dice import RaceKind, tie_chance, win_chance
from fairfight.ballot.engine import new_game
from fairfight.ballot.legislature import thresholds
from fairfight.ballot.state import Declaration
from fairfight.ballot.tables import Party, named_config

# Table G at +1 [5.4, 12.1]: ((46656 + 4332) / 2 + 4221 / 2) / 46656
#   = (25494 + 2110.5) / 46656 = 55209 / 93312 = 18403 / 31104 (59.2 %)
GENERAL_PLUS_1 = Fraction(18403, 31104)
# Table G at +2: ((46656 + 4332) / 2 + 4221 + 3906 / 2) / 46656
#   = (25494 + 4221 + 1953) / 46656 = 31668 / 46656 = 2639 / 3888 (67.9 %)
GENERAL_PLUS_2 = Fraction(2639, 3888)
# Table P at +1 [5.5, 12.2]: ((1296 + 146) / 2 + 140 / 2) / 1296 = (721 + 70) / 1296
#   = 791 / 1296 (61.0 %)
PRIMARY_PLUS_1 = Fraction(791, 1296)


def test_table_g_and_p_at_plus_one_and_two() -> None:
    assert win_chance(RaceKind.GENERAL, 1) == GENERAL_PLUS_1
    assert win_chance(RaceKind.GENERAL, 2) == GENERAL_PLUS_2
    assert win_chance(RaceKind.PRIMARY, 1) == PRIMARY_PLUS_1
    # [5.7] two sides level: exactly one half, whatever the dice
    assert win_chance(RaceKind.GENERAL, 0) == win_chance(RaceKind.PRIMARY, 0) == Fraction(1, 2)


def test_tie_chances_before_the_recount() -> None:
    # [12.3] G: 4332 / 46656 = 361 / 3888 (9.3 %); P: 146 / 1296 = 73 / 648 (11.3 %)
    assert tie_chance(RaceKind.GENERAL) == Fraction(361, 3888)
    assert tie_chance(RaceKind.PRIMARY) == Fraction(73, 648)


# The 2028 Senate class III race in Arizona, S-AZ-III, at the start of the game.
# Appendix A: AZ has baseline 0 and margin +0.3; [1.6] with |m| < 5 the lower-numbered class
# (I) goes to the 2020 winner (D) and class III to the loser, so the board holds S-AZ-III as R.
# Lean starts at 0 and nobody has honeymoon counters yet: P(AZ) = 0 + 0 + 0 = 0 [5.3].
# [1.7] candidate ids 60-71 are the D cards with m = 3 (12 m0, 24 m1, 24 m2, then 12 m3) and
# 132-143 the R ones; an m3 card has 3 - 3 = 0 tags, so its fit is 0 whatever the race.
# [5.6] the board fills the empty side with a generic: card part 1, +1 if the board holds the
# seat under that party. A player running under the board seat's party displaces it.
RACES = [
    # card 60 (D, m3) as D: 3 + 0 fit + 0 P(AZ) - (1 + 1, a generic R on its own R seat) = +1
    (60, Party.D, 1, GENERAL_PLUS_1),
    # card 60 as R, switch -1 [4.3]: R side 3 - 1 = 2 (it displaces the board R), D side a
    # generic D with no seat of its own: 1 + P(AZ) 0 = 1; edge 2 - 1 = +1
    (60, Party.R, 1, GENERAL_PLUS_1),
    # card 132 (R, m3) as R: 3 against a generic D's 1: edge +2
    (132, Party.R, 2, GENERAL_PLUS_2),
]


@pytest.mark.parametrize(("card", "party", "edge", "chance"), RACES)
def test_a_senate_declaration_against_the_board(
    card: int, party: Party, edge: int, chance: Fraction
) -> None:
    state, _ = new_game(named_config("as-written-plus"), "1000", 4)
    assert state.year == 2028
    priced = declaration_chance(state, Declaration(0, "S-AZ-III", card, party))
    assert priced.chance == chance
    assert priced.how == f"edge {edge:+d} (table G)"


def test_vote_thresholds() -> None:
    limits = thresholds()
    # [7.4] a House majority of 435: more than 435 / 2 = 217.5, so 218; 60 % of 100 = 60
    assert (limits.house_pass, limits.senate_pass) == (218, 60)
    # [7.5] exactly 2/3 of every seat: 435 * 2 / 3 = 290; 100 * 2 / 3 = 66.67, so 67
    assert (limits.house_override, limits.senate_override) == (290, 67)
    # [7.8] impeachment 67 of 100
    assert limits.impeach == 67
    # [8.1] ceil(2/3 * 50) = ceil(33.3) = 34; ceil(3/4 * 50) = ceil(37.5) = 38; 50 - 38 + 1 = 13
    assert (limits.amend_call, limits.amend_ratify, limits.amend_block) == (34, 38, 13)
