"""The stored wars' JSON API: create a war, open rounds, send and seal sheets, the moderator's
returns, approvals and closes, a war's standing and a published result.

Tokens travel in `X-Moderator-Token` / `X-Nation-Token`; a write to a sealed sheet or a settled
round answers 409. The pages (`war_routes`) call the same store methods.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from fairfight.warscore.published import published_result
from fairfight.warscore.sealed import SHEET_MAX_BYTES, RoundSetup, WarSetup
from fairfight.warscore.store import SheetSealed, WarStore, load_standing
from fairfight.web.strict_input import Id
from fairfight.web.warscore.war_access import (
    Store,
    require_moderator,
    require_nation,
    valid_war_id,
    viewer_of,
)
from fairfight.web.warscore.war_view import WarView, war_view

__all__ = [
    "ApproveBody",
    "CreatedWar",
    "ReturnBody",
    "SheetBody",
    "Text",
    "api_approve",
    "api_close",
    "api_create",
    "api_open_round",
    "api_result",
    "api_return",
    "api_seal",
    "api_submit",
    "api_tables",
    "api_war",
    "base_url",
    "client_of",
    "links",
    "must_war",
    "router",
    "sealed_conflict",
]

router = APIRouter(tags=["warscore"])
Text = Annotated[str, StringConstraints(max_length=500)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SheetBody(_Body):
    """A sheet as YAML text."""

    sheet: str = Field(max_length=SHEET_MAX_BYTES)


class ReturnBody(_Body):
    """Why the moderator sends a sheet back."""

    reason: Text = ""


class ApproveBody(_Body):
    """Who approves a nation's army in a battle round, and why."""

    by: Annotated[str, StringConstraints(min_length=1, max_length=120)]
    note: Text = ""


class CreatedWar(BaseModel):
    """A new war: its id and links (shown once: only their SHA-256 is kept)."""

    id: str
    moderator_link: str
    nation_links: dict[str, str]


def base_url(request: Request) -> str:
    """The service's public address (the configured one, else the request's)."""
    configured = request.app.state.settings.public_url
    return str(configured or str(request.base_url)).rstrip("/")


def client_of(request: Request) -> str:
    """The address the caps count."""
    return request.client.host if request.client else "unknown"


def must_war(store: WarStore, war_id: str) -> dict[str, Any]:
    """The war's configuration, or 404."""
    war = store.war(valid_war_id(war_id))
    if war is None:
        raise HTTPException(404, "no such war")
    return war


def sealed_conflict(error: SheetSealed) -> HTTPException:
    """A write to something final: 409 with the rule."""
    return HTTPException(409, f"{error.field}: {error.rule}")


def links(request: Request, war_id: str, moderator: str, tokens: dict[int, str],
          war: dict[str, Any]) -> CreatedWar:
    """The links a new war's creator hands out."""
    base = base_url(request)
    return CreatedWar(
        id=war_id, moderator_link=f"{base}/warscore/wars/{war_id}/moderate?token={moderator}",
        nation_links={war["nations"][n]["name"]: f"{base}/warscore/wars/{war_id}/join/{n}"
                      f"?token={token}" for n, token in tokens.items()})


@router.post("/api/warscore/wars", response_model=CreatedWar, status_code=201)
def api_create(request: Request, setup: WarSetup, store: Store) -> CreatedWar:
    """Create a war; the answer holds the moderator's and each nation's link."""
    war_id, moderator, tokens = store.create(setup, client=client_of(request))
    return links(request, war_id, moderator, tokens, setup.config())


@router.get("/api/warscore/wars/{war_id}", response_model=WarView)
def api_war(request: Request, war_id: str, store: Store) -> WarView:
    """A war's standing and rounds, as the caller may see them."""
    war = must_war(store, war_id)
    standing = load_standing(store.engine, war["id"])
    assert standing is not None
    return war_view(store, war, standing,
                    viewer_of(request, store, war["id"], len(war["nations"])))


@router.post("/api/warscore/wars/{war_id}/rounds", status_code=201)
def api_open_round(request: Request, war_id: str, setup: RoundSetup,
                   store: Store) -> dict[str, int]:
    """The moderator opens a battle or a year."""
    war = must_war(store, war_id)
    require_moderator(request, store, war["id"])
    return {"round": store.open_round(war["id"], setup, client=client_of(request))}


@router.put("/api/warscore/wars/{war_id}/rounds/{number}/sheets/{nation}")
def api_submit(request: Request, war_id: str, number: Id, nation: Id, body: SheetBody,
               store: Store) -> dict[str, str]:
    """A nation sends (or, while unsealed, replaces) its sheet; 409 once it is sealed."""
    war = must_war(store, war_id)
    require_nation(request, store, war["id"], nation)
    try:
        return {"sha256": store.submit(war["id"], number, nation, body.sheet,
                                       client=client_of(request))}
    except SheetSealed as error:
        raise sealed_conflict(error) from None


@router.post("/api/warscore/wars/{war_id}/rounds/{number}/sheets/{nation}/seal")
def api_seal(request: Request, war_id: str, number: Id, nation: Id,
             store: Store) -> dict[str, Any]:
    """A nation seals its sheet; the result's digest when every party has sealed."""
    war = must_war(store, war_id)
    require_nation(request, store, war["id"], nation)
    try:
        found = store.seal(war["id"], number, nation, client=client_of(request))
    except SheetSealed as error:
        raise sealed_conflict(error) from None
    return {"sealed": True, "digest": found}


@router.post("/api/warscore/wars/{war_id}/rounds/{number}/sheets/{nation}/return")
def api_return(request: Request, war_id: str, number: Id, nation: Id, body: ReturnBody,
               store: Store) -> dict[str, bool]:
    """The moderator sends an unsealed sheet back for correction (recorded)."""
    war = must_war(store, war_id)
    require_moderator(request, store, war["id"])
    try:
        store.return_sheet(war["id"], number, nation, body.reason, client=client_of(request))
    except SheetSealed as error:
        raise sealed_conflict(error) from None
    return {"returned": True}


@router.post("/api/warscore/wars/{war_id}/rounds/{number}/sheets/{nation}/approve")
def api_approve(request: Request, war_id: str, number: Id, nation: Id, body: ApproveBody,
                store: Store) -> dict[str, bool]:
    """The moderator approves a nation's army for this battle (who and when are recorded)."""
    war = must_war(store, war_id)
    require_moderator(request, store, war["id"])
    try:
        store.approve(war["id"], number, nation, body.by, body.note, client=client_of(request))
    except SheetSealed as error:
        raise sealed_conflict(error) from None
    return {"approved": True}


@router.post("/api/warscore/wars/{war_id}/rounds/{number}/close")
def api_close(request: Request, war_id: str, number: Id, store: Store) -> dict[str, bool]:
    """The moderator ends a round without a result: its sheets are shown to everyone."""
    war = must_war(store, war_id)
    require_moderator(request, store, war["id"])
    try:
        store.close_round(war["id"], number, client=client_of(request))
    except SheetSealed as error:
        raise sealed_conflict(error) from None
    return {"closed": True}


@router.get("/api/warscore/r/{digest}")
def api_result(request: Request, digest: str, store: Store) -> JSONResponse:
    """A published result: the file `fairfight warscore verify` reads."""
    result = published_result(store.engine, digest.lower(), base_url(request)) \
        if len(digest) == 64 else None
    if result is None:
        raise HTTPException(404, "no such result")
    return JSONResponse(result.as_json())


def _values(table: Any) -> dict[str, str]:
    return {str(key): str(row.value) for key, row in table.items()}


@router.get("/api/warscore/tables")
def api_tables() -> dict[str, Any]:
    """Every value of the rules' tables, for the result page's re-run in the browser."""
    from fairfight.warscore import tables as t

    return {
        "special_units": _values(t.SPECIAL_UNITS), "races": _values(t.RACES),
        "ballista": _values(t.BALLISTA), "cavalry": _values(t.CAVALRY),
        "ships": _values(t.SHIPS), "nws_standing": _values(t.NWS_STANDING),
        "numbers": _values(t.NUMBERS), "previous": _values(t.PREVIOUS_BATTLES),
        "positioning": _values(t.POSITIONING), "morale_specials": _values(t.MORALE_SPECIALS),
        "defensives": {**_values(t.LAND_DEFENSIVES), **_values(t.HARBOUR_DEFENSIVES)},
        "armor": _values(t.ARMOR), "weapons": _values(t.WEAPONS),
        "pikes_cavalry": str(t.PIKES_CAVALRY_MULTIPLIER), "mithril": str(t.MITHRIL_BONUS),
        "scant": str(t.SCANT_ARMOR_PENALTY), "troops_per_point": t.TROOPS_PER_POINT,
        "nws_dominance": t.NWS_DOMINANCE_FACTOR, "nws_near": t.NWS_NEAR_MARGIN,
        "outnumber": t.OUTNUMBER_RATIO,
        "tiers": [[str(tier), str(row.floor)] for tier, row in t.TIERS.items()],
        "nws": {name: _values(table) for name, table in (
            ("population", t.POPULATION), ("industry", t.INDUSTRY),
            ("technology", t.NATIONAL_TECHNOLOGY), ("government", t.GOVERNMENT),
            ("eagerness", t.EAGERNESS), ("weariness", t.WEARINESS),
            ("readiness", t.READINESS))},
        "fronts": {str(k): v for k, v in t.FRONTS.items()}, "further_front": t.FURTHER_FRONT,
    }
