"""The forecast's figures pinned: title counts taken from the kernel before its speed work.

A faster kernel must play the same seasons from the same forecast seed, so these counts (per
faction, over 3,000 seasons from two north-america boards, the second with two rebellions
waiting and two open pools) must not move. They were computed with the kernel as it stood
before the work on its speed (`forecast_kernel.py` at 9237500), an independent reference
for that refactor.
"""

from __future__ import annotations

from typing import Any

from fairfight.conquest.forecast.title_odds import forecast
from fairfight.conquest.rules import engine
from tests.conquest import season_digests
from tests.conquest.helpers import SEED

SEASONS = 3_000

FROM_THE_START = """
    AG:2 AW:2 BB:3 BM:8 BQ-BO:4 CA-AB:31 CA-BC:27 CA-MB:11 CA-NB:1 CA-NL:11 CA-NT:6 CA-NU:1
    CA-ON:23 CA-PE:1 CA-QC:19 CA-SK:16 CA-YT:5 CR:33 CU:22 CW:1 DM:2 DO:36 GD:4 GL:4 GP:5
    GT:68 HN:24 HT:26 JM:2 KN:3 KY:6 LC:2 MF:1 MQ:5 MX-AGU:5 MX-BCN:5 MX-BCS:2 MX-CAM:1
    MX-CHH:13 MX-CHP:18 MX-CMX:24 MX-COA:14 MX-COL:6 MX-DUR:4 MX-GRO:6 MX-GUA:11 MX-HID:3
    MX-JAL:39 MX-MEX:37 MX-MIC:4 MX-MOR:10 MX-NAY:1 MX-NLE:17 MX-OAX:10 MX-PUE:14 MX-QUE:12
    MX-ROO:2 MX-SIN:8 MX-SLP:7 MX-SON:3 MX-TAB:3 MX-TAM:9 MX-TLA:4 MX-VER:22 MX-YUC:8
    MX-ZAC:3 NI:9 PA:10 PM:2 PR:17 SV:13 TC:2 TT:16 US-AK:20 US-AL:21 US-AR:8 US-AZ:30
    US-CA:433 US-CO:66 US-CT:41 US-DC:17 US-DE:9 US-FL:79 US-GA:92 US-HI:10 US-IA:18 US-ID:8
    US-IL:81 US-IN:18 US-KS:21 US-KY:18 US-LA:14 US-MA:55 US-MD:52 US-ME:7 US-MI:34 US-MN:38
    US-MO:19 US-MS:3 US-MT:7 US-NC:59 US-ND:3 US-NE:12 US-NH:15 US-NJ:49 US-NM:10 US-NV:16
    US-NY:151 US-OH:39 US-OK:12 US-OR:39 US-PA:80 US-RI:4 US-SC:29 US-SD:8 US-TN:46
    US-TX:168 US-UT:34 US-VA:58 US-VT:8 US-WA:86 US-WI:27 US-WV:3 US-WY:14 VG:1 VI:1
"""
AFTER_40_WITH_POOLS = """
    AG:2 AI:2 AW:12 BB:4 BL:1 BM:7 BQ-BO:3 BZ:1 CA-AB:38 CA-BC:69 CA-MB:6 CA-NB:2 CA-NS:2
    CA-PE:1 CA-QC:25 CA-SK:14 CA-YT:7 CR:23 CU:21 DO:26 GT:101 HT:24 JM:3 KY:6 MF:3 MQ:7
    MX-CHH:12 MX-CHP:17 MX-CMX:24 MX-DUR:8 MX-GRO:4 MX-GUA:22 MX-JAL:39 MX-MEX:48 MX-MIC:15
    MX-MOR:10 MX-NAY:2 MX-NLE:15 MX-OAX:4 MX-PUE:23 MX-QUE:16 MX-ROO:2 MX-SON:3 MX-TAB:11
    MX-TAM:18 MX-TLA:7 MX-YUC:3 MX-ZAC:6 NI:10 PA:16 PR:18 SV:13 SX:1 US-AK:28 US-AR:20
    US-AZ:36 US-CA:497 US-CO:71 US-CT:30 US-DC:15 US-DE:16 US-FL:92 US-GA:115 US-HI:13
    US-IA:14 US-ID:10 US-IN:38 US-KS:14 US-KY:11 US-MA:74 US-ME:14 US-MT:8 US-NC:78 US-ND:8
    US-NE:19 US-NH:10 US-NJ:47 US-NM:12 US-NY:240 US-OH:71 US-OK:11 US-PA:97 US-RI:9
    US-SC:23 US-TN:79 US-TX:224 US-UT:28 US-VA:51 US-VT:8 US-WI:58 US-WY:14 VC:1 VG:3 VI:16
"""
AFTER_40_LEDGER = [
    {"seq": 1, "before_battle": 41, "faction": "AG", "amount": 50},
    {"seq": 2, "before_battle": 41, "faction": "BS", "amount": 50},
    {"seq": 3, "before_battle": 41, "faction": "AI", "amount": 25},
    {"seq": 4, "before_battle": 41, "faction": "AW", "amount": 50},
]


def _counts(text: str) -> dict[str, int]:
    pairs = (item.rsplit(":", 1) for item in text.split())
    return {code: int(count) for code, count in pairs}


def _titles(state: dict[str, Any], ledger: list[dict[str, Any]]) -> tuple[dict[str, int], int]:
    result = forecast(state, ledger, seasons=SEASONS, forecast_seed="golden")
    titles = {odds.faction: odds.titles for odds in result.factions if odds.titles}
    return titles, result.battles_left


def test_the_title_counts_from_the_first_battle_are_pinned() -> None:
    state = engine.new_state(season_digests.load("north-america"), SEED)
    titles, battles_left = _titles(state, [])
    assert sum(_counts(FROM_THE_START).values()) == SEASONS
    assert titles == _counts(FROM_THE_START)
    assert battles_left == SEASONS * 135


def test_the_title_counts_with_rebellions_and_pools_waiting_are_pinned() -> None:
    state = engine.new_state(season_digests.load("north-america"), SEED)
    for _ in range(40):
        state, _entry = engine.play_step(state, [])
    absorbed = {code for code, faction in state["board"]["factions"].items()
                if not faction["standing"]}
    assert {"AG", "BS"} <= absorbed and not {"AI", "AW"} & absorbed
    titles, battles_left = _titles(state, AFTER_40_LEDGER)
    assert sum(_counts(AFTER_40_WITH_POOLS).values()) == SEASONS
    assert titles == _counts(AFTER_40_WITH_POOLS)
    assert battles_left == 292736
