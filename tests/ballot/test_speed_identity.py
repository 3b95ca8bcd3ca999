"""Speed work changes how bots compute, never what they decide.

`golden/speed_digests.json` holds the SHA-256 of the full event stream of 20 bot games (five
configs, 3 to 5 seats). The digests were first taken from the bots as they stood before the
caching and regrouping work, and that work reproduced every one of them; they were taken once
more after the bot rulings, which change decisions on purpose (the file says which commits).
Any later optimisation must reproduce them exactly.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fairfight.ballot.bots import make_bots
from fairfight.ballot.players import play_game
from fairfight.ballot.tables import named_config
from fairfight.core.records import digest

GOLDEN = json.loads((Path(__file__).parent / "golden" / "speed_digests.json").read_text())


@pytest.mark.parametrize(
    "game", GOLDEN["games"], ids=lambda g: f"{g['config']}-{g['key']}-{len(g['players'])}"
)
def test_bot_games_reproduce_the_recorded_digest(game: dict[str, object]) -> None:
    players = game["players"]
    assert isinstance(players, list)
    state, events = play_game(
        named_config(str(game["config"])), str(game["key"]), make_bots(players)
    )
    assert list(state.last_scores) == game["scores"]
    assert list(state.winners) == game["winners"]
    assert digest(events) == game["events"]
