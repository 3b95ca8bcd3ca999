"""The wide seating scan: `python -m bench.ballot_scan [--keys N] [--seed-base B] [--years Y]
[--jobs J]`.

Every seating of Pollster and Machine at 4 and 5 seats, in `points` and `amendment`, for keys
B .. B+N-1 (by default the 300 keys of the design's reference runs, 1000-1299, whole games):
28,800 games, about two hours of processor time. Prints one line per failing game as soon as
it fails (to stderr, beside the progress), all of them again at the end, and exits 1 if any;
run it after every speed change (docs/ballot.md, "Speed"). `--advice` plays instead each of
those games once for every Pollster in it, that seat taking the advice (run it after a change
to the bots or the advice: 224 games a key). It is not one of
`python -m bench`'s timings, so it lives outside the `bench_*` modules.
"""

from __future__ import annotations

import argparse
import sys
import time

from fairfight.ballot.scan import ScanFailure, advice_specs, run_scan, scan_specs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ballot_scan")
    parser.add_argument("--keys", type=int, default=300, help="how many keys")
    parser.add_argument("--seed-base", type=int, default=1000, help="the first key")
    parser.add_argument("--years", type=int, default=None, help="shorten every game")
    parser.add_argument("--jobs", type=int, default=2, help="local processes")
    parser.add_argument("--advice", action="store_true", help="an advice seat for each Pollster")
    options = parser.parse_args(argv)
    keys = [str(options.seed_base + offset) for offset in range(options.keys)]
    specs = (advice_specs if options.advice else scan_specs)(keys, options.years)
    done = [0]
    started = time.perf_counter()

    def progress(count: int) -> None:
        before = done[0]
        done[0] += count
        if done[0] // 500 > before // 500 or (count and done[0] == len(specs)):
            elapsed = time.perf_counter() - started
            print(f"{done[0]}/{len(specs)} games, {elapsed:.0f} s", file=sys.stderr, flush=True)

    def failed(failure: ScanFailure) -> None:
        print(f"failing: {failure.line()}", file=sys.stderr, flush=True)

    failures = run_scan(specs, options.jobs, progress, failed)
    for failure in failures:
        print(failure.line())
    print(f"{len(specs)} games, {len(failures)} failing, {time.perf_counter() - started:.0f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
