"""What a table shows to one viewer (a seat or a spectator), as pydantic models.

A view is built from the stored table and the viewer's seat only: the per-seat game page from
the ruleset's `seat_view` (built from the game as that seat knows it), and the
table's public facts (who sits where, who has answered, the key's commitment). The key itself
and the people's pending answers are never copied into a view; the key appears once the game
is over, when it is revealed to everyone.
"""

from __future__ import annotations

from pydantic import BaseModel

from fairfight.ballot.record import HUMAN_NAME
from fairfight.ballot.session import RulesChanged, TableGame
from fairfight.ballot.store import BallotStore, SeatRole, TableRow, TableStatus
from fairfight.core.errors import VerificationError
from fairfight.web.ballot.seat_page import NOBODY, GamePage, race_opened, view_page
from fairfight.web.ballot.seat_views import SeatViews

__all__ = [
    "LobbyRow",
    "TablePage",
    "TableSeat",
    "YourSeat",
    "game_of",
    "lobby_row",
    "seat_label",
    "table_page",
]


class TableSeat(BaseModel):
    """A seat as everyone sees it."""

    seat: int
    kind: str
    """`human`, or the bot's name."""
    played_by: SeatRole
    """`person`, `bot` or `stand-in` (the person left; a bot plays on)."""
    taken: bool
    answered: bool
    """The person has answered the open question (what they answered stays hidden)."""
    asked: bool
    clock_left: float | None
    you: bool


class TablePage(BaseModel):
    """A table for one viewer, and its JSON twin."""

    id: str
    status: TableStatus
    listed: bool
    mode: str
    years: int
    version: int
    """The state version a move must carry: how many steps have been played."""
    commitment: str
    """SHA-256 of the dice key, fixed when the table was created."""
    key: str | None
    """The dice key, revealed once the game is over (None before)."""
    rules_version: str
    clock: str
    you: int | None
    host: bool
    seats: list[TableSeat]
    waiting_for: list[int]
    answered: bool
    """The viewer has answered the open question and waits for the others."""
    game: GamePage | None


class LobbyRow(BaseModel):
    """A listed table in the lobby."""

    id: str
    created: float
    status: TableStatus
    mode: str
    years: int
    seats: str
    open_seats: int


class YourSeat(BaseModel):
    """A seat this browser holds (from its seat cookies)."""

    table: str
    seat: int
    status: TableStatus
    your_turn: bool


def seat_label(kind: str, played_by: SeatRole) -> str:
    """How a seat is named at the table."""
    if played_by is SeatRole.STAND_IN:
        return "stand-in (pollster)"
    return "person" if kind == HUMAN_NAME else kind


def game_of(store: BallotStore, table: TableRow) -> TableGame | None:
    """The table's game as its row stands (played on from the one this process kept), or a 409
    refusal when this engine would play it otherwise."""
    try:
        return store.game(table)
    except RulesChanged as error:
        raise VerificationError("rules", f"{error} (stored: {table.rules_version})") from None


def _clock(table: TableRow) -> str:
    if table.clock_bank <= 0:
        return "no turn clock"
    return (
        f"turn clock: {table.clock_bank} s bank, {table.clock_increment} s added per answer; "
        "when it runs out the stand-in answers that question"
    )


def table_page(
    table: TableRow, game: TableGame | None, you: int | None, host: bool, now: float,
    views: SeatViews | None = None, opened: str = "",
) -> TablePage:
    """The view of `table` for seat `you` (None: a spectator), with the race `opened` at the
    declare step; the game page is taken from `views` when this viewer's page of this version
    is kept there."""
    asked = set(game.people_asked()) if game is not None else set()
    answered = set(table.answered())
    waited = now - table.asked_at
    seats = []
    for row in table.seats:
        is_asked = row.seat in asked and row.seat not in answered
        seats.append(
            TableSeat(
                seat=row.seat,
                kind=row.kind,
                played_by=row.role,
                taken=row.joined,
                answered=row.seat in answered,
                asked=is_asked,
                clock_left=max(0.0, row.bank - waited)
                if table.clock_bank > 0 and is_asked
                else None,
                you=row.seat == you,
            )
        )
    page = None
    if game is not None:
        viewer = you if you is not None else NOBODY
        names = [seat_label(s.kind, s.played_by) for s in seats]
        wanted = you is not None and you in asked and you not in answered

        def build() -> GamePage:
            return view_page(table.id, game.state, game.events, names, viewer, wanted)

        page = build() if views is None else views.page(
            table.id, table.version, viewer, wanted, names, build)
        if opened:
            page = race_opened(game.state, page, opened)
    over = table.status == TableStatus.OVER
    return TablePage(
        id=table.id,
        status=table.status,
        listed=table.listed,
        mode=table.config.victory.value,
        years=table.config.year_cap,
        version=table.version,
        commitment=table.commitment,
        key=table.key if over else None,
        rules_version=table.rules_version,
        clock=_clock(table),
        you=you,
        host=host,
        seats=seats,
        waiting_for=sorted(asked - answered),
        answered=you is not None and you in answered,
        game=page,
    )


def lobby_row(table: TableRow) -> LobbyRow:
    """A table's line in the lobby: nothing private, not even who holds which link."""
    return LobbyRow(
        id=table.id,
        created=table.created,
        status=table.status,
        mode=table.config.victory.value,
        years=table.config.year_cap,
        seats=", ".join("person" if k == HUMAN_NAME else k for k in table.kinds),
        open_seats=sum(1 for s in table.seats if not s.joined),
    )
