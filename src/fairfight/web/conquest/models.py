"""The conquest show's view models: each page renders one, and its JSON twin returns it.

Exact values travel as the engine wrote them (fractions as "num/den", draws as integers);
the `*_text` fields are the same values formatted for people, and `*_permille` fields are
floor(value × 1000), for drawing bars without arithmetic in the page.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from fairfight.web.conquest.log_views import PublicFacts, Receipt, SignedHead

__all__ = [
    "AIR_LIMIT",
    "AirRequest",
    "AirResult",
    "Banner",
    "BattleLine",
    "BattlePage",
    "BeaconRequest",
    "Contribution",
    "ContributionConfirmation",
    "ContributionRequest",
    "DrawView",
    "EpisodeView",
    "FactionCard",
    "HoldingView",
    "LedgerPage",
    "LedgerRow",
    "LuckRunView",
    "MapRegion",
    "MapState",
    "OddsView",
    "RefundOwedView",
    "RevealResult",
    "RoundView",
    "SeasonList",
    "SeasonLuckView",
    "SeasonRef",
    "SeasonView",
    "SideView",
    "SpecialView",
    "StandingRow",
]

AIR_LIMIT = 10
"""The most battles one operator action airs (console or API); on the console more than one
asks for a typed confirmation."""

Banner = Literal["UPSET", "FAN POWER", "FAN CLASH", "REBELLION", "SECURED"]


class SeasonRef(BaseModel):
    """A season in the list: its stable id and where it stands."""

    id: int
    map_name: str
    commitment: str
    battles: int
    ended: bool
    revealed: bool
    url: str


class SeasonList(BaseModel):
    """Every season the database holds."""

    seasons: list[SeasonRef]


class StandingRow(BaseModel):
    """One faction's line in the standings."""

    faction: str
    name: str
    standing: bool
    holdings: int
    people: int
    power: int = Field(description="population power in millionths")
    power_text: str
    morale_bp: int
    morale_text: str
    pool: int
    pool_state: str
    fund_waiting: bool = Field(description="absorbed, with a full open fund: a rebellion is due")


class BattleLine(BaseModel):
    """One history entry in a list: who beat whom and what made it notable."""

    number: int
    kind: str
    attacker: str
    defender: str
    winner: str
    loser: str
    winner_name: str
    loser_name: str
    reason: str
    upset: bool
    banners: list[Banner]
    winner_chance: str = Field(description="the winner's battle chance after fan power")
    winner_chance_text: str
    headline: str
    url: str


class LuckRunView(BaseModel):
    """A faction's luck over its aired battles: the words, and the exact figures behind them."""

    faction: str
    title: str
    sentence: str = Field(description="wins against the chances and how often a run at least "
                          "this lucky (or unlucky) happens")
    fan: str = Field(description="what fan power did to the chances, apart from the dice")
    battles: int
    won: int
    expected: str = Field(description="the exact expected number of wins, after fan power")
    at_least: str = Field(description="P(at least this many wins), exact (0xN/0xD)")
    at_most: str = Field(description="P(at most this many wins), exact (0xN/0xD)")


class SeasonLuckView(BaseModel):
    """The luck of the season: its upsets, the champion's run and the rarest runs."""

    sentence: str = Field(description="the upsets against their exact expected number")
    champion: LuckRunView | None
    rarest: list[LuckRunView] = Field(description="the least likely runs, lucky or not")


class SeasonView(BaseModel):
    """The season home: commitment, beacon, engine, standings and the latest episodes."""

    id: int
    map_name: str
    engine_version: str
    commitment: str
    max_battles: int | None
    beacon_name: str | None
    beacon_round: int | None
    beacon_randomness: str | None
    published: str | None = Field(
        description="when a beacon season's header was published (UTC); its round comes out later"
    )
    battles: int
    next_battle: int
    ended: bool
    revealed_seed: str | None
    standings: list[StandingRow]
    latest: list[BattleLine]
    waiting_rebellions: list[str]
    payments_only: bool = Field(description="contributions come only through the payment provider")
    champion: str | None = Field(None, description="the title holder's code, once the season "
                                 "has ended")
    champion_text: str | None = Field(None, description="the champion announced in words")
    facts: PublicFacts = Field(description="the header's facts published before battle 1, and "
                               "the log's latest signed head")
    luck: SeasonLuckView | None = Field(None, description="the luck of the aired battles")


class BattlePage(BaseModel):
    """A page of the battle list, newest first."""

    season: int
    page: int
    per_page: int
    total: int
    battles: list[BattleLine]


class SpecialView(BaseModel):
    """A faction's special: the category it strengthens and the regional fact behind it."""

    category: str
    name: str
    fact: str
    source_status: str
    citation: str | None


class SideView(BaseModel):
    """One side of a battle: every factor that entered its strength."""

    role: Literal["attacker", "defender"]
    faction: str
    name: str
    type: str
    special: str
    special_active: bool
    people: int
    power: int
    power_text: str
    weighted_rating: int
    weighted_rating_text: str
    home: str
    sea: str
    counter: str
    morale_bp: int
    morale_text: str
    fan: str
    pool: int
    rows: list[tuple[str, str]] = Field(description="(label, value) as the episode prints them")


class OddsView(BaseModel):
    """The battle chance before and after fan power (the odds bar)."""

    before: str
    after: str
    before_text: str
    after_text: str
    before_permille: int
    after_permille: int
    secured_by: str | None
    secured_text: str | None = Field(description="the sentence saying whose full pool won")
    fan_clash: bool


class DrawView(BaseModel):
    """One of the eight saved draws and what it was used for."""

    index: int
    role: str
    value: int
    u_text: str
    used: bool


class RoundView(BaseModel):
    """One round: its chance, its draw and the check that decided it."""

    category: str
    before: str
    after: str
    before_text: str
    after_text: str
    draw_index: int
    u_text: str
    winner: str
    winner_faction: str
    check: str = Field(description="the deciding comparison, e.g. `u 0.4120 < p 55.12%`")
    number: int = Field(description="1 to 5, in the order fought")
    category_text: str
    score: tuple[int, int] = Field(description="rounds won (attacker, defender) so far")
    settled: bool = Field(description="one side has three round wins by this round")
    chance_permille: int
    u_permille: int = Field(description="where the draw falls on the round's chance bar")
    said: str = Field(description="the round in words, as watch mode announces it")


class EpisodeView(BaseModel):
    """Everything one battle shows [§11]."""

    season: int
    number: int
    kind: str
    title: str
    notes: list[str]
    attacker: SideView
    defender: SideView
    odds: OddsView
    rounds: list[RoundView]
    draws: list[DrawView]
    attacker_rounds: int
    defender_rounds: int
    natural_winner: str
    winner: str
    loser: str
    reason: str
    reason_text: str
    upset: bool
    banners: list[Banner]
    result: str
    changed_hands: list[str]
    pools_spent: dict[str, int]
    morale_after: dict[str, int]
    morale_after_text: dict[str, str]
    season_over: bool
    champion_text: str | None = Field(None, description="on the last episode: the champion")
    winner_name: str
    previous: int | None
    next: int | None
    head: SignedHead | None = Field(None, description="the signed head published with it")


class HoldingView(BaseModel):
    """A region a faction holds, and how far it is integrated."""

    code: str
    name: str
    captured_at: int | None
    share_text: str


class LedgerRow(BaseModel):
    """A public ledger entry (the idempotency key is never shown)."""

    seq: int
    before_battle: int
    faction: str
    amount: int


class FactionCard(BaseModel):
    """A faction's card: home, special and source, holdings, battles, pool."""

    season: int
    code: str
    name: str
    type: str
    ratings: dict[str, int]
    special: SpecialView
    standing: bool
    held_by: str = Field(description="who holds the home region now")
    morale_bp: int
    morale_text: str
    holdings: list[HoldingView]
    battles: list[BattleLine]
    pool: int
    pool_state: str
    pool_note: str
    fund_waiting: bool
    amounts: list[int] = Field(description="the amounts a fan may still add now")
    accepts_contributions: bool
    payments_only: bool
    contributions: list[LedgerRow] = Field(description="this faction's ledger entries, oldest "
                                           "first (the public part: no key, no payer)")
    luck: LuckRunView | None = Field(None, description="its luck over the aired battles "
                                     "(none before its first battle)")


class MapRegion(BaseModel):
    """A region on the map: its owner, and when it was taken."""

    code: str
    name: str
    owner: str
    owner_name: str
    captured_at: int | None
    changed: bool


class MapState(BaseModel):
    """Who holds what, now or just after a given battle."""

    season: int
    after_battle: int
    regions: list[MapRegion]

    def region(self, code: str) -> MapRegion | None:
        """The region with this code, or None (a page names the few rebels rising: looked up
        one by one, not by a table of every region built at each render)."""
        return next((region for region in self.regions if region.code == code), None)


class ContributionConfirmation(BaseModel):
    """What a fan is told after a contribution is recorded: amount, faction, the battle."""

    seq: int
    faction: str
    amount: int
    before_battle: int = Field(description="the battle the contribution counts for")
    text: str
    receipt_url: str | None = Field(None, description="where the contribution's receipt is "
                                    "downloaded (none for a season made before the log)")
    receipt_text: str | None = Field(None, description="the receipt in words")
    checkpoint_url: str | None = Field(None, description="the checkpoint of the receipt's head "
                                       "(C2SP note), with the witnesses' cosignatures once "
                                       "they have cosigned it: save it beside the receipt")


class LedgerPage(BaseModel):
    """A page of the public ledger, oldest first."""

    season: int
    page: int
    per_page: int
    total: int
    entries: list[LedgerRow]


class ContributionRequest(BaseModel):
    """A fan's contribution: a faction and a whole number of dollars."""

    model_config = ConfigDict(extra="forbid", strict=True)
    faction: str = Field(min_length=1, max_length=32)
    amount: int = Field(ge=0, le=10_000)


class Contribution(BaseModel):
    """An accepted contribution as the ledger holds it, and the pool after it."""

    seq: int
    before_battle: int
    faction: str
    amount: int
    pool: int
    pool_state: str
    receipt: Receipt | None = Field(None, description="the season log's receipt for the entry")


class RefundOwedView(BaseModel):
    """A paid contribution the pool rules refused: money owed back (no payer data)."""

    status: Literal["refund_owed"] = "refund_owed"
    event_id: str = Field(description="the payment provider's event id, to find the payment")
    faction: str
    amount: int
    before_battle: int = Field(description="the battle the contribution would have counted for")
    field: str = Field(description="the field the rules refused")
    reason: str


class AirRequest(BaseModel):
    """How many battles to air."""

    model_config = ConfigDict(extra="forbid", strict=True)
    count: int = Field(1, ge=1, le=AIR_LIMIT, description=f"battles to air, 1 to {AIR_LIMIT}")


class AirResult(BaseModel):
    """The battles just aired."""

    season: int
    battles: list[BattleLine]
    ended: bool


class BeaconRequest(BaseModel):
    """The beacon round's public randomness (and signature)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    randomness: str = Field(pattern=r"^[0-9a-fA-F]{64}$")
    signature: str | None = Field(None, pattern=r"^[0-9a-fA-F]{2,1024}$")


class RevealResult(BaseModel):
    """The revealed seed."""

    season: int
    seed: str
    commitment: str
