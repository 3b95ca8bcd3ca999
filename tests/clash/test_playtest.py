"""The playtest harness: integer intervals, set pieces, and job-count independence."""

from __future__ import annotations

from fairfight.clash.playtest import _isqrt, interval, run_playtest
from fairfight.clash.scenario import load_scenario, parse_scenario
from fairfight.clash.setpieces import screening_turns, siege_scenario
from tests.clash.world_helpers import EXAMPLES


def test_integer_square_root() -> None:
    assert [_isqrt(n) for n in (0, 1, 2, 3, 4, 15, 16, 17, 10**12, 10**12 - 1)] == [
        0, 1, 1, 1, 2, 3, 4, 4, 10**6, 10**6 - 1]


def test_interval_is_mean_plus_minus_1_96_standard_errors() -> None:
    # values 0, 10, 20, 30: mean 15, sample variance 500/3 = 166, se = sqrt(166/4) = 6.44..
    # so 1.96 se = 12.6..: 15 - 12 .. 15 + 12 with floors on the half-width
    assert interval([0, 10, 20, 30]) == (4, 15, 3, 27)
    assert interval([7]) == (1, 7, 7, 7)
    assert interval([]) == (0, 0, 0, 0)


def test_the_siege_example_is_the_set_piece() -> None:
    example = load_scenario(EXAMPLES / "siege.yaml")
    assert example == parse_scenario(siege_scenario("castel-siege", fixed_draw=500))


def test_a_screen_lasts_six_turns() -> None:
    # parting loss floor(1000 / 60) = 16 a turn with no strength recovery after fighting:
    # 100 - 6 x 16 = 4 after six turns, destroyed in the seventh (CB-1870, CB-1890)
    assert screening_turns("any") == 6


def test_figures_do_not_depend_on_the_number_of_processes() -> None:
    one = run_playtest(2, jobs=1, turns=3)
    two = run_playtest(2, jobs=2, turns=3)
    assert one == two
    assert set(one["metrics"]) >= {"rout_share", "both_alive", "falter", "siege_turns"}
