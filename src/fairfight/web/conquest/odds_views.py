"""Title odds over time on the show's pages: the kept forecasts, the movers, the stakes.

`OddsStory.update` runs on the forecast cache's background thread after a battle airs: it
keeps the forecast the battle left (`HISTORY_SEASONS` seasons, recorded once per battle even
when several processes make it) and works out the stakes of the next battle from the public
board (`conquest.stakes`). The pages only read what is kept, through views built here; every
number comes from the kept forecasts and the battle record, and templates only format it.
Nothing here sees the secret seed: the next regular battle's pairing is not known before it
airs, so its stakes are given for the pairings with the most title chance likely at stake,
each with its public chance.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from fractions import Fraction
from typing import Any, TypeVar, cast

from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from fairfight.conquest.forecast import stakes as stakes_rule
from fairfight.conquest.forecast.stakes import Stakes
from fairfight.conquest.forecast.title_odds import Forecast, forecast
from fairfight.conquest.rules import movers as movers_rule
from fairfight.conquest.store.odds_history import (
    HISTORY_SEASONS,
    backfill,
    history_version,
    read_history,
    read_stakes,
    record_forecast,
    record_stakes,
)
from fairfight.core.executor import Threads
from fairfight.plainwords import in_words
from fairfight.web.byte_cache import ByteCappedCache, deep_size
from fairfight.web.conquest.catalog import SeasonCatalog, Snapshot
from fairfight.web.conquest.odds_chart import OddsChart, odds_chart

__all__ = [
    "FORECAST_THREADS",
    "FighterStakes",
    "MoverView",
    "OddsStory",
    "PairingStakes",
    "ResolvedStakes",
    "StakesView",
    "StoryView",
    "VIEWS_BYTES",
]


VIEWS_BYTES = 8 * 1024 * 1024
"""Bytes of built views kept per process (by `deep_size`: a season home's some 40 KB, one
faction's chart some 12 KB), per season version, kept-odds version and page."""
_View = TypeVar("_View")


class MoverView(BaseModel):
    """One mover as the page shows it."""

    faction: str
    name: str
    before_text: str
    after_text: str
    change_points: str = Field(description="after minus before, in points, two places")
    change_text: str = Field(description="e.g. `−4.1 points`")
    rising: bool
    reason: str


class FighterStakes(BaseModel):
    """One fighter's title chance now, if it wins and if it loses."""

    faction: str
    name: str
    now_text: str | None
    if_wins_text: str | None = Field(description="None when it cannot win (a full pool)")
    if_loses_text: str | None = Field(description="None when it cannot lose (a full pool)")
    swing_text: str | None = Field(description="if wins minus if loses, in points")


class PairingStakes(BaseModel):
    """The stakes of one pairing: its public chance, the battle chance, both fighters."""

    attacker: str
    defender: str
    rebellion: bool
    pairing_chance: str = Field(description="exact, num/den")
    pairing_text: str
    attacker_chance: str = Field(description="attacker's battle chance, exact num/den")
    attacker_chance_text: str
    importance: str = Field(description="half the L1 distance between the two outcomes' "
                            "title distributions, in points, two places")
    importance_text: str
    noise_text: str = Field(description="the importance two independent runs of the same "
                            "board would show by chance (an upper bound)")
    fighters: list[FighterStakes]


class StakesView(BaseModel):
    """The stakes of battle `battle`, as worked out before it airs."""

    battle: int
    pairings: int = Field(description="how many pairings the battle could be")
    rebellion: bool
    seasons: int
    forecast_seed: str
    shown: list[PairingStakes]


class ResolvedStakes(BaseModel):
    """How a fought battle's stakes resolved: the chances before, the result, the chances after."""

    battle: int
    winner: str
    loser: str
    worked_out: bool = Field(description="whether this pairing's stakes were worked out "
                             "before the battle")
    pairing_text: str
    fighters: list[FighterStakes]
    before_text: dict[str, str]
    after_text: dict[str, str]


class StoryView(BaseModel):
    """The season home's part: the chart, the movers, the next battle's stakes."""

    chart: OddsChart | None
    movers: list[MoverView]
    movers_battle: int | None = Field(None, description="the battle the movers moved after")
    stakes: StakesView | None


def _percent(chance: float) -> str:
    return f"{chance * 100:.1f}%"


def _said(chance: float | Fraction) -> str:
    """A chance as the stakes tables say it: the percentage, then its frequency words (a
    simulated share unless the chance is an exact Fraction)."""
    estimated = not isinstance(chance, Fraction)
    return f"{_percent(float(chance))} ({in_words(chance, estimated=estimated)})"


_MINUS = "\u2212"
"""The minus sign a change is written with (not the hyphen)."""


def _points(change: float) -> str:
    return f"{'+' if change >= 0 else _MINUS}{abs(change):.1f} points"


def _one_in(chance: Fraction) -> str:
    if chance == 1:
        return "certain"
    if chance.numerator == 1:
        return f"1 in {chance.denominator:,} ({_percent(float(chance))})"
    return f"{_percent(float(chance))}"


def _chances(made: Forecast) -> dict[str, float]:
    return {odds.faction: odds.title_chance for odds in made.factions}


def _fighters(snap: Snapshot, stakes: Stakes, now: dict[str, float]) -> list[FighterStakes]:
    fighters = []
    for code in (stakes.pairing.attacker, stakes.pairing.defender):
        won, lost = stakes.if_wins(code), stakes.if_loses(code)
        wins = won.title_chance(code) if won.possible else None
        loses = lost.title_chance(code) if lost.possible else None
        fighters.append(FighterStakes(
            faction=code, name=snap.name_of(code),
            now_text=_said(now[code]) if code in now else None,
            if_wins_text=None if wins is None else _said(wins),
            if_loses_text=None if loses is None else _said(loses),
            swing_text=None if wins is None or loses is None else _points((wins - loses) * 100)))
    return fighters


FORECAST_THREADS = Threads(2)
"""How the service's forecasts run: their chunks on two threads. The compiled kernel lets go
of the interpreter's lock, so both cores work on one forecast while the event loop answers."""


class OddsStory:
    """Keeps and shows the title odds over time of a catalog's seasons."""

    def __init__(self, catalog: SeasonCatalog, seasons: int = HISTORY_SEASONS,
                 views_bytes: int = VIEWS_BYTES) -> None:
        self.catalog = catalog
        self.seasons = seasons
        self._done: dict[int, tuple[int, int]] = {}
        """Per season, the (battle, ledger seq) whose stakes are known to be stored: only the
        newest, since the worker sees a season's states in order (one entry per season)."""
        self._latest: dict[int, tuple[int, Forecast]] = {}
        self._history: dict[int, tuple[tuple[int, int, int], list[tuple[int, Forecast]]]] = {}
        self.views: ByteCappedCache[tuple[Any, ...], Any] = ByteCappedCache(views_bytes,
                                                                             deep_size)
        """Built views, by page, season, season version and kept-odds version."""
        self._lock = threading.Lock()

    # ------------------------------------------------------------ the background jobs

    def update(self, snap: Snapshot, state: dict[str, Any], seed: str) -> Forecast | None:
        """Keep the forecast the latest battle left (once per battle) and the next battle's
        stakes (once per ledger version: pools and rebellion funds change them); call off the
        request path. Returns the kept forecast."""
        battle, season_id, seq = len(snap.history), snap.season_id, snap.version[1]
        latest = self._latest.get(season_id)
        made = latest[1] if latest and latest[0] == battle else None
        if made is None:
            made = dict(self.history(season_id)).get(battle)
        if made is None:
            made = forecast(state, [], seasons=self.seasons, forecast_seed=seed,
                            executor=FORECAST_THREADS)
            with self.catalog.database.transaction(season_id, write=True) as session:
                record_forecast(session, battle, made)
        with self._lock:
            self._latest[season_id] = (battle, made)
        if not snap.board["ended"] and self._done.get(season_id) != (battle, seq):
            with self.catalog.read(season_id) as session:
                known = read_stakes(session, battle + 1, seq)
            if known is None:
                stored = self.next_stakes(state, snap.summary.ledger, made, seed)
                with self.catalog.database.transaction(season_id, write=True) as session:
                    record_stakes(session, battle + 1, seq, stored)
            with self._lock:
                self._done[season_id] = (battle, seq)
        return made

    def next_stakes(self, state: dict[str, Any], ledger: list[dict[str, Any]], now: Forecast,
                    seed: str) -> dict[str, Any]:
        """The stakes of the next battle from the public board and the contributions due to
        it: every pairing's chance, the chosen pairings' two outcomes each (as stored)."""
        pairings = stakes_rule.next_pairings(state, ledger)
        chosen = stakes_rule.likely_pairings(pairings, _chances(now))
        return {
            "battle": state["board"]["next_battle"], "pairings": len(pairings),
            "rebellion": bool(pairings and pairings[0].rebellion), "seasons": self.seasons,
            "forecast_seed": seed,
            "stakes": [stakes_rule.stakes_of(state, ledger, pairing, seasons=self.seasons,
                                             forecast_seed=seed,
                                             executor=FORECAST_THREADS).to_json()
                       for pairing in chosen],
        }

    def backfill(self, snap: Snapshot, stem: str) -> int:
        """Keep the forecasts missing from the history, each from the board its battle left
        (`odds_history.backfill`: the aired battles replayed by the engine). How many added."""
        def transaction(write: bool) -> AbstractContextManager[Session]:
            return self.catalog.database.transaction(snap.season_id, write=write)

        return len(backfill(transaction, stem, self.seasons))

    # ------------------------------------------------------------ reading

    def history(self, season_id: int) -> list[tuple[int, Forecast]]:
        """The season's kept forecasts, oldest first (read again only when one is added)."""
        with self.catalog.read(season_id) as session:
            version = history_version(session)
            cached = self._history.get(season_id)
            if cached is not None and cached[0] == version:
                return cached[1]
            rows = read_history(session)
        with self._lock:
            self._history[season_id] = (version, rows)
        return rows

    def _memo(self, snap: Snapshot, name: str, build: Callable[[], _View]) -> _View:
        """A view built once per season version and kept-odds version (they never change
        in between); the most recently used are kept up to `VIEWS_BYTES`."""
        self.history(snap.season_id)  # refreshes the kept-odds version
        key = (name, snap.season_id, snap.version, self._history[snap.season_id][0])
        return cast(_View, self.views.get_or_make(key, build))

    def _points(self, season_id: int) -> list[tuple[int, dict[str, float]]]:
        return [(battle, _chances(made)) for battle, made in self.history(season_id)]

    def chart(self, snap: Snapshot, faction: str | None = None) -> OddsChart | None:
        """The chart of the leading factions, or of one faction's own line."""
        return self._memo(snap, f"chart:{faction}", lambda: self._chart(snap, faction))

    def _chart(self, snap: Snapshot, faction: str | None) -> OddsChart | None:
        points = self._points(snap.season_id)
        names = {code: snap.name_of(code) for code in snap.board["factions"]}
        if faction is not None:
            return odds_chart(points, names, [faction],
                              title=f"{snap.name_of(faction)}'s title chance over the season")
        return odds_chart(points, names, title="Title chances of the leading factions")

    def movers(self, snap: Snapshot) -> tuple[list[MoverView], int | None]:
        """Movers between the two latest kept forecasts, with the battles between as reasons."""
        rows = self.history(snap.season_id)
        if len(rows) < 2:
            return [], None
        (old_battle, old), (new_battle, new) = rows[-2], rows[-1]
        entries = snap.history[old_battle:new_battle]
        found = movers_rule.movers(_chances(old), _chances(new), entries)
        return [MoverView(
            faction=m.faction, name=snap.name_of(m.faction), before_text=_percent(m.before),
            after_text=_percent(m.after), change_points=f"{m.change_points:+.2f}",
            change_text=_points(m.change_points), rising=m.change_points > 0,
            reason=m.reason) for m in found], new_battle

    def stakes(self, snap: Snapshot) -> StakesView | None:
        """The stakes of the next battle, if worked out yet."""
        if snap.board["ended"]:
            return None
        battle = snap.board["next_battle"]
        with self.catalog.read(snap.season_id) as session:
            stored = read_stakes(session, battle)
        if stored is None:
            return None
        rows = dict(self.history(snap.season_id))
        now = _chances(rows[battle - 1]) if battle - 1 in rows else {}
        shown = []
        for one in stored["stakes"]:
            kept = Stakes.from_json(one)
            importance = kept.importance
            shown.append(PairingStakes(
                attacker=one["attacker"], defender=one["defender"], rebellion=one["rebellion"],
                pairing_chance=one["pairing_chance"], pairing_text=_one_in(kept.pairing.chance),
                attacker_chance=one["attacker_wins"]["chance"],
                attacker_chance_text=_said(kept.attacker_wins.chance),
                importance=f"{importance:.2f}", importance_text=f"{importance:.1f} points",
                noise_text=f"{kept.importance_noise:.1f} points",
                fighters=_fighters(snap, kept, now)))
        return StakesView(battle=battle, pairings=int(stored["pairings"]),
                          rebellion=bool(stored["rebellion"]), seasons=int(stored["seasons"]),
                          forecast_seed=str(stored["forecast_seed"]), shown=shown)

    def home(self, snap: Snapshot) -> StoryView:
        """The season home's chart, movers and stakes."""
        def build() -> StoryView:
            moved, battle = self.movers(snap)
            return StoryView(chart=self.chart(snap), movers=moved, movers_battle=battle,
                             stakes=self.stakes(snap))
        return self._memo(snap, "home", build)

    def resolved(self, snap: Snapshot, number: int) -> ResolvedStakes | None:
        """How battle `number`'s stakes resolved (None without the forecasts around it)."""
        rows = dict(self.history(snap.season_id))
        if number - 1 not in rows or number not in rows:
            return None
        entry = snap.history[number - 1]
        with self.catalog.read(snap.season_id) as session:
            stored = read_stakes(session, number)
        before, after = _chances(rows[number - 1]), _chances(rows[number])
        fighters = (entry["attacker"], entry["defender"])
        match = next((one for one in (stored or {}).get("stakes", [])
                      if (one["attacker"], one["defender"]) == fighters), None)
        return ResolvedStakes(
            battle=number, winner=entry["winner"], loser=entry["loser"],
            worked_out=match is not None,
            pairing_text=_one_in(stakes_rule.fought_pairing_chance(entry)),
            fighters=[] if match is None else _fighters(snap, Stakes.from_json(match), before),
            before_text={code: _said(before.get(code, 0.0)) for code in fighters},
            after_text={code: _said(after.get(code, 0.0)) for code in fighters})
