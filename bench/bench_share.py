"""Share cards: how long drawing one takes (target ≤ 100 ms), and the Atom feed of a full season.

A finished season on the north-america map (every battle fought, 136 regions); the cards of
its last episode, of a battle among the islands (the thumbnail framed close) and of the season
(the whole map coloured by holder) are drawn from their values to PNG bytes, best of several
runs, with nothing cached between runs except the parsed outlines (kept for the process, as
the service keeps them). Baseline measured in the same run: encoding a blank 1200×630 PNG with
the same settings, the floor any card pays.
"""

from __future__ import annotations

import tempfile
from functools import partial
from pathlib import Path

from bench.timing import best_seconds
from fairfight.conquest.maps.svg import load_shapes
from fairfight.conquest.rules import scenario
from fairfight.conquest.store import season
from fairfight.web.conquest.card_drawing import blank_png, render_card
from fairfight.web.conquest.catalog import SeasonCatalog, Snapshot
from fairfight.web.conquest.database import SeasonDatabase
from fairfight.web.conquest.feed import season_feed
from fairfight.web.conquest.share_cards import Card, episode_card, season_card

CARD_TARGET_MS = 100.0
REPEATS = 7


def _island_battle(snap: Snapshot) -> int:
    """The first battle fought between two small regions (the closest-framed thumbnail)."""
    shapes = load_shapes("north-america")
    for entry in snap.history:
        sides = (entry["attacker"], entry["defender"])
        if all(shapes[code].area_km2 < 5000 for code in sides):
            return int(entry["number"])
    return 1


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "finished.db"
        season.create_season(path, scenario.load_map("north-america"), "north-america",
                             seed="43" * 32)
        list(season.fight(path, None))
        catalog = SeasonCatalog(SeasonDatabase(f"sqlite:///{path}"))
        try:
            snap = catalog.snapshot(1)
            battles = len(snap.history)
            islands = _island_battle(snap)
            cards: list[tuple[str, Card]] = [
                (f"episode {battles} (last)", episode_card(snap, battles)),
                (f"episode {islands} (islands)", episode_card(snap, islands)),
                ("season (whole map)", season_card(snap)),
            ]
            render_card(cards[0][1])  # parse the outlines once, as a running service has
            blank = best_seconds(blank_png, REPEATS) * 1000
            print(f"{'baseline: blank 1200x630 PNG encoded':<48} {blank:8.1f} ms", flush=True)
            for label, card in cards:
                took = best_seconds(partial(render_card, card), REPEATS) * 1000
                verdict = "ok" if took <= CARD_TARGET_MS else "OVER"
                print(f"{'card, ' + label:<48} {took:8.1f} ms  ({took / blank:,.1f}x baseline; "
                      f"target <= {CARD_TARGET_MS:.0f} ms: {verdict})", flush=True)
            feed = best_seconds(lambda: season_feed(snap, {}, "https://show.example"), REPEATS)
            print(f"{f'Atom feed, {battles} entries':<48} {feed * 1000:8.1f} ms", flush=True)
        finally:
            catalog.close()


if __name__ == "__main__":
    main()
