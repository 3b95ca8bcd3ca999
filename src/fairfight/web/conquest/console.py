"""What the operator console shows for each season: where it stands and what it needs next.

Built from the season's public snapshot, the refunds owed and the service's clock; the
console template only formats it. The beacon part says what to paste and where to find it
(the drand relay path of the round, as text: the service never fetches it).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal

from pydantic import BaseModel, Field

from fairfight.conquest.record import beacon_check, beacons
from fairfight.conquest.rules import engine
from fairfight.conquest.store import ledger
from fairfight.web.conquest.catalog import SeasonCatalog
from fairfight.web.conquest.log_views import SignedHead
from fairfight.web.conquest.models import AIR_LIMIT, RefundOwedView
from fairfight.web.conquest.views import pending_board, season_url

__all__ = ["BeaconNeed", "ConsoleSeason", "console_season"]


class BeaconNeed(BaseModel):
    """The beacon's part in the season: none named, waiting for its round, due, or recorded."""

    status: Literal["none", "not_out_yet", "needed", "recorded", "too_late"]
    round: int | None = None
    comes_out: str | None = Field(None, description="when the round comes out (UTC)")
    relay_path: str | None = Field(None, description="where any drand relay serves the round")
    randomness: str | None = None


class ConsoleSeason(BaseModel):
    """One season on the console."""

    id: int
    map_name: str
    url: str
    battles: int
    next_battle: int
    max_battles: int | None = Field(None, description="the season's most battles, if it has one")
    ended: bool
    revealed: bool
    waiting_rebellions: list[tuple[str, str]] = Field(description="(code, name) of each")
    beacon: BeaconNeed
    refunds: list[RefundOwedView]
    refunds_total: int = Field(description="dollars owed back, summed over the refunds")
    log_size: int = Field(0, description="entries in the season log (0: made before the log)")
    head: SignedHead | None = Field(None, description="the season log's latest signed head")
    air_limit: int = AIR_LIMIT

    @property
    def battles_left(self) -> int | None:
        """How many more battles can air at most (None: the season has no fixed length).

        A season may end earlier, when one faction holds the whole map."""
        if self.max_battles is None:
            return None
        return max(self.max_battles - self.battles, 0)


def _beacon(spec: dict[str, object] | None, recorded: dict[str, object] | None,
            battles: int, now: datetime) -> BeaconNeed:
    if spec is None:
        return BeaconNeed(status="none")
    beacon_round = int(str(spec["round"]))
    came_out = beacon_check.round_came_out(beacon_round)
    common = {"round": beacon_round, "comes_out": beacons.utc_text(came_out),
              "relay_path": beacon_check.round_url_path(beacon_round)}
    if recorded is not None:
        return BeaconNeed(status="recorded", randomness=str(recorded["randomness"]), **common)
    if battles:
        return BeaconNeed(status="too_late", **common)
    out = int(now.timestamp()) >= came_out
    return BeaconNeed(status="needed" if out else "not_out_yet", **common)


def console_season(catalog: SeasonCatalog, season_id: int,
                   now: datetime | None = None) -> ConsoleSeason:
    """The console's view of one season at `now` (the service's clock by default)."""
    snap = catalog.snapshot(season_id)
    summary = snap.summary
    with catalog.read(season_id) as session:
        refunds = [RefundOwedView(**refund) for refund in ledger.refunds_owed(session)]
    waiting = engine.waiting_rebellions(pending_board(snap))
    return ConsoleSeason(
        id=season_id,
        map_name=summary.header["map_name"],
        url=season_url(season_id),
        battles=summary.battles,
        next_battle=summary.board["next_battle"],
        max_battles=summary.header["max_battles"],
        ended=summary.board["ended"],
        revealed=summary.revealed_seed is not None,
        waiting_rebellions=[(code, snap.name_of(code)) for code in waiting],
        beacon=_beacon(summary.header["beacon"], summary.beacon, summary.battles,
                       now or datetime.now(UTC)),
        refunds=refunds,
        refunds_total=sum(refund.amount for refund in refunds),
        log_size=0 if snap.head is None else snap.head["size"],
        head=None if snap.head is None else SignedHead(**snap.head),
    )
