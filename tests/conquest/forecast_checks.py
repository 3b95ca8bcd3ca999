"""Shared by the forecast tests and the benchmark: the kernel replayed with the engine's draws.

`kernel_trace` runs the compiled season kernel on the exact engine's own draws (its season key,
from the state's next battle on) and `engine_trace` plays the same rest of the season with the
engine; both give one (attacker, defender, winner, border, upset) tuple per battle.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fairfight.conquest.forecast.kernel import run_seasons
from fairfight.conquest.forecast.title_odds import season_arrays
from fairfight.conquest.rules import engine, tables
from fairfight.core.draws import hash64_run

Battle = tuple[int, int, int, int, int]


def kernel_traces(states: list[dict[str, Any]], ledgers: list[list[dict[str, Any]]],
                  most_battles: int) -> list[list[Battle]]:
    """The kernel's battles for each state, fed the engine's draws (states share one map)."""
    boards = [engine.pending_board(s, led) for s, led in zip(states, ledgers, strict=True)]
    traces = []
    for state, board in zip(states, boards, strict=True):
        arrays = season_arrays(state["world"], board, state["max_battles"])
        first = tables.DRAWS_PER_BATTLE * (board["next_battle"] - 1)
        table = np.asarray([hash64_run(state["key"], first, 8 * most_battles)], dtype=np.uint64)
        trace = np.full((1, most_battles, 5), -1, dtype=np.int64)
        totals = [np.zeros(len(arrays.codes), dtype=np.int64) for _ in range(3)]
        lengths = np.zeros(1, dtype=np.int64)
        kernel: Any = run_seasons
        kernel(*arrays.kernel_arguments(), np.uint64(0), 0, 1, table, trace, *totals, lengths)
        traces.append([tuple(int(v) for v in trace[0, k]) for k in range(int(lengths[0]))])
    return traces  # type: ignore[return-value]


def engine_trace(state: dict[str, Any], ledger: list[dict[str, Any]]) -> list[Battle]:
    """The engine's battles from the state to the season's end (no further contribution)."""
    codes = sorted(state["world"]["regions"])
    index = {code: i for i, code in enumerate(codes)}
    border_index = {(b[0], b[1]): k for k, b in enumerate(state["world"]["borders"])}
    battles = []
    while not state["board"]["ended"]:
        state, entry = engine.play_step(state, ledger)
        border = entry["border"]
        battles.append((
            index[entry["attacker"]], index[entry["defender"]], index[entry["winner"]],
            -1 if border is None else border_index[(border["a"], border["b"])],
            int(entry["upset"]),
        ))
    return battles


def boards_along_a_season(map_data: dict[str, Any], key: str, points: tuple[int, ...],
                          ) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """The board of one season (no cap) after each of `points` battles, with a ledger for the
    next battle: $50 for up to two absorbed factions (rebellions waiting) and $25 and $50 for
    two standing ones (open pools, one of them full), whichever the board allows."""
    boards = []
    state = engine.new_state(map_data, key)
    played = 0
    for point in sorted(points):
        while played < point and not state["board"]["ended"]:
            state, _entry = engine.play_step(state, [])
            played += 1
        if state["board"]["ended"]:
            break
        factions = state["board"]["factions"]
        battle = state["board"]["next_battle"]
        absorbed = sorted(code for code, f in factions.items() if not f["standing"])[:2]
        standing = sorted(code for code, f in factions.items() if f["standing"])[:2]
        amounts = [(code, 50) for code in absorbed] + list(zip(standing, (25, 50), strict=False))
        ledger = [{"seq": i + 1, "before_battle": battle, "faction": code, "amount": amount}
                  for i, (code, amount) in enumerate(amounts)]
        boards.append((state, ledger))
    return boards
