"""What the table pages and the table API both do: create, view, move, leave, replay.

Pages and JSON differ only in how they read input and render output; every check (the seat's
token, the state version, the rules) happens here or in the store, once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pydantic import BaseModel, Field

from fairfight.ballot.bots import BOT_NAMES
from fairfight.ballot.deck import build_cards
from fairfight.ballot.geo import game_map
from fairfight.ballot.players import key_commitment
from fairfight.ballot.record import HUMAN_NAME
from fairfight.ballot.session import TableGame, restore_table_game
from fairfight.ballot.state import Phase
from fairfight.ballot.store import BallotStore, TableRow, TableStatus, invite_token
from fairfight.ballot.story import step_sentences
from fairfight.ballot.tables import VictoryMode, named_config
from fairfight.core.errors import InputError
from fairfight.web.ballot.notify import send_in_background
from fairfight.web.ballot.seat_page import NOBODY, GamePage, log_lines, view_page
from fairfight.web.ballot.seat_views import SeatViews
from fairfight.web.ballot.tables import (
    LobbyRow,
    TablePage,
    YourSeat,
    game_of,
    lobby_row,
    table_page,
)
from fairfight.web.webhook_addresses import IPNetwork

__all__ = [
    "COMMITMENT_BROKEN",
    "COMMITMENT_KEPT",
    "CONFIG_NAME",
    "LOBBY_PAGE_SIZE",
    "LobbyPage",
    "MAX_CLOCK_SECONDS",
    "MAX_YEARS",
    "PREPARED_PHASES",
    "ReplayPage",
    "SEAT_KINDS",
    "SeatLink",
    "TableCreated",
    "TableSpec",
    "create_table",
    "invite_links",
    "lobby_page",
    "pages_to_prepare",
    "prepare_seat_page",
    "race_to_open",
    "rematch_spec",
    "replay_page",
    "view_table",
    "webhook_sender",
]

CONFIG_NAME = "as-written-plus"
PREPARED_PHASES = (Phase.DECLARE, Phase.WITHDRAW)
"""The steps whose seat pages are built as soon as the step opens, before anyone reads them:
a presidential year's declare page ranks every card of the hand in some 480 races and asks the
advice; its withdraw page counts each declaration against the revealed field."""
MAX_YEARS = 16
LOBBY_PAGE_SIZE = 20
SEAT_KINDS = (HUMAN_NAME, *BOT_NAMES)
COMMITMENT_KEPT = ("The revealed key's SHA-256 matches the commitment shown before the first "
                   "move: the deal was fixed before anyone played.")
COMMITMENT_BROKEN = ("The revealed key's SHA-256 does not match the commitment shown before "
                     "the first move: this deal cannot be trusted.")
MAX_CLOCK_SECONDS = 7 * 86400


class TableSpec(BaseModel):
    """A new table: the victory mode, the years, each seat's kind, and the options."""

    victory: VictoryMode = VictoryMode.AMENDMENT
    years: int = Field(MAX_YEARS, ge=1, le=MAX_YEARS)
    seats: list[str] = Field(min_length=3, max_length=5)
    listed: bool = True
    clock_bank: int = Field(0, ge=0, le=MAX_CLOCK_SECONDS)
    """Seconds each person has in hand (0: no turn clock)."""
    clock_increment: int = Field(0, ge=0, le=MAX_CLOCK_SECONDS)
    my_seat: int | None = None
    """The human seat the creator sits at (None: only host the table)."""


class SeatLink(BaseModel):
    """A human seat's invite link (shown once, at creation: only its digest is stored)."""

    seat: int
    link: str
    token: str


class TableCreated(BaseModel):
    """What creating a table hands back: the host's token and every invite link."""

    id: str
    commitment: str
    host_token: str
    my_seat: int | None
    seats: list[SeatLink]


class LobbyPage(BaseModel):
    """The lobby: the create form's choices, listed tables newest first, your seats."""

    modes: list[str]
    kinds: list[str]
    max_years: int
    tables: list[LobbyRow]
    page: int
    more: bool
    your_seats: list[YourSeat]


class ReplayPage(BaseModel):
    """A finished game at step N: the public view with every hand (the game is over)."""

    id: str
    step: int
    steps: int
    key: str
    commitment: str
    commitment_ok: bool
    answers: dict[str, object]
    """Each seat's decision at this step, as stored (the JSON twin's data)."""
    story: list[str]
    """The same decisions as sentences, one a seat (`ballot.story`)."""
    happened: list[str]
    """What the step set off (races, votes, scoring), as the public log tells it, in order."""
    commitment_words: str
    """The deal commitment's check, said in a sentence."""
    hands: dict[int, list[str]]
    game: GamePage


def create_table(store: BallotStore, spec: TableSpec, client: str, base: str) -> TableCreated:
    """Create the table; the creator's own seat (if any) is taken at once."""
    for number, kind in enumerate(spec.seats):
        if kind not in SEAT_KINDS:
            raise InputError(f"seats[{number}]", f"choose one of {', '.join(SEAT_KINDS)}")
    if spec.my_seat is not None and (
        not 0 <= spec.my_seat < len(spec.seats) or spec.seats[spec.my_seat] != HUMAN_NAME
    ):
        raise InputError("my_seat", "your seat must be one of the human seats")
    config = named_config(CONFIG_NAME, spec.victory.value).model_copy(
        update={"year_cap": spec.years}
    )
    table_id, host, tokens = store.create(
        config,
        list(spec.seats),
        client=client,
        listed=spec.listed,
        clock_bank=spec.clock_bank,
        clock_increment=spec.clock_increment,
    )
    if spec.my_seat is not None:
        store.join(table_id, spec.my_seat)
    table = store.load(table_id)
    assert table is not None
    created = invite_links(store, table_id, host, base, spec.my_seat)
    assert created is not None
    return created


def invite_links(
    store: BallotStore, table_id: str, host_token: str, base: str, my_seat: int | None
) -> TableCreated | None:
    """The table's invite links again, for the host alone (None: not the host's token).

    The links are derived from the host's token (`invite_token`), so the invite page can be a
    plain GET that a reload shows again instead of a POST that a reload repeats. A link that
    does not check out (a table made before links were derived) is left out.
    """
    table = store.load(table_id)
    if table is None or not store.is_host(table_id, host_token):
        return None
    links = []
    for seat, kind in enumerate(table.kinds):
        token = invite_token(host_token, table_id, seat)
        if kind == HUMAN_NAME and store.is_seat(table_id, seat, token):
            links.append(SeatLink(
                seat=seat, token=token,
                link=f"{base.rstrip('/')}/ballot/tables/{table_id}/join/{seat}?token={token}"))
    return TableCreated(id=table_id, commitment=table.commitment, host_token=host_token,
                        my_seat=my_seat, seats=links)


def rematch_spec(table: TableRow, my_seat: int | None) -> TableSpec:
    """A new table like `table`: the same seats, victory mode, years, listing and clock."""
    return TableSpec(victory=table.config.victory, years=table.config.year_cap,
                     seats=list(table.kinds), listed=table.listed,
                     clock_bank=table.clock_bank, clock_increment=table.clock_increment,
                     my_seat=my_seat)


def view_table(
    store: BallotStore, table_id: str, you: int | None, host: bool,
    views: SeatViews | None = None, opened: str = "", read: TableRow | None = None,
) -> TablePage:
    """The table for one viewer (after letting run-out clocks play), its game page kept in
    `views` per state version and viewer (and the race `opened` at the declare step); `read`
    is the row as the caller just read or wrote it, which spares reading it again."""
    table = store.tick(table_id, read)  # one read at most; "no such table" is refused there
    return table_page(table, game_of(store, table), you, host, store.clock(), views, opened)


def pages_to_prepare(store: BallotStore, table_id: str) -> list[int]:
    """The people whose pages to build before they read them: every person the table asks now
    who has not answered, when it asks a step of `PREPARED_PHASES` (none otherwise)."""
    table = store.load(table_id)
    game = game_of(store, table) if table is not None else None
    if table is None or game is None or game.state.phase not in PREPARED_PHASES:
        return []
    answered = set(table.answered())
    return [seat for seat in game.people_asked() if seat not in answered]


def prepare_seat_page(
    store: BallotStore, table_id: str, seat: int, views: SeatViews
) -> TablePage | None:
    """Build and keep `seat`'s page, when the table still asks it at a step of
    `PREPARED_PHASES`, so the person's first read finds it (a read that comes while it is being
    built waits for it: `SeatViews.page`). Returns the table as that seat's plain read sees it
    (for its HTML to be rendered too), or None when the seat is not asked.

    The page is built exactly as that seat's own read builds it (`table_page`, the viewer's
    key), so one seat's page is never found by another."""
    table = store.load(table_id)
    game = game_of(store, table) if table is not None else None
    if table is None or game is None or game.state.phase not in PREPARED_PHASES:
        return None
    if seat not in game.people_asked() or seat in table.answered():
        return None
    return table_page(table, game, seat, False, store.clock(), views)


def race_to_open(text: str) -> str:
    """The race a seat page is asked to open (`?open=`), checked: "" for none, a race of the
    map as it is, anything else refused naming the field."""
    if text and text not in game_map().seat_by_id:
        raise InputError("open", f"{text[:40]} is not a race of the map")
    return text


def lobby_page(
    store: BallotStore, page: int, mine: list[tuple[str, int]]
) -> LobbyPage:
    """One page of listed tables, and the seats this browser holds."""
    rows, more = store.lobby(page, LOBBY_PAGE_SIZE)
    yours = []
    for table_id, seat in mine:
        table = store.load(table_id)
        if table is None:
            continue
        waiting = set()
        if table.status == TableStatus.PLAYING:
            game = game_of(store, table)
            waiting = set(game.people_asked() if game else ()) - set(table.answered())
        yours.append(
            YourSeat(table=table_id, seat=seat, status=table.status, your_turn=seat in waiting)
        )
    return LobbyPage(
        modes=[mode.value for mode in VictoryMode],
        kinds=list(SEAT_KINDS),
        max_years=MAX_YEARS,
        tables=[lobby_row(row) for row in rows],
        page=page,
        more=more,
        your_seats=yours,
    )


def replay_page(table: TableRow, step: int | None) -> ReplayPage:
    """The finished game as it stood after `step` steps (the last step by default)."""
    if table.status != TableStatus.OVER:
        raise InputError("table", "the replay is available once the game is over")
    last = len(table.steps)
    step = last if step is None else step
    if not 0 <= step <= last:
        raise InputError("step", f"a step from 0 to {last}")
    stand_ins = {s.seat: s.stand_in_from for s in table.seats if s.stand_in_from is not None}
    game = restore_table_game(
        table.config, table.key, table.kinds, stand_ins, table.steps[:step], table.digests
    )
    cards = build_cards(table.key)
    answers = table.steps[step - 1] if step else {}
    ok = key_commitment(table.key) == table.commitment
    return ReplayPage(
        id=table.id,
        step=step,
        steps=last,
        key=table.key,
        commitment=table.commitment,
        commitment_ok=ok,
        answers=answers,
        story=step_sentences(answers, game.phases[-1], table.key) if step else [],
        happened=_happened(game, step),
        commitment_words=COMMITMENT_KEPT if ok else COMMITMENT_BROKEN,
        hands={
            seat: [cards[c].label() for c in hand] for seat, hand in enumerate(game.state.hands)
        },
        game=view_page(
            table.id, game.state, game.events, list(table.kinds), NOBODY, asked=False
        ),
    )


def _happened(game: TableGame, step: int) -> list[str]:
    """Step `step`'s own events (the deal's, for step 0) told as a spectator is told them;
    `game` is rebuilt to that step, so they are the last ones."""
    start = game.marks[step - 1] if step else 0
    lines = log_lines(game.events[start:], NOBODY, game.config.start_year)
    return [line.text for line in reversed(lines)]


def webhook_sender(allow_private: bool, base: str, allowed: Sequence[IPNetwork] = (),
                   ) -> Callable[[str, int, int, str], None]:
    """The store's `notify`: POST {table, seat, version, page} to the seat's webhook."""

    def notify(table_id: str, seat: int, version: int, url: str) -> None:
        page = f"{base.rstrip('/')}/ballot/tables/{table_id}/seats/{seat}"
        payload: dict[str, object] = {
            "event": "your-turn",
            "table": table_id,
            "seat": seat,
            "version": version,
            "page": page,
        }
        send_in_background(url, payload, allow_private, allowed)

    return notify
