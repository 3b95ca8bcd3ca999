"""Count the presidency against the board generic for every card face: `python
tools/ballot_presidency_table.py` writes src/fairfight/ballot/data/presidency_against_board.json.

A candidate card shows m + (number of tags) = 3, so its presidential face is one of 232 tag
sets at part m, or m - 1 under the other party; each runs as D against the board (D's chance)
or as R against it (D's chance is the board's). Every chance is `electoral_chance`'s own exact
count, written as a whole number over one common denominator, under the map's fingerprint.
Run it again after any change to the map, the dice or the board generic (a test says when).
"""

from __future__ import annotations

import json
from concurrent.futures import ProcessPoolExecutor
from itertools import combinations
from math import lcm
from pathlib import Path

from fairfight.ballot.presidency import (
    AGAINST_BOARD_FILE,
    PresidentialSide,
    counted_chance,
    face_key,
    map_fingerprint,
)
from fairfight.ballot.tables import BOARD_GENERIC_PART, CARD_STRENGTH, SWITCH_PENALTY, TAGS

TARGET = Path(__file__).resolve().parents[1] / "src" / "fairfight" / "ballot" / AGAINST_BOARD_FILE


def card_faces() -> list[PresidentialSide]:
    """Every presidential face a candidate card may show: its tags, at its modifier or one
    less (running under the other party)."""
    faces = []
    for size in range(CARD_STRENGTH + 1):
        modifier = CARD_STRENGTH - size
        for tags in combinations(TAGS, size):
            for part in (modifier, modifier - SWITCH_PENALTY):
                faces.append(PresidentialSide(part, frozenset(tags)))
    return faces


def _count(job: tuple[str, PresidentialSide]) -> tuple[str, str, int, int]:
    party, face = job
    board = PresidentialSide(BOARD_GENERIC_PART)
    d, r = (face, board) if party == "D" else (board, face)
    chance = counted_chance(d, r)
    return party, face_key(face), chance.numerator, chance.denominator


def main() -> None:
    jobs = [(party, face) for party in ("D", "R") for face in card_faces()]
    with ProcessPoolExecutor(2) as pool:
        counted = list(pool.map(_count, jobs, chunksize=8))
    denominator = lcm(*(below for *_, below in counted))
    chances: dict[str, dict[str, str]] = {"D": {}, "R": {}}
    for party, key, numerator, below in counted:
        chances[party][key] = format(numerator * (denominator // below), "x")
    kept = {"fingerprint": map_fingerprint(), "denominator": str(denominator),
            "chances": chances}
    TARGET.write_text(json.dumps(kept, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(counted)} chances written to {TARGET}")


if __name__ == "__main__":
    main()
