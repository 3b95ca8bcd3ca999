"""The games a process has rebuilt or played, kept so that the next request about a table
plays on from them instead of replaying the table from its deal.

Rebuilding a game from its row (`session.restore_table_game`) deals it afresh and plays every
stored step again, asking the bots each time; a move used to do that twice, and every seat
page and live update once. The process keeps the newest game it has for each of its most
recently used tables. A request gets a private copy of it (`TableGame.private_copy`: the
frozen state shared, the lists and the bots with their memories its own), and only when the
kept game is exactly the row's game so far: the same config, key, seats and stand-ins, and
every step it played and every digest equal to the row's. When the row has moved on (a move
in this process or in another), the copy plays only the new steps, checked as a rebuild
checks them (`session.replay_table_steps`: bots asked again, digests compared, RulesChanged).
The row stays the truth: a kept game that does not lead to it is never used, and the game
rebuilt from the row takes its place.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from fairfight.ballot.session import TableGame, replay_table_steps, restore_table_game
from fairfight.ballot.store.rows import TableRow, TableStatus

__all__ = ["KEPT_GAMES", "KeptGames", "leads_to"]

KEPT_GAMES = 64
"""Tables whose newest game one process keeps. A kept game holds its state, events, stored
answers and bots; one of four people at the declare step of 2028 is some 300 KB, a bot
table's more where its bots remember the year's races (the races are shared with the
process's other copies of that board)."""


class KeptGames:
    """The newest game of each recently used table, the least recently used dropped first."""

    def __init__(self, tables: int = KEPT_GAMES) -> None:
        self.tables = tables
        self.kept: OrderedDict[str, TableGame] = OrderedDict()
        self.lock = threading.Lock()
        self.rebuilt = 0
        """Games rebuilt from their deal (no kept game led to the row), for tests and the
        curious."""

    def game(self, table: TableRow) -> TableGame | None:
        """A private copy of the table's game (None before it starts), played on from the kept
        game when that leads to the row, else rebuilt; RulesChanged as a rebuild raises it."""
        if table.status == TableStatus.OPEN:
            return None
        with self.lock:
            kept = self.kept.get(table.id)
        if kept is not None and leads_to(kept, table):
            game = kept.private_copy()
            replay_table_steps(game, table.stand_ins(), table.steps, table.digests)
            if game.version() == kept.version() and game.stand_ins == kept.stand_ins:
                return game  # the kept game is the row's: nothing new to keep
        else:
            self.rebuilt += 1
            game = restore_table_game(table.config, table.key, table.kinds, table.stand_ins(),
                                      table.steps, table.digests)
        self.keep(table.id, game)
        return game

    def keep(self, table_id: str, game: TableGame) -> None:
        """Keep a copy of `game`, the table's game as its row now stands (read, or just
        written), unless the kept one already goes further along the same steps."""
        copied = game.private_copy()
        with self.lock:
            kept = self.kept.get(table_id)
            if kept is None or not _goes_further(kept, copied):
                self.kept[table_id] = copied
            self.kept.move_to_end(table_id)
            while len(self.kept) > self.tables:
                self.kept.popitem(last=False)


def leads_to(kept: TableGame, table: TableRow) -> bool:
    """True when `kept` is the table's game after its first `kept.version()` stored steps:
    the same config, key and seats, each of those steps and digests equal to the row's, and
    each stand-in it has one the row has (the row's others start later)."""
    played = kept.version()
    stand_ins = table.stand_ins()
    return (
        played <= len(table.steps)
        and len(table.digests) == len(table.steps)
        and kept.key == table.key
        and kept.kinds == table.kinds
        and kept.config == table.config
        and kept.steps == table.steps[:played]
        and kept.digests == table.digests[:played]
        and all(stand_ins.get(seat) == start for seat, start in kept.stand_ins.items())
        and all(start >= played for seat, start in stand_ins.items()
                if seat not in kept.stand_ins)
    )


def _goes_further(kept: TableGame, game: TableGame) -> bool:
    """True when `kept` played every step `game` did, and more."""
    played = game.version()
    return (
        kept.version() > played
        and kept.steps[:played] == game.steps
        and kept.digests[:played] == game.digests
        and all(kept.stand_ins.get(seat) == start for seat, start in game.stand_ins.items())
    )
