"""The games a process keeps (`store.kept_games`): a game played on from a kept one is the game
rebuilt from the row (every stored step, digest and page the same, bots' memories included),
a kept game that does not lead to the row is never used, and a request's copy is its own."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update

from fairfight.ballot.bots import make_bots
from fairfight.ballot.session import RulesChanged, TableGame
from fairfight.ballot.state import DraftPick, Phase
from fairfight.ballot.store import TABLES, BallotStore, TableRow
from fairfight.ballot.store.kept_games import KeptGames
from fairfight.ballot.tables import named_config
from fairfight.web.ballot.routes import ballot_database_url
from fairfight.web.ballot.service import view_table

KINDS = ["human", "pollster", "machine", "human"]
KEY = "4242"


def open_store(folder: Path) -> BallotStore:
    return BallotStore(ballot_database_url(f"sqlite:///{folder / 'ff.db'}"))


def new_table(store: BallotStore, years: int = 1, key: str = KEY) -> str:
    """A started table of two people and two bots, both people seated."""
    config = named_config("as-written-plus", "points").model_copy(update={"year_cap": years})
    table_id, _, tokens = store.create(config, KINDS, client=f"test-{key}-{years}", key=key)
    for seat in tokens:
        store.join(table_id, seat)
    return table_id


def loaded(store: BallotStore, table_id: str) -> TableRow:
    row = store.load(table_id)
    assert row is not None
    return row


def answer_once(store: BallotStore, table_id: str, pick: int = 0) -> bool:
    """Every person asked answers as a fresh Pollster would (`pick` > 0: the draft's card
    that many places along instead); False once the game is over."""
    row = loaded(store, table_id)
    game = store.game(row)
    if game is None or row.status != "playing":
        return False
    for seat in game.people_asked():
        if str(seat) in row.pending:
            continue
        decision = make_bots(["pollster"])[0].decide(game.state, seat)
        if pick and game.state.phase is Phase.DRAFT:
            pack = game.state.packs[seat]
            decision = DraftPick(pack[pick % len(pack)])
        store.answer(table_id, seat, row.version, decision)
    return True


def play_with_pages(store: BallotStore, table_id: str, leave_at: int) -> list[str]:
    """Play the table to its end, seat 3 leaving at version `leave_at`: seat 0's page and
    the spectator's after every step, as JSON."""
    pages = []
    while True:
        row = loaded(store, table_id)
        for viewer in (0, None):
            page = view_table(store, table_id, viewer, False).model_dump_json()
            pages.append(page.replace(table_id, "TABLE"))  # ids are random
        if row.version == leave_at and row.seats[3].stand_in_from is None:
            store.leave(table_id, 3)
        if not answer_once(store, table_id):
            return pages


def test_a_game_played_from_kept_games_is_the_game_rebuilt_from_every_row(
    tmp_path: Path,
) -> None:
    (tmp_path / "kept").mkdir()
    (tmp_path / "rebuilt").mkdir()
    kept, rebuilt = open_store(tmp_path / "kept"), open_store(tmp_path / "rebuilt")
    rebuilt.games = KeptGames(tables=0)  # keeps nothing: every request rebuilds
    runs = {}
    for name, store in (("kept", kept), ("rebuilt", rebuilt)):
        table_id = new_table(store, years=3)
        pages = play_with_pages(store, table_id, leave_at=12)
        row = loaded(store, table_id)
        runs[name] = (row.steps, row.digests, row.status, pages)
    assert runs["kept"] == runs["rebuilt"]
    steps, digests, status, _ = runs["kept"]
    assert status == "over" and len(steps) > 30
    assert kept.games.rebuilt == 0  # every request played on from the kept game
    assert rebuilt.games.rebuilt > len(steps)


def test_a_table_moved_by_another_process_plays_on_from_the_kept_game(tmp_path: Path) -> None:
    first, second = open_store(tmp_path), open_store(tmp_path)
    table_id = new_table(first)
    for turn in range(12):
        if not answer_once(first if turn % 2 else second, table_id):
            break
    assert 0 < second.games.rebuilt <= 1 and first.games.rebuilt == 0
    row = loaded(first, table_id)
    for store in (first, second):
        game = store.game(row)
        assert game is not None
        assert (game.steps, game.digests) == (row.steps, row.digests)
    fresh = row.game()  # a rebuild asks every bot again: RulesChanged if one decided otherwise
    assert fresh is not None and fresh.digests == row.digests


def test_a_kept_game_ahead_of_the_row_is_not_used(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    table_id = new_table(store)
    answer_once(store, table_id)
    old = loaded(store, table_id)
    answer_once(store, table_id)
    assert loaded(store, table_id).version > old.version
    with store.engine.begin() as connection:  # the row as a backup taken before the move
        connection.execute(update(TABLES).where(TABLES.c.id == table_id).values(
            version=old.version, steps=json.dumps(old.steps), digests=json.dumps(old.digests),
            pending="{}"))
    before = store.games.rebuilt
    game = store.game(loaded(store, table_id))
    assert game is not None and store.games.rebuilt == before + 1
    assert (game.steps, game.digests) == (old.steps, old.digests)


def test_a_kept_game_of_another_history_is_not_used(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    ours, theirs = new_table(store), new_table(store)  # the same key, seats and config
    for _ in range(3):
        answer_once(store, ours)
        answer_once(store, theirs, pick=1)
    row, other = loaded(store, ours), loaded(store, theirs)
    assert row.steps != other.steps and row.version == other.version
    other_game = store.game(other)
    assert other_game is not None
    store.games.keep(ours, other_game)  # as if the kept game were another table's
    before = store.games.rebuilt
    game = store.game(row)
    assert game is not None and store.games.rebuilt == before + 1
    assert (game.steps, game.digests) == (row.steps, row.digests)


def test_a_new_step_a_bot_would_play_otherwise_is_refused_when_playing_on(
    tmp_path: Path,
) -> None:
    first, second = open_store(tmp_path), open_store(tmp_path)
    table_id = new_table(first)
    answer_once(first, table_id)
    assert second.game(loaded(second, table_id)) is not None
    kept_at = loaded(first, table_id).version
    answer_once(first, table_id)
    digests = loaded(first, table_id).digests
    digests[kept_at] = "0" * 64
    with first.engine.begin() as connection:
        connection.execute(update(TABLES).where(TABLES.c.id == table_id)
                           .values(digests=json.dumps(digests)))
    before = second.games.rebuilt
    with pytest.raises(RulesChanged) as refused:
        second.game(loaded(second, table_id))
    assert refused.value.step == kept_at + 1 and second.games.rebuilt == before


def _memories(game: TableGame) -> list[Any]:
    return [
        (seat, type(bot).__name__, dict(getattr(bot, "bids", {})),
         dict(getattr(bot, "homes", {})))
        for seat, bot in sorted(game.bots.items())
    ]


def test_changing_a_taken_copy_does_not_reach_the_kept_game(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    table_id = new_table(store)
    for _ in range(4):
        answer_once(store, table_id)
    row = loaded(store, table_id)
    taken = store.game(row)
    assert taken is not None
    untouched = _memories(taken)
    people = make_bots(["pollster", "pollster", "pollster", "pollster"])
    taken.play({seat: people[seat].decide(taken.state, seat) for seat in taken.people_asked()})
    taken.hand_to_stand_in(0)
    taken.steps.append({})
    taken.events.append({"event": "planted"})
    for bot in taken.bots.values():
        getattr(bot, "bids", {})["planted"] = 1.0
        getattr(bot, "homes", {})[99] = (1,)
    again = store.game(row)
    fresh = row.game()
    assert again is not None and fresh is not None
    assert (again.version(), again.steps, again.digests) == (row.version, row.steps, row.digests)
    assert again.events == fresh.events and again.stand_ins == fresh.stand_ins == {}
    assert again.state == fresh.state
    assert _memories(again) == untouched == _memories(fresh)
