"""The luck of a season on its pages: the season home's last section and each faction card.

The figures are `record.season_luck`'s (what the archive's `luck.json` holds), computed once
per season version from the aired battles and their exact chances, never the seed; the words
are `conquest.luck`'s. This module only picks and formats.
"""

from __future__ import annotations

from typing import Any

from fairfight.conquest import luck as words
from fairfight.conquest.store.publication import luck_of
from fairfight.web.conquest.catalog import Snapshot
from fairfight.web.conquest.models import LuckRunView, SeasonLuckView

__all__ = ["RAREST_SHOWN", "faction_luck", "season_luck", "season_luck_view"]

RAREST_SHOWN = 3
"""How many of the least likely runs the season home lists beside the champion's."""


def season_luck(snap: Snapshot) -> dict[str, Any]:
    """The season's luck figures as `luck.json` holds them (memoised for the battles fought:
    the figures read the aired battles and the champion, never the ledger)."""
    figures: dict[str, Any] = snap.fought.get_or_make(
        "luck", lambda: luck_of(snap.summary, snap.history))
    return figures


def _run_view(code: str, run: dict[str, Any], title: str) -> LuckRunView:
    return LuckRunView(faction=code, title=title, sentence=words.run_sentence(run),
                       fan=words.fan_sentence(run), battles=run["battles"],
                       won=run["observed"], expected=run["expected"],
                       at_least=run["at_least"], at_most=run["at_most"])


def _named(snap: Snapshot, code: str) -> str:
    return f"{snap.name_of(code)} ({code})"


def season_luck_view(snap: Snapshot) -> SeasonLuckView | None:
    """The season home's "Luck of the season" (None before the first battle), made once for
    the battles fought."""
    if not snap.history:
        return None
    made: SeasonLuckView = snap.fought.get_or_make("luck view", lambda: _season_luck_view(snap))
    return made


def _season_luck_view(snap: Snapshot) -> SeasonLuckView:
    luck = season_luck(snap)
    champion = luck["champion"]
    return SeasonLuckView(
        sentence=words.season_sentence(luck["season"]),
        champion=None if champion is None else _run_view(
            champion["faction"], champion, f"{_named(snap, champion['faction'])}, "
            "the champion"),
        rarest=[_run_view(code, luck["factions"][code], _named(snap, code))
                for code in words.rarest(luck, RAREST_SHOWN)],
    )


def faction_luck(snap: Snapshot, code: str) -> LuckRunView | None:
    """A faction card's luck (None before the faction's first battle)."""
    run = season_luck(snap)["factions"].get(code)
    return None if run is None else _run_view(code, run, _named(snap, code))
