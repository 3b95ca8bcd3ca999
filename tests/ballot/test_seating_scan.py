"""The short seating scan: every seating of Pollster and Machine at 4 and 5 seats, in `points`
and `amendment`, over four keys of four-year games (384 games, about 9 s of processor time).
Every seating and both modes are in every run; the keys are the sample. The other eight of the
twelve keys this scan once played are `python -m bench.ballot_scan --seed-base 1303 --keys 8
--years 4`; the wide scan, which every speed change must pass (keys 1000 .. 1299, 1196 among
them), is `python -m bench.ballot_scan` (docs/ballot.md)."""

from __future__ import annotations

from fairfight.ballot.scan import (
    ADVICE_SEAT,
    ScanFailure,
    advice_specs,
    check_game,
    run_scan,
    scan_specs,
)
from fairfight.ballot.simulate import GameSpec
from fairfight.ballot.tables import VictoryMode

KEYS = [str(key) for key in (1196, *range(1300, 1303))]  # 1196 held the Pollster's crash
YEARS = 4


def test_the_scan_covers_every_seating_in_both_modes() -> None:
    specs = scan_specs(["1"], years=3)
    assert len(specs) == 2 * (2**4 + 2**5)
    assert {spec.config.victory for spec in specs} == {VictoryMode.POINTS, VictoryMode.AMENDMENT}
    assert {spec.players for spec in specs if len(spec.players) == 5} >= {
        ("machine",) * 5,
        ("pollster",) * 5,
        ("pollster", "machine", "machine", "pollster", "machine"),
    }
    assert all(spec.config.year_cap == 3 for spec in specs)


def test_every_seating_finishes_short_games_over_four_keys() -> None:
    failures = run_scan(scan_specs(KEYS, years=YEARS))
    assert not failures, "\n".join(failure.line() for failure in failures[:10])


def test_a_crash_is_reported_with_its_game() -> None:
    spec = scan_specs(["1"], years=1)[0]
    broken = GameSpec(spec.config, spec.key, ("pollster", "nobody", "machine", "machine"))
    failure = check_game(broken)
    assert isinstance(failure, ScanFailure)
    assert failure.line().startswith("key 1, seats pollster,nobody,machine,machine, mode points")


def test_the_advice_scan_puts_the_advice_seat_where_each_pollster_sat() -> None:
    """4 places x 2**3 line-ups + 5 places x 2**4, in two modes: 224 games a key, each the
    scan's game with exactly one Pollster replaced."""
    specs = advice_specs(["1"], years=2)
    assert len(specs) == 2 * (4 * 2**3 + 5 * 2**4)
    plain = {(spec.config.victory, spec.players) for spec in scan_specs(["1"], years=2)}
    for spec in specs:
        assert spec.players.count(ADVICE_SEAT) == 1
        back = tuple("pollster" if name == ADVICE_SEAT else name for name in spec.players)
        assert (spec.config.victory, back) in plain
    sample = specs[::32]
    assert not run_scan(sample), "an advice game failed"


def test_each_failure_is_heard_as_it_happens_in_one_process_and_in_two() -> None:
    """The wide scan takes an hour; a run cut short must still name what failed so far."""
    spec = scan_specs(["1"], years=1)[0]
    broken = GameSpec(spec.config, spec.key, ("pollster", "nobody", "machine", "machine"))
    for jobs in (1, 2):
        heard: list[ScanFailure] = []
        failures = run_scan([spec, broken, spec], jobs, failed=heard.append)
        assert [failure.spec for failure in failures] == [broken]
        assert heard == failures, f"{jobs} processes"
