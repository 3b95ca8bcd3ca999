"""WarStore: every write of a stored war, each one transaction.

A sheet moves from `submitted` to `sealed` by one conditional UPDATE, so a sealed sheet can
never be written again (two tabs, two processes: the second finds it sealed and gets
`SheetSealed`, a 409 on the web). When the last party of a round seals, the result is scored
from the sealed sheets and published once (the round moves from `open` to `published` under
the same condition). The moderator's returns, approvals and closes are rows of the log.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, func, insert, select, update
from sqlalchemy.engine import Engine

from fairfight.ballot.store.connection import close_engine, open_engine
from fairfight.core.errors import InputError
from fairfight.core.records import canonical_json, digest
from fairfight.core.tokens import token_digest, token_matches
from fairfight.warscore.history import battle_terms
from fairfight.warscore.published import battle_document, year_document
from fairfight.warscore.sealed import (
    RoundKind,
    RoundSetup,
    Sheet,
    WarSetup,
    approver_name,
    check_army_sheet,
    nws_sheet,
    sheet_digest,
)
from fairfight.warscore.store.reads import load_approvals, load_standing, load_war
from fairfight.warscore.store.rows import RoundRow, SheetRow, parties, round_rows
from fairfight.warscore.store.schema import LOG, METADATA, NATIONS, RESULTS, ROUNDS, SHEETS, WARS
from fairfight.warscore.tables import BattleKind

__all__ = [
    "Clock",
    "SUBMISSIONS_PER_CLIENT_PER_DAY",
    "SheetSealed",
    "WARS_PER_CLIENT_PER_DAY",
    "WarStore",
]

WARS_PER_CLIENT_PER_DAY = 20
"""Wars one client address may create in a day."""
SUBMISSIONS_PER_CLIENT_PER_DAY = 300
"""Sheets one client address may send (or seal) in a day."""
_DAY = 86400

Clock = Callable[[], float]


class SheetSealed(InputError):
    """A write to a sheet that is already sealed (or a round already settled): a 409."""


class WarStore:
    """Wars by id in one database (SQLite file, memory, or PostgreSQL by URL)."""

    def __init__(self, url: str, clock: Clock = time.time) -> None:
        self.url = url
        self.engine: Engine = open_engine(url)
        self.clock = clock
        METADATA.create_all(self.engine)

    def close(self) -> None:
        """Release the connections."""
        close_engine(self.engine, self.url)

    def _now(self) -> str:
        return datetime.fromtimestamp(self.clock(), UTC).isoformat(timespec="seconds")

    @staticmethod
    def _hold(connection: Connection, war_id: str) -> None:
        """Take the war's row lock for the rest of the transaction (one UPDATE, on SQLite and
        PostgreSQL alike), so the writes to one war follow one another and the log's
        sequence numbers never collide."""
        connection.execute(update(WARS).where(WARS.c.id == war_id).values(
            revision=WARS.c.revision + 1))

    def _count(self, connection: Connection, client: str, actions: tuple[str, ...]) -> int:
        return int(connection.execute(select(func.count()).select_from(LOG).where(
            LOG.c.client == client[:64], LOG.c.action.in_(actions),
            LOG.c.at > self.clock() - _DAY)).scalar_one())

    def _log(self, connection: Connection, war_id: str, client: str, actor: str, action: str,
             detail: dict[str, Any]) -> None:
        seq = connection.execute(select(func.coalesce(func.max(LOG.c.seq), 0)).where(
            LOG.c.war_id == war_id)).scalar_one()
        connection.execute(insert(LOG).values(
            war_id=war_id, seq=int(seq) + 1, at=self.clock(), client=client[:64],
            actor=actor[:120], action=action, detail=json.dumps(detail, sort_keys=True)))

    # ---- wars and links -----------------------------------------------------------------

    def create(self, setup: WarSetup, *, client: str) -> tuple[str, str, dict[int, str]]:
        """A new war: (its id, the moderator's token, each nation's token by index)."""
        setup.checked()
        with self.engine.begin() as connection:
            made = int(connection.execute(select(func.count()).select_from(WARS).where(
                WARS.c.client == client[:64], WARS.c.created > self.clock() - _DAY)).scalar_one())
            if made >= WARS_PER_CLIENT_PER_DAY:
                raise InputError("war", f"{WARS_PER_CLIENT_PER_DAY} wars a day from one "
                                 "address at most: try again tomorrow")
            war_id = secrets.token_hex(8)
            moderator = secrets.token_urlsafe(24)
            tokens = {index: secrets.token_urlsafe(24) for index in range(len(setup.nations))}
            connection.execute(insert(WARS).values(
                id=war_id, created=self.clock(), client=client[:64],
                config=json.dumps(setup.config(), sort_keys=True),
                moderator_sha256=token_digest(moderator), revision=0))
            for index, token in tokens.items():
                connection.execute(insert(NATIONS).values(
                    war_id=war_id, nation=index, token_sha256=token_digest(token)))
            self._log(connection, war_id, client, setup.moderator, "create", {})
        return war_id, moderator, tokens

    def war(self, war_id: str) -> dict[str, Any] | None:
        """A war's configuration, or None."""
        return load_war(self.engine, war_id)

    def is_moderator(self, war_id: str, token: str | None) -> bool:
        """True when `token` is the war's moderator link."""
        if not token:
            return False
        with self.engine.connect() as connection:
            row = connection.execute(select(WARS.c.moderator_sha256).where(
                WARS.c.id == war_id)).first()
        return row is not None and token_matches(token, row.moderator_sha256)

    def is_nation(self, war_id: str, nation: int, token: str | None) -> bool:
        """True when `token` is this nation's link."""
        if not token:
            return False
        with self.engine.connect() as connection:
            row = connection.execute(select(NATIONS.c.token_sha256).where(
                NATIONS.c.war_id == war_id, NATIONS.c.nation == nation)).first()
        return row is not None and token_matches(token, row.token_sha256)

    # ---- rounds -------------------------------------------------------------------------

    def rounds(self, war_id: str) -> list[RoundRow]:
        """The war's rounds in order, each with its sheets (bodies included: callers decide
        who may see them, see `RoundRow.visible_to`)."""
        with self.engine.connect() as connection:
            return round_rows(connection, war_id)

    def open_round(self, war_id: str, setup: RoundSetup, *, client: str) -> int:
        """Open a battle or a year; its number."""
        war = self._must_war(war_id)
        header = setup.header(war)
        with self.engine.begin() as connection:
            self._hold(connection, war["id"])
            header = self._still_fighting(connection, war, header)
            last = connection.execute(select(func.coalesce(func.max(ROUNDS.c.round), 0)).where(
                ROUNDS.c.war_id == war_id)).scalar_one()
            number = int(last) + 1
            connection.execute(insert(ROUNDS).values(
                war_id=war_id, round=number, kind=str(setup.kind), header=json.dumps(header),
                status="open", digest=None, opened=self.clock()))
            self._log(connection, war_id, client, war["moderator"], "open",
                      {"round": number, **header})
        return number

    def _still_fighting(self, connection: Connection, war: dict[str, Any],
                        header: dict[str, Any]) -> dict[str, Any]:
        """A nation that capitulated fights no later battle and sends no later NWS: a battle
        naming one is refused, a year lists the nations still fighting."""
        standing = load_standing(connection, war["id"])
        assert standing is not None
        year = int(header["year"])
        fallen = {n.name: n.capitulated_in for n in standing.nations
                  if n.capitulated_in is not None}
        if "attacker" in header:
            for side in ("attacker", "defender"):
                when = fallen.get(header[side])
                if when is not None and when <= year:
                    raise InputError(side, f"{header[side]} capitulated in {when}; its war "
                                     "is over")
            return header
        for row in round_rows(connection, war["id"]):
            if row.kind is RoundKind.YEAR and row.header["year"] == year \
                    and row.status != "closed":
                raise InputError("year", f"{year} already has its round ({row.round})")
        fighting = [n["name"] for n in war["nations"]
                    if fallen.get(n["name"]) is None or fallen[n["name"]] >= year]
        if len(fighting) < 2:
            raise InputError("year", "fewer than two nations still fight: the war is over")
        return {**header, "nations": fighting}

    def _must_war(self, war_id: str) -> dict[str, Any]:
        war = self.war(war_id)
        if war is None:
            raise InputError("war", "no such war")
        return war

    def _must_round(self, connection: Connection, war_id: str, number: int) -> RoundRow:
        for row in round_rows(connection, war_id):
            if row.round == number:
                return row
        raise InputError("round", "no such round in this war")

    def _must_party(self, war: dict[str, Any], row: RoundRow, nation: int) -> None:
        if nation not in parties(war, row):
            raise InputError("nation", "does not send a sheet in this round")
        if row.status != "open":
            raise SheetSealed("round", f"this round is {row.status}: its sheets are final")

    # ---- sheets -------------------------------------------------------------------------

    def submit(self, war_id: str, number: int, nation: int, text: str, *, client: str) -> str:
        """Store (or replace, while unsealed) a nation's sheet; its SHA-256."""
        war = self._must_war(war_id)
        with self.engine.begin() as connection:
            self._hold(connection, war["id"])
            row = self._must_round(connection, war_id, number)
            self._must_party(war, row, nation)
            if self._count(connection, client, ("submit", "seal")) >= \
                    SUBMISSIONS_PER_CLIENT_PER_DAY:
                raise InputError("sheet", f"{SUBMISSIONS_PER_CLIENT_PER_DAY} sheets a day from "
                                 "one address at most: try again tomorrow")
            old = row.sheet(nation)
            if old is not None and old.state == "sealed":
                raise SheetSealed("sheet", "this sheet is sealed and can no longer change")
            self._check_sheet(connection, war, row, nation, text, sealing=False)
            sha = sheet_digest(text)
            values = {"body": text, "sha256": sha, "state": "submitted",
                      "submitted": self.clock(), "sealed": None}
            if old is None:
                connection.execute(insert(SHEETS).values(
                    war_id=war_id, round=number, nation=nation, **values))
            else:
                changed = connection.execute(update(SHEETS).where(
                    SHEETS.c.war_id == war_id, SHEETS.c.round == number,
                    SHEETS.c.nation == nation, SHEETS.c.state != "sealed").values(**values))
                if changed.rowcount != 1:
                    raise SheetSealed("sheet", "this sheet is sealed and can no longer change")
            self._log(connection, war_id, client, war["nations"][nation]["name"], "submit",
                      {"round": number, "nation": nation, "sha256": sha})
        return sha

    def _check_sheet(self, connection: Connection, war: dict[str, Any], row: RoundRow,
                     nation: int, text: str, *, sealing: bool) -> None:
        """A sheet is checked as it will be scored, with the terms the war fills in; the
        moderator's approvals are required only to seal (they may come after the sheet)."""
        if row.kind is RoundKind.YEAR:
            nws_sheet(text)
            return
        name = war["nations"][nation]["name"]
        attacking = name == row.header["attacker"]
        enemy = row.header["defender" if attacking else "attacker"]
        standing = load_standing(connection, war["id"])
        assert standing is not None
        filled = battle_terms(standing, row.round, int(row.header["year"]), name, enemy,
                              load_approvals(connection, war["id"]))
        if not sealing:
            filled.setdefault("approved_by", "approval pending")
        check_army_sheet(text, filled, BattleKind(row.header["kind"]), attacking)

    def seal(self, war_id: str, number: int, nation: int, *, client: str) -> str | None:
        """Seal a nation's sheet (checked again, approvals may have changed); the result's
        digest when this seal was the round's last, else None."""
        war = self._must_war(war_id)
        with self.engine.begin() as connection:
            self._hold(connection, war["id"])
            row = self._must_round(connection, war_id, number)
            self._must_party(war, row, nation)
            sheet = row.sheet(nation)
            if sheet is None or sheet.state == "returned":
                raise InputError("sheet", "send the sheet before sealing it")
            if sheet.state == "sealed":
                raise SheetSealed("sheet", "this sheet is already sealed")
            self._check_sheet(connection, war, row, nation, sheet.body, sealing=True)
            changed = connection.execute(update(SHEETS).where(
                SHEETS.c.war_id == war_id, SHEETS.c.round == number, SHEETS.c.nation == nation,
                SHEETS.c.state == "submitted", SHEETS.c.sha256 == sheet.sha256,
            ).values(state="sealed", sealed=self.clock()))
            if changed.rowcount != 1:
                raise SheetSealed("sheet", "this sheet is already sealed")
            self._log(connection, war_id, client, war["nations"][nation]["name"], "seal",
                      {"round": number, "nation": nation, "sha256": sheet.sha256})
        return self._publish_when_sealed(war, number)

    def _publish_when_sealed(self, war: dict[str, Any], number: int) -> str | None:
        """Score and publish the round once every party's sheet is sealed."""
        with self.engine.begin() as connection:
            self._hold(connection, war["id"])
            row = self._must_round(connection, war["id"], number)
            sealed = {s.nation: s for s in row.sheets if s.state == "sealed"}
            if row.status != "open" or set(parties(war, row)) - set(sealed):
                return None
            document = self._document(connection, war, row, sealed)
            found = digest(document)
            moved = connection.execute(update(ROUNDS).where(
                ROUNDS.c.war_id == war["id"], ROUNDS.c.round == number,
                ROUNDS.c.status == "open").values(status="published", digest=found))
            if moved.rowcount != 1:
                return None
            if connection.execute(select(RESULTS.c.digest).where(
                    RESULTS.c.digest == found)).first() is None:
                connection.execute(insert(RESULTS).values(
                    digest=found, war_id=war["id"], round=number,
                    document=canonical_json(document).decode("utf-8"), created=self.clock()))
        return found

    def _document(self, connection: Connection, war: dict[str, Any], row: RoundRow,
                  sealed: dict[int, SheetRow]) -> dict[str, Any]:
        def entry(nation: int) -> tuple[Sheet, str]:
            at = datetime.fromtimestamp(sealed[nation].sealed or 0, UTC)
            return (Sheet(war["nations"][nation]["name"], sealed[nation].body),
                    at.isoformat(timespec="seconds"))

        if row.kind is RoundKind.YEAR:
            return year_document(war, row.round, int(row.header["year"]),
                                 {war["nations"][n]["name"]: entry(n) for n in sorted(sealed)})
        names = [nation["name"] for nation in war["nations"]]
        sides = {side: names.index(row.header[side]) for side in ("attacker", "defender")}
        standing = load_standing(connection, war["id"])
        approvals = load_approvals(connection, war["id"])
        assert standing is not None
        filled = {side: battle_terms(standing, row.round, int(row.header["year"]),
                                     row.header[side], row.header[other], approvals)
                  for side, other in (("attacker", "defender"), ("defender", "attacker"))}
        used = [a for a in approvals if a.round == row.round]
        return battle_document(war, row.round, row.header,
                               {side: entry(index) for side, index in sides.items()},
                               filled, used)

    # ---- the moderator ------------------------------------------------------------------

    def return_sheet(self, war_id: str, number: int, nation: int, reason: str, *,
                     client: str) -> None:
        """Send an unsealed sheet back for correction (recorded with the reason)."""
        war = self._must_war(war_id)
        with self.engine.begin() as connection:
            self._hold(connection, war["id"])
            row = self._must_round(connection, war_id, number)
            self._must_party(war, row, nation)
            changed = connection.execute(update(SHEETS).where(
                SHEETS.c.war_id == war_id, SHEETS.c.round == number, SHEETS.c.nation == nation,
                SHEETS.c.state == "submitted").values(state="returned"))
            if changed.rowcount != 1:
                raise SheetSealed("sheet", "only a sent, unsealed sheet can be returned")
            self._log(connection, war_id, client, war["moderator"], "return",
                      {"round": number, "nation": nation, "reason": reason[:500]})

    def approve(self, war_id: str, number: int, nation: int, by: str, note: str, *,
                client: str) -> None:
        """Record the moderator's approval of a nation's army in a battle round: who and when
        (it fills the sheet's `approved_by`)."""
        by = approver_name(by)
        war = self._must_war(war_id)
        with self.engine.begin() as connection:
            self._hold(connection, war["id"])
            row = self._must_round(connection, war_id, number)
            self._must_party(war, row, nation)
            if row.kind is not RoundKind.BATTLE:
                raise InputError("round", "approvals are given for a battle's armies")
            name = war["nations"][nation]["name"]
            self._log(connection, war_id, client, by, "approve",
                      {"round": number, "nation": name, "by": by, "at": self._now(),
                       "note": note[:500]})

    def close_round(self, war_id: str, number: int, *, client: str) -> None:
        """End a round without a result: every sheet sent so far is shown to everyone."""
        war = self._must_war(war_id)
        with self.engine.begin() as connection:
            self._hold(connection, war["id"])
            changed = connection.execute(update(ROUNDS).where(
                ROUNDS.c.war_id == war_id, ROUNDS.c.round == number,
                ROUNDS.c.status == "open").values(status="closed"))
            if changed.rowcount != 1:
                raise SheetSealed("round", "only an open round can be closed")
            self._log(connection, war_id, client, war["moderator"], "close", {"round": number})

    def log(self, war_id: str) -> list[dict[str, Any]]:
        """The war's log, oldest first: when, who, what (never a token or a sheet's text)."""
        with self.engine.connect() as connection:
            rows = connection.execute(select(LOG).where(LOG.c.war_id == war_id)
                                      .order_by(LOG.c.seq)).all()
        return [{"at": datetime.fromtimestamp(r.at, UTC).isoformat(timespec="seconds"),
                 "actor": r.actor, "action": r.action, **json.loads(r.detail)} for r in rows]
