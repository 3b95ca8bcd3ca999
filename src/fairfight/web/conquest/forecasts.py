"""Title odds on the show's pages: computed in the background, never on a request's path.

One `ForecastCache` per service keeps, for each season, the newest forecast and the public
state it was made from: (battles aired, last ledger seq), which fixes the board and the pools
the next battle will see. A page asks `view`, which answers at once with what is ready (or
"being computed") and, when the state has moved on, queues a fresh forecast on the cache's
single worker thread. The live broadcaster calls `refresh` when it announces a battle or a
ledger change, so the odds follow the show even when nobody is looking at a page.

The fan form's question (what would $A do to this faction's title chance) is answered on
demand by `pool_effect`, with a capped season count, one computation at a time, and the
answers kept for the state they were made from. Its "as things stand" side is one forecast
per state, made by the worker after each battle, so an answer costs one forecast. Nothing
here ever sees the secret seed: the forecast is handed the snapshot's public world, board and
ledger only.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Literal

from pydantic import BaseModel, Field

from fairfight.conquest.forecast.title_odds import FactionOdds, Forecast, forecast
from fairfight.conquest.rules.engine import check_contribution
from fairfight.conquest.store.odds_history import seed_before
from fairfight.web.byte_cache import ByteCappedCache, deep_size
from fairfight.web.conquest.catalog import SeasonCatalog, Snapshot
from fairfight.web.conquest.odds_views import FORECAST_THREADS, OddsStory
from fairfight.web.conquest.refusals import Refusal

__all__ = [
    "EFFECT_CACHE_BYTES",
    "EFFECT_MAX_SEASONS",
    "FactionForecast",
    "ForecastCache",
    "ForecastView",
    "METHOD_ANCHOR",
    "PoolEffectView",
    "StateKey",
    "Status",
    "forecast_seed_for",
    "forecast_stem",
    "public_state",
]

EFFECT_MAX_SEASONS = 10_000
"""Most seasons one pool-effect question may cost (two forecasts of this many seasons)."""
EFFECT_CACHE_BYTES = 4 * 1024 * 1024
"""Bytes of pool-effect answers kept per process (by `deep_size`: some 3 KB an answer, so
about 1,400 answers), per season state, faction and amount; least recently asked dropped
first."""
METHOD_ANCHOR = "forecast-method"
"""The id of the methodology note on the season home page."""

Status = Literal["off", "computing", "updating", "ready", "decided"]
StateKey = tuple[int, int]


class FactionForecast(BaseModel):
    """One faction's title odds: counts as the forecast made them, and the same for people."""

    faction: str
    name: str
    titles: int
    title_chance: str = Field(description="titles / seasons, six decimal places")
    title_low: str = Field(description="lower end of the 95% Wilson interval")
    title_high: str = Field(description="upper end of the 95% Wilson interval")
    title_text: str
    interval_text: str
    expected_regions: str = Field(description="mean regions held at the end, six places")
    expected_regions_text: str = Field(description="the same for people, one place")
    survival_chance: str
    survival_text: str
    listed: bool = Field(description="shown in the page's table: some simulated title or some "
                         "chance of still standing")


class ForecastView(BaseModel):
    """A season's title odds as the pages show them, or why there are none yet."""

    season: int
    status: Status = Field(description="off, computing (none yet), updating (older one "
                           "shown while a fresh one runs), ready, or decided (the season is "
                           "over: the title is decided and no odds are given)")
    as_of_battle: int | None = Field(None, description="the battle the forecast stands before")
    seasons: int = Field(description="simulated seasons (0 when none is ready)")
    forecast_seed: str | None = None
    battles_left: int | None = Field(None, description="history entries (battles, rebellion "
                                     "bonus rounds included) the simulated seasons played after "
                                     "the as-of state, summed over all simulated seasons")
    mean_battles_left: str | None = Field(None, description="battles_left / seasons: the "
                                          "entries one simulated season still played, on "
                                          "average (two places)")
    factions: list[FactionForecast] = []
    method_url: str

    def of(self, code: str) -> FactionForecast | None:
        """One faction's line, if the forecast has one."""
        return next((line for line in self.factions if line.faction == code), None)


class PoolEffectView(BaseModel):
    """What a contribution would do to a faction's title chance (common random numbers)."""

    season: int
    faction: str
    amount: int
    as_of_battle: int
    seasons: int
    forecast_seed: str
    titles_without: int
    titles_with: int
    title_without: str
    title_with: str
    title_change: str = Field(description="with minus without, six decimal places")
    without_text: str
    with_text: str
    change_text: str
    method_url: str


def _percent(value: float) -> str:
    return f"{value * 100:.1f}%"


def _line(snap: Snapshot, odds: FactionOdds) -> FactionForecast:
    plain = odds.to_json()
    low, high = odds.title_interval
    return FactionForecast(
        faction=odds.faction, name=snap.name_of(odds.faction), titles=odds.titles,
        title_chance=plain["title_chance"], title_low=plain["title_interval"][0],
        title_high=plain["title_interval"][1], title_text=_percent(odds.title_chance),
        interval_text=f"{_percent(low)} to {_percent(high)}",
        expected_regions=plain["expected_regions"],
        expected_regions_text=f"{odds.expected_regions:.1f}",
        survival_chance=plain["survival_chance"], survival_text=_percent(odds.survival_chance),
        listed=bool(odds.titles or odds.survived),
    )


def public_state(snap: Snapshot) -> dict[str, Any]:
    """What a forecast is handed: the public world, board and battle cap (no key at all)."""
    return {"world": snap.world, "max_battles": snap.summary.header["max_battles"],
            "board": snap.board}


def forecast_seed_for(snap: Snapshot, fixed: str | None) -> str:
    """The recorded forecast seed: public text plus the battle it stands before."""
    return seed_before(forecast_stem(snap, fixed), snap.board["next_battle"])


def forecast_stem(snap: Snapshot, fixed: str | None) -> str:
    """The public text every forecast seed of the season starts with."""
    return fixed if fixed is not None else snap.summary.commitment


def _state_key(snap: Snapshot) -> StateKey:
    return snap.version[0], snap.version[1]


class ForecastCache:
    """Forecasts per season, made on one background thread; pages only read."""

    def __init__(self, catalog: SeasonCatalog, seasons: int, fixed_seed: str | None,
                 effect_cache_bytes: int = EFFECT_CACHE_BYTES) -> None:
        self.catalog = catalog
        self.seasons = seasons
        self.fixed_seed = fixed_seed
        self._ready: dict[int, tuple[StateKey, Forecast]] = {}
        self._queued: set[int] = set()
        self._lock = threading.Lock()
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="forecast")
        self.effects: ByteCappedCache[tuple[int, StateKey, str, int], PoolEffectView] = \
            ByteCappedCache(effect_cache_bytes, deep_size)
        """Pool-effect answers already made, by season, state, faction and amount."""
        self._effect_lock = threading.Lock()
        """Held while an answer is made: one computation at a time."""
        self._baselines: dict[int, tuple[tuple[StateKey, str, int], Forecast]] = {}
        """Per season, the newest "as things stand" forecast of the pool-effect size: every
        faction's and amount's question shares it, so an answer costs one forecast, not two,
        and the worker makes it after each battle, before anyone asks."""
        self.computed = 0
        """Forecasts made so far (for tests and the curious)."""
        self.story = OddsStory(catalog, seasons=seasons)
        """The kept forecasts, movers and stakes (made on this cache's worker thread), of the
        same size as the page's odds, so the newest kept forecast is the page's own."""

    @property
    def enabled(self) -> bool:
        """A season count of 0 switches forecasts off."""
        return self.seasons > 0

    def page_mark(self, season_id: int, kept: tuple[int, int, int] | None) -> tuple[Any, ...]:
        """Which odds a page shows besides the season's version: the forecast ready (made on
        the worker thread, so it lands between versions) and the version of the kept odds the
        story draws (`kept`, as read by the caller).
        The page cache keys on it, so a page never keeps "computing" once the odds are in."""
        if not self.enabled:
            return ()
        ready = self._ready.get(season_id)
        made = None if ready is None else (ready[0], ready[1].seasons, ready[1].as_of_battle,
                                           ready[1].forecast_seed)
        return made, kept

    def method_url(self, season_id: int) -> str:
        """Where the methodology note is."""
        return f"/conquest/{season_id}#{METHOD_ANCHOR}"

    def refresh(self, season_id: int) -> None:
        """Queue a fresh forecast of the season (any thread; returns at once)."""
        if not self.enabled:
            return
        with self._lock:
            if season_id in self._queued:
                return
            self._queued.add(season_id)
        try:
            self._worker.submit(self._work, season_id)
        except RuntimeError:  # shut down
            with self._lock:
                self._queued.discard(season_id)

    def _work(self, season_id: int) -> None:
        try:
            while True:
                snap = self.catalog.snapshot(season_id)
                seed = forecast_seed_for(snap, self.fixed_seed)
                try:
                    kept = self.story.update(snap, public_state(snap), seed)
                except Exception:  # the odds on the page come first; the next battle retries
                    kept = None
                key = _state_key(snap)
                ready = self._ready.get(season_id)
                if ready is not None and ready[0] == key:
                    return
                due = any(e["before_battle"] == snap.board["next_battle"]
                          for e in snap.summary.ledger)
                result = (kept if kept is not None and kept.seasons == self.seasons and not due
                          else forecast(public_state(snap), snap.summary.ledger,
                                        seasons=self.seasons, forecast_seed=seed,
                                        executor=FORECAST_THREADS))
                with self._lock:
                    self._ready[season_id] = (key, result)
                    self.computed += 1
                if result.seasons == self.effect_seasons and result.forecast_seed == seed:
                    self._baselines[season_id] = ((key, seed, result.seasons), result)
                else:
                    self._baseline(snap)
        except Exception:  # a vanished or busy database: the next page view asks again
            return
        finally:
            with self._lock:
                self._queued.discard(season_id)

    def settle(self) -> None:
        """Wait until every queued forecast is made (the worker runs jobs in order)."""
        self._worker.submit(lambda: None).result()

    def close(self) -> None:
        """Stop taking work; a forecast already running finishes on its own."""
        self._worker.shutdown(wait=False, cancel_futures=True)

    def view(self, snap: Snapshot) -> ForecastView:
        """The season's odds now, without waiting: what is ready, or that it is coming."""
        return self.view_marked(snap)[0]

    def view_marked(self, snap: Snapshot) -> tuple[ForecastView, tuple[Any, ...]]:
        """`view`, with a mark that differs whenever the view can: its status and the state,
        size and seed of the forecast it shows (read together with the view, so a forecast
        landing meanwhile cannot pair one with the other). The page parts that show only the
        odds are kept under it: a contribution changes the odds only once a forecast of the
        new state lands, until then only the status moves (to "updating")."""
        base = {"season": snap.season_id, "method_url": self.method_url(snap.season_id)}
        if snap.board["ended"]:
            return ForecastView(status="decided", seasons=0, **base), ("decided",)
        if not self.enabled:
            return ForecastView(status="off", seasons=0, **base), ("off",)
        ready = self._ready.get(snap.season_id)
        current = ready is not None and ready[0] == _state_key(snap)
        if not current:
            self.refresh(snap.season_id)
        if ready is None:
            return ForecastView(status="computing", seasons=0, **base), ("computing",)
        made = ready[1]
        status: Literal["ready", "updating"] = "ready" if current else "updating"
        return ForecastView(
            status=status, as_of_battle=made.as_of_battle,
            seasons=made.seasons, forecast_seed=made.forecast_seed,
            battles_left=made.battles_left, mean_battles_left=f"{made.mean_battles_left:.2f}",
            factions=[_line(snap, odds) for odds in made.factions], **base,
        ), (status, ready[0], made.seasons, made.forecast_seed)

    def pool_effect(self, snap: Snapshot, code: str, amount: int) -> PoolEffectView:
        """Title chance without and with `amount` more in `code`'s pool, from the same
        simulated seasons (blocking: call it off the event loop)."""
        if not self.enabled:
            raise Refusal(409, "forecast", "forecasts are switched off on this service")
        if code not in snap.board["factions"]:
            raise LookupError(f"no faction has the code {code!r}")
        key = (snap.season_id, _state_key(snap), code, amount)
        with self._effect_lock:
            return self.effects.get_or_make(key, lambda: self._effect(snap, code, amount))

    @property
    def effect_seasons(self) -> int:
        """Seasons simulated for each side of a pool-effect answer."""
        return min(self.seasons, EFFECT_MAX_SEASONS)

    def _baseline(self, snap: Snapshot) -> Forecast:
        """The season's forecast as things stand, of the pool-effect size, made once a state."""
        seasons, seed = self.effect_seasons, forecast_seed_for(snap, self.fixed_seed)
        key = (_state_key(snap), seed, seasons)
        kept = self._baselines.get(snap.season_id)
        if kept is not None and kept[0] == key:
            return kept[1]
        made = forecast(public_state(snap), snap.summary.ledger, seasons=seasons,
                        forecast_seed=seed, executor=FORECAST_THREADS)
        self._baselines[snap.season_id] = (key, made)
        return made

    def _effect(self, snap: Snapshot, code: str, amount: int) -> PoolEffectView:
        seasons = self.effect_seasons
        seed = forecast_seed_for(snap, self.fixed_seed)
        without = with_pool = self._baseline(snap)
        if amount:  # the same seasons again, with the amount in the pool (refusal: 422)
            state = public_state(snap)
            entry = check_contribution(state, snap.summary.ledger, code, amount)
            with_pool = forecast(state, [*snap.summary.ledger, entry],
                                 seasons=seasons, forecast_seed=seed, executor=FORECAST_THREADS)
        before, after = without.odds_of(code), with_pool.odds_of(code)
        change = after.title_chance - before.title_chance
        return PoolEffectView(
            season=snap.season_id, faction=code, amount=amount,
            as_of_battle=without.as_of_battle, seasons=seasons, forecast_seed=seed,
            titles_without=before.titles, titles_with=after.titles,
            title_without=before.to_json()["title_chance"],
            title_with=after.to_json()["title_chance"],
            title_change=f"{change:+.6f}", without_text=_percent(before.title_chance),
            with_text=_percent(after.title_chance),
            change_text=f"{change * 100:+.1f} points",
            method_url=self.method_url(snap.season_id),
        )
