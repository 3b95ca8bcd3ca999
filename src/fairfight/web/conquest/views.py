"""Build the view models from a season snapshot: formatting only, every number from the engine.

Exact values are copied from the history entries and the board; display strings come from
`fairfight.conquest.rules.episodes`, the same helpers the command line prints with.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from fairfight.conquest.rules import engine, episodes, fan_pools, tables
from fairfight.conquest.rules_page import share_percent
from fairfight.conquest.store.season import champion, standings
from fairfight.web.conquest import log_views, luck_views
from fairfight.web.conquest.catalog import Snapshot
from fairfight.web.conquest.models import (
    Banner,
    BattleLine,
    BattlePage,
    ContributionConfirmation,
    FactionCard,
    HoldingView,
    LedgerPage,
    LedgerRow,
    MapRegion,
    MapState,
    SeasonRef,
    SeasonView,
    SpecialView,
    StandingRow,
)

__all__ = [
    "LATEST_SHOWN",
    "banners",
    "battle_line",
    "battle_page",
    "champion_text",
    "confirmation",
    "faction_card",
    "ledger_page",
    "map_state",
    "names",
    "pending_board",
    "permille",
    "season_ref",
    "season_url",
    "season_view",
]

LATEST_SHOWN = 8
"""How many recent episodes the season home lists."""

def permille(value: Fraction) -> int:
    """A chance in whole per-mille, rounded down (the odds bar's width)."""
    return int(value * 1000)


def season_url(season_id: int) -> str:
    """The season home's address."""
    return f"/conquest/{season_id}"


def banners(entry: dict[str, Any]) -> list[Banner]:
    """The banners an episode carries, in a fixed order."""
    shown: list[Banner] = []
    if entry["kind"] == tables.BattleKind.BONUS:
        shown.append("REBELLION")
    if entry["reason"] == tables.Reason.FAN_POWER:
        shown.append("FAN POWER")
    elif entry["secured"]:
        shown.append("SECURED")
    if entry["reason"] == tables.Reason.FAN_CLASH:
        shown.append("FAN CLASH")
    if entry["upset"]:
        shown.append("UPSET")
    return shown


def names(snap: Snapshot) -> dict[str, str]:
    """Every region's (and faction's) display name, by code."""
    found: dict[str, str] = snap.fought.get_or_make(
        "names", lambda: {code: snap.name_of(code) for code in snap.regions})
    return found


def champion_text(snap: Snapshot) -> str | None:
    """The champion announced in words, once the season has ended."""
    held = champion(snap.summary)
    if held is None:
        return None
    return episodes.champion_line(held.faction, names(snap), held.holdings, snap.summary.battles)


def battle_line(season_id: int, entry: dict[str, Any],
                named: dict[str, str] | None = None) -> BattleLine:
    """One history entry as a line of the battle list (fighters named when `named` is given)."""
    chance = episodes.winner_chance(entry)
    named = named or {}
    return BattleLine(
        number=entry["number"],
        kind=entry["kind"],
        attacker=entry["attacker"],
        defender=entry["defender"],
        winner=entry["winner"],
        loser=entry["loser"],
        winner_name=named.get(entry["winner"], entry["winner"]),
        loser_name=named.get(entry["loser"], entry["loser"]),
        reason=entry["reason"],
        upset=entry["upset"],
        banners=banners(entry),
        winner_chance=engine.fraction_text(chance),
        winner_chance_text=episodes.percent(chance),
        headline=episodes.headline(entry).strip(),
        url=f"{season_url(season_id)}/battles/{entry['number']}",
    )


def pending_board(snap: Snapshot) -> dict[str, Any]:
    """The board as the next battle will see it: contributions dated to it already applied."""
    state = {"world": snap.world, "key": "", "max_battles": None, "board": snap.board}
    board: dict[str, Any] | None = snap.own.get("pending")
    if board is None:
        board = snap.own["pending"] = engine.pending_board(state, snap.summary.ledger)
    return board


def _standings(snap: Snapshot) -> list[StandingRow]:
    """The standings as the next battle will see them. A contribution only adds to a pool
    (`engine.apply_contribution`), so every figure but the pools and the waiting funds is
    the battles' own, made once for the battles fought; the pools are this version's."""
    board = pending_board(snap)
    waiting = set(engine.waiting_rebellions(board))
    fought: list[StandingRow] = snap.fought.get_or_make(
        "standings", lambda: _fought_standings(snap))
    rows = []
    for row in fought:
        pool = board["factions"][row.faction]["pool"]
        if not row.standing and not (row.pool_state == tables.PoolState.OPEN and pool):
            continue
        rows.append(row.model_copy(update={"pool": pool,
                                           "fund_waiting": row.faction in waiting}))
    return rows


def _fought_standings(snap: Snapshot) -> list[StandingRow]:
    """Every faction's row from the board the battles left (pools as they stood then)."""
    return [
        StandingRow(
            faction=row.faction,
            name=snap.name_of(row.faction),
            standing=row.standing,
            holdings=row.holdings,
            people=row.people,
            power=row.power,
            power_text=episodes.power_text(row.power),
            morale_bp=row.morale_bp,
            morale_text=episodes.morale_text(row.morale_bp),
            pool=row.pool,
            pool_state=row.pool_state,
            fund_waiting=False,
        )
        for row in standings(snap.summary, snap.world)
    ]


def season_ref(snap: Snapshot) -> SeasonRef:
    """The season as the season list shows it."""
    summary = snap.summary
    return SeasonRef(
        id=snap.season_id,
        map_name=summary.header["map_name"],
        commitment=summary.commitment,
        battles=summary.battles,
        ended=summary.board["ended"],
        revealed=summary.revealed_seed is not None,
        url=season_url(snap.season_id),
    )


def season_view(snap: Snapshot, payments_only: bool) -> SeasonView:
    """The season home."""
    view: SeasonView | None = snap.own.get(f"season:{payments_only}")
    if view is None:
        view = snap.own[f"season:{payments_only}"] = _season_view(snap, payments_only)
    return view


def _season_view(snap: Snapshot, payments_only: bool) -> SeasonView:
    summary, header = snap.summary, snap.summary.header
    spec = header["beacon"]
    return SeasonView(
        id=snap.season_id,
        map_name=header["map_name"],
        engine_version=header["engine_version"],
        commitment=summary.commitment,
        max_battles=header["max_battles"],
        beacon_name=None if spec is None else spec["name"],
        beacon_round=None if spec is None else spec["round"],
        beacon_randomness=None if summary.beacon is None else summary.beacon["randomness"],
        published=header.get("published"),
        battles=summary.battles,
        next_battle=summary.board["next_battle"],
        ended=summary.board["ended"],
        revealed_seed=summary.revealed_seed,
        standings=_standings(snap),
        latest=[battle_line(snap.season_id, e, names(snap))
                for e in reversed(snap.history[-LATEST_SHOWN:])],
        waiting_rebellions=engine.waiting_rebellions(pending_board(snap)),
        payments_only=payments_only,
        champion=None if (held := champion(summary)) is None else held.faction,
        champion_text=champion_text(snap),
        facts=log_views.public_facts(snap),
        luck=luck_views.season_luck_view(snap),
    )


def battle_page(snap: Snapshot, page: int, per_page: int) -> BattlePage:
    """Battles newest first, `per_page` at a time."""
    newest_first = snap.history[::-1]
    chunk = newest_first[(page - 1) * per_page : page * per_page]
    return BattlePage(
        season=snap.season_id,
        page=page,
        per_page=per_page,
        total=len(snap.history),
        battles=[battle_line(snap.season_id, entry, names(snap)) for entry in chunk],
    )


def faction_card(snap: Snapshot, code: str, payments_only: bool) -> FactionCard:
    """A faction's card (pools as the next battle will see them)."""
    board = pending_board(snap)
    faction = board["factions"][code]
    region = snap.regions[code]
    special = region["special"]
    next_battle = board["next_battle"]
    holdings = [
        HoldingView(
            code=held,
            name=snap.name_of(held),
            captured_at=where["captured_at"],
            share_text=share_percent(engine.integration_share(next_battle, where["captured_at"]))
            if where["captured_at"] is not None
            else "100%",
        )
        for held, where in sorted(board["regions"].items())
        if where["owner"] == code
    ]
    amounts = fan_pools.offered_amounts(board, code)
    fought = [e for e in snap.history if code in (e["attacker"], e["defender"])]
    return FactionCard(
        season=snap.season_id,
        code=code,
        name=snap.name_of(code),
        type=engine.faction_type(snap.world, code).value,
        ratings=dict(snap.world["regions"][code]["ratings"]),
        special=SpecialView(
            category=special["category"],
            name=special.get("name", ""),
            fact=special.get("fact", ""),
            source_status=special.get("source_status", "unsourced"),
            citation=special.get("citation"),
        ),
        standing=faction["standing"],
        held_by=board["regions"][code]["owner"],
        morale_bp=faction["morale"],
        morale_text=episodes.morale_text(faction["morale"]),
        holdings=holdings,
        battles=[battle_line(snap.season_id, e, names(snap)) for e in fought],
        pool=faction["pool"],
        pool_state=faction["pool_state"],
        pool_note=fan_pools.pool_note(board, code, snap.history),
        fund_waiting=code in engine.waiting_rebellions(board),
        amounts=amounts,
        accepts_contributions=bool(amounts),
        payments_only=payments_only,
        contributions=[LedgerRow(**entry) for entry in snap.summary.ledger
                       if entry["faction"] == code],
        luck=luck_views.faction_luck(snap, code),
    )


def confirmation(snap: Snapshot, code: str, seq: int | None,
                 receipt: dict[str, Any] | None = None) -> ContributionConfirmation | None:
    """The words a fan reads after contributing: ledger entry `seq`, if it is this faction's,
    with its receipt in words and where to download it (a season with a log)."""
    entry = next((e for e in snap.summary.ledger if e["seq"] == seq), None)
    if entry is None or entry["faction"] != code:
        return None
    url = None if receipt is None else log_views.receipt_url(snap.season_id, entry["seq"])
    return ContributionConfirmation(
        **entry, text=f"Recorded: {episodes.contribution_line(entry, names(snap))}.",
        receipt_url=url, receipt_text=None if receipt is None else log_views.receipt_text(receipt),
        checkpoint_url=None if receipt is None else
        f"/api/seasons/{snap.season_id}/checkpoint?size={receipt['head']['size']}")


def map_state(snap: Snapshot, after_battle: int | None = None) -> MapState:
    """Owners now, or just after battle `after_battle` (regions that moved in it marked);
    memoised for the battles fought, which are all it reads."""
    upto = len(snap.history) if after_battle is None else after_battle
    drawn: MapState = snap.fought.get_or_make(f"map:{upto}", lambda: _map_state(snap, upto))
    return drawn


def _map_state(snap: Snapshot, upto: int) -> MapState:
    owners: dict[str, tuple[str, int | None]] = {code: (code, None) for code in snap.regions}
    for entry in snap.history[:upto]:
        for moved in entry["changed_hands"]:
            restored = entry["restored"] == moved
            owners[moved] = (entry["winner"], None if restored else entry["number"])
    changed = set(snap.history[upto - 1]["changed_hands"]) if upto else set()
    return MapState(
        season=snap.season_id,
        after_battle=upto,
        regions=[
            MapRegion(
                code=code,
                name=snap.name_of(code),
                owner=owner,
                owner_name=snap.name_of(owner),
                captured_at=captured,
                changed=code in changed,
            )
            for code, (owner, captured) in sorted(owners.items())
        ],
    )


def ledger_page(snap: Snapshot, page: int, per_page: int) -> LedgerPage:
    """The public ledger, oldest first."""
    entries = snap.summary.ledger
    chunk = entries[(page - 1) * per_page : page * per_page]
    return LedgerPage(
        season=snap.season_id,
        page=page,
        per_page=per_page,
        total=len(entries),
        entries=[LedgerRow(**entry) for entry in chunk],
    )
