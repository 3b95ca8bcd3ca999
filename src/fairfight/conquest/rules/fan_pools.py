"""What a faction's card says about its fan pool [§6]: the amounts a fan may add now, and
one sentence on what the pool will do. Every rule is the engine's: an amount is offered when
the engine's own ledger check would accept it."""

from __future__ import annotations

from typing import Any

from fairfight.conquest.rules import engine, tables
from fairfight.conquest.rules.episodes import multiplier

__all__ = ["offered_amounts", "pool_note"]


def offered_amounts(board: dict[str, Any], faction: str) -> list[int]:
    """The contribution sizes the next battle's ledger would accept for `faction` now, given
    the board as the next battle will see it (`engine.pending_board`). The check is given
    the board's faction alone: a contribution reads and moves only its own faction's pool
    (`engine.apply_contribution`), and the check copies the board it is given for every
    amount tried, every region and faction of it, most of a card's own work."""
    own = {code: figures for code, figures in board["factions"].items() if code == faction}
    state = {"world": {}, "key": "", "max_battles": None,
             "board": {**board, "factions": own, "regions": {}}}
    offered = []
    for amount in range(tables.POOL_STEP, tables.POOL_CAP + 1, tables.POOL_STEP):
        try:
            engine.check_contribution(state, [], faction, amount)
        except engine.LedgerRefusal:
            continue
        offered.append(amount)
    return offered


def pool_note(board: dict[str, Any], faction: str, history: list[dict[str, Any]]) -> str:
    """One sentence on the pool's state and what it will do in the next battle."""
    pool = board["factions"][faction]
    amount, state, standing = pool["pool"], pool["pool_state"], pool["standing"]
    if state == tables.PoolState.SPENT:
        used = [e["number"] for e in history if faction in e["pools_spent"]]
        where = f" in battle {used[-1]}" if used else ""
        return f"${amount} spent{where}; this faction's fans are done for the season"
    if not standing:
        if amount == tables.POOL_CAP:
            return "rebellion fund full: the home region rises in a bonus round next"
        return (
            f"rebellion fund: ${amount} of ${tables.POOL_CAP}; at ${tables.POOL_CAP} the home "
            "region rises against its occupier in a bonus round (a real fight, not a sure win)"
        )
    if amount == tables.POOL_CAP:
        return "full: secures the win of this faction's next regular battle (both full: FAN CLASH)"
    if amount:
        return (
            f"${amount}: spent in this faction's next regular battle, win or lose, for "
            f"{multiplier(engine.fan_factor(amount))} strength in every round"
        )
    return "empty: an empty pool is not used, and would become a rebellion fund if conquered"
