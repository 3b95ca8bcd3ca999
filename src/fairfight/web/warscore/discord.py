"""`POST /discord/interactions`: the war score as a Discord slash command.

Discord posts every interaction here, signed with the application's key. The signature is
checked on the raw body before anything else (`discord_signature`); a PING is answered with a
PONG (Discord sends one when the endpoint is saved, and bad signatures now and then to check
that they are refused). `/warscore battle` with two attached army sheets is deferred (fetching
the files may take longer than the three seconds Discord waits) and the answer is written
later by editing the deferred reply through Discord's webhook API; a digest or a war id is
a lookup in this service's own store and is answered at once. Every refusal is one line in the
reply, never a traceback.

Without `FAIRFIGHT_DISCORD_PUBLIC_KEY` the path answers 404: the service offers no Discord
endpoint, and a request it cannot verify must not be acted upon.
"""

from __future__ import annotations

import json
import logging
import re
import time
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, BackgroundTasks, FastAPI, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from fairfight.core.errors import InputError
from fairfight.warscore.discord import (
    SHEET_OPTIONS,
    battle_embed,
    notice,
    war_embed,
    year_embed,
)
from fairfight.warscore.published import published_result, war_standing
from fairfight.warscore.store import Bind, WarStore
from fairfight.web.errors import error_body
from fairfight.web.warscore.builder import Outcome, check_battle_data
from fairfight.web.warscore.discord_sheets import (
    ClientFactory,
    SheetLink,
    default_client,
    fetch_sheet,
    read_sheet,
    sheet_link,
)
from fairfight.web.warscore.discord_signature import (
    SIGNATURE_HEADER,
    TIMESTAMP_HEADER,
    SignatureRefused,
    public_key,
    verify_request,
)

__all__ = [
    "BattleRequest",
    "DISCORD_API",
    "PATH",
    "YEAR_LIMIT",
    "battle_request",
    "finish_battle",
    "install",
    "interactions",
    "published_reply",
    "router",
    "standing_reply",
]

router = APIRouter()
PATH = "/discord/interactions"
DISCORD_API = "https://discord.com/api/v10"
"""Where the deferred reply is edited: `PATCH /webhooks/{application}/{token}/messages/@original`
(the interaction's token is the credential; it lasts fifteen minutes)."""
_PING, _COMMAND = 1, 2
_PONG, _MESSAGE, _DEFERRED = 1, 4, 5
_SNOWFLAKE = re.compile(r"[0-9]{1,25}")
_TOKEN = re.compile(r"[A-Za-z0-9._-]{1,1000}")
_DIGEST = re.compile(r"[0-9a-f]{64}")
_WAR_ID = re.compile(r"[0-9a-f]{1,32}")
_KINDS = ("land", "naval")
YEAR_LIMIT = 1_000_000
"""The year option's bounds, as registered with Discord (which enforces them too)."""
_log = logging.getLogger(__name__)


def install(app: FastAPI) -> None:
    """The HTTP client maker for attachments and deferred replies, unless a test set one.
    The stored wars are read from the store the war pages opened (`app.state.war_store`)."""
    if not hasattr(app.state, "discord_client"):
        app.state.discord_client = default_client


def _refusal(status: int, field: str, message: str) -> JSONResponse:
    return JSONResponse(error_body(field, message), status_code=status)


def _reply(data: dict[str, Any]) -> JSONResponse:
    return JSONResponse({"type": _MESSAGE, "data": data})


@dataclass(frozen=True, slots=True)
class BattleRequest:
    """`/warscore battle`'s options, checked: two sheet links or a digest, and the battle's
    name, year and kind."""

    sheets: tuple[SheetLink, ...]
    digest: str | None
    name: str
    year: int | None
    kind: str


def _subcommand(data: Any) -> tuple[str, dict[str, Any]]:
    """The subcommand's name and its options by name, from the interaction's `data`."""
    options = data.get("options") if isinstance(data, dict) else None
    if not isinstance(options, list) or len(options) != 1 or not isinstance(options[0], dict):
        raise InputError("command", "give /warscore battle or /warscore war")
    chosen = options[0]
    given = chosen.get("options") or []
    if not isinstance(given, list) or not all(isinstance(o, dict) for o in given):
        raise InputError(str(chosen.get("name")), "its options could not be read")
    return str(chosen.get("name")), {str(o.get("name")): o.get("value") for o in given}


def _text_option(options: dict[str, Any], name: str) -> str | None:
    value = options.get(name)
    if value is None:
        return None
    if not isinstance(value, str) or not 1 <= len(value) <= 120:
        raise InputError(name, "must be text of 1 to 120 characters")
    return value


def battle_request(options: dict[str, Any], resolved: Any) -> BattleRequest:
    """Check `/warscore battle`'s options before any work: either a digest or both sheets,
    and with sheets a year; no link is fetched here."""
    unknown = sorted(set(options) - {*SHEET_OPTIONS, "year", "name", "kind", "digest"})
    if unknown:
        raise InputError(unknown[0], "is not an option of /warscore battle")
    digest = _text_option(options, "digest")
    attached = [name for name in SHEET_OPTIONS if name in options]
    if digest is not None:
        if attached or _DIGEST.fullmatch(digest) is None:
            raise InputError("digest", "give a result's digest (64 hex digits) alone, "
                             "or two sheets")
        return BattleRequest((), digest, "", None, "land")
    if len(attached) != 2:
        raise InputError("attacker" if "attacker" not in options else "defender",
                         "attach both army sheets (attacker and defender), or give a digest")
    year = options.get("year")
    if not isinstance(year, int) or isinstance(year, bool):
        raise InputError("year", "is required with two sheets (a whole number)")
    if not -YEAR_LIMIT <= year <= YEAR_LIMIT:
        raise InputError("year", f"must lie between -{YEAR_LIMIT:,} and {YEAR_LIMIT:,}")
    kind = _text_option(options, "kind") or "land"
    if kind not in _KINDS:
        raise InputError("kind", "must be land or naval")
    sheets = tuple(sheet_link(name, options[name], resolved) for name in SHEET_OPTIONS)
    return BattleRequest(sheets, None, _text_option(options, "name") or "Battle", year, kind)


def _scored(battle: BattleRequest, texts: list[str]) -> Outcome:
    """Read both sheets and score the battle exactly as the builder does (off the event
    loop: parsing and scoring are the request's only real work)."""
    armies = {link.option: read_sheet(link.option, text)
              for link, text in zip(battle.sheets, texts, strict=True)}
    return check_battle_data({"battle": battle.name, "year": battle.year,
                              "kind": battle.kind, **armies})


async def _battle_message(client_factory: ClientFactory, battle: BattleRequest
                          ) -> dict[str, Any]:
    """Fetch and read both sheets, then score the battle exactly as the builder does."""
    async with client_factory() as client:
        texts = [await fetch_sheet(client, link) for link in battle.sheets]
    outcome = await run_in_threadpool(_scored, battle, texts)
    if outcome.errors or outcome.result is None:
        first = outcome.errors[0]
        return notice(f"{first.field}: {first.message}", private=False)
    return {"embeds": [battle_embed(outcome.result)], "allowed_mentions": {"parse": []}}


async def _edit_original(client_factory: ClientFactory, application: str, token: str,
                         message: dict[str, Any]) -> None:
    """Replace the deferred "thinking" reply with the answer."""
    url = f"{DISCORD_API}/webhooks/{application}/{token}/messages/@original"
    try:
        async with client_factory() as client:
            answer = await client.patch(url, json=message)
        if answer.status_code >= 400:
            _log.warning("Discord refused the deferred reply: HTTP %s", answer.status_code)
    except Exception as error:  # the interaction is already answered; only the log can tell
        _log.warning("the deferred reply could not be sent: %s", type(error).__name__)


async def finish_battle(client_factory: ClientFactory, application: str, token: str,
                        battle: BattleRequest) -> None:
    """The deferred half of `/warscore battle`: score, then edit the reply; any failure
    becomes one line in the reply."""
    try:
        message = await _battle_message(client_factory, battle)
    except InputError as error:
        message = notice(f"{error.field}: {error.rule}", private=False)
    except Exception:  # never a traceback in the channel; the log keeps the details
        _log.exception("scoring a Discord battle failed")
        message = notice("The battle could not be scored (an unexpected error); "
                         "nothing was recorded.", private=False)
    await _edit_original(client_factory, application, token, message)


def _identity(interaction: dict[str, Any]) -> tuple[str, str]:
    application, token = interaction.get("application_id"), interaction.get("token")
    if not isinstance(application, str) or _SNOWFLAKE.fullmatch(application) is None:
        raise InputError("application_id", "must be a Discord id")
    if not isinstance(token, str) or _TOKEN.fullmatch(token) is None:
        raise InputError("token", "must be an interaction token")
    return application, token


async def _command(request: Request, interaction: dict[str, Any],
                   background: BackgroundTasks) -> JSONResponse:
    """A `/warscore` command: deferred when sheets must be fetched, else answered at once."""
    data = interaction.get("data")
    try:
        application, token = _identity(interaction)
        name, options = _subcommand(data)
        if name == "war":  # a few reads of the store, kept off the event loop
            return _reply(await run_in_threadpool(standing_reply, request, options))
        if name != "battle":
            raise InputError("command", f"/warscore {name} is not a command of this service")
        battle = battle_request(options, data.get("resolved") if isinstance(data, dict)
                                else None)
    except InputError as error:
        return _reply(notice(f"{error.field}: {error.rule}"))
    if battle.digest is not None:
        return _reply(await run_in_threadpool(published_reply, request, battle.digest))
    background.add_task(finish_battle, request.app.state.discord_client, application, token,
                        battle)
    return JSONResponse({"type": _DEFERRED})


def _war_bind(request: Request) -> Bind:
    store: WarStore = request.app.state.war_store
    return store.engine


def _base_url(request: Request) -> str:
    """The service's public address (the configured one, else the request's)."""
    configured = request.app.state.settings.public_url
    return str(configured or request.base_url).rstrip("/")


def _embeds(*embeds: dict[str, Any]) -> dict[str, Any]:
    return {"embeds": list(embeds), "allowed_mentions": {"parse": []}}


def published_reply(request: Request, digest: str) -> dict[str, Any]:
    """A published result by its digest: the battle's embed, or the year's scores."""
    found = published_result(_war_bind(request), digest, _base_url(request))
    if found is None:
        return notice(f"digest: no result published on this service has the digest {digest}")
    if found.document.get("kind") == "year":
        return _embeds(year_embed(found.document, found.link, digest))
    return _embeds(battle_embed(found.figures(), found.link, digest))


def standing_reply(request: Request, options: dict[str, Any]) -> dict[str, Any]:
    """The standing of a stored war, by the id in its links."""
    war_id = options.get("war")
    if not isinstance(war_id, str) or _WAR_ID.fullmatch(war_id) is None:
        raise InputError("war", "must be a war's id (the letters and digits after /wars/ "
                         "in its links)")
    standing = war_standing(_war_bind(request), war_id)
    if standing is None:
        return notice(f"war: no war on this service has the id {war_id}")
    return _embeds(war_embed(standing, f"{_base_url(request)}/warscore/wars/{war_id}"))


@router.post(PATH, include_in_schema=False)
async def interactions(request: Request, background: BackgroundTasks) -> JSONResponse:
    """Verify Discord's signature, then answer a PING or run a `/warscore` command."""
    key = request.app.state.settings.discord_public_key
    if key is None:
        return _refusal(404, "discord", "Discord interactions are not set up on this service "
                        "(FAIRFIGHT_DISCORD_PUBLIC_KEY is unset)")
    body = await request.body()
    try:
        verify_request(public_key(key), request.headers.get(SIGNATURE_HEADER),
                       request.headers.get(TIMESTAMP_HEADER), body, time.time())
    except SignatureRefused as refused:
        return _refusal(401, refused.header, refused.rule)
    try:
        interaction = json.loads(body)
    except (ValueError, RecursionError):
        return _refusal(400, "body", "is not JSON")
    kind = interaction.get("type") if isinstance(interaction, dict) else None
    if kind == _PING:
        return JSONResponse({"type": _PONG})
    if kind != _COMMAND or not isinstance(interaction.get("data"), dict) \
            or interaction["data"].get("name") != "warscore":
        return _refusal(400, "type", "only PING and the /warscore command are handled here")
    return await _command(request, interaction, background)
