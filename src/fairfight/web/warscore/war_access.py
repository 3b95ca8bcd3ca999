"""Who is asking about a stored war: the moderator's link, a nation's link, or anyone.

The rules are the ballot seats': a link carries its token once; following it stores the token
in an HttpOnly, SameSite=Lax cookie for that war and redirects to a URL without it. Programs
send `X-Moderator-Token` or `X-Nation-Token` instead. The store keeps only SHA-256 digests.
"""

from __future__ import annotations

import re
from typing import Annotated

from fastapi import Depends, HTTPException, Request
from fastapi.responses import Response

from fairfight.warscore.store import Viewer, WarStore

__all__ = [
    "COOKIE_DAYS",
    "COOKIE_PREFIX",
    "MODERATOR_HEADER",
    "NATION_HEADER",
    "Store",
    "keep_token",
    "moderator_cookie",
    "nation_cookie",
    "require_moderator",
    "require_nation",
    "store_of",
    "valid_war_id",
    "viewer_of",
]

COOKIE_PREFIX = "warscore_"
COOKIE_DAYS = 365
"""A war runs for months of forum time; its links are kept as long."""
MODERATOR_HEADER = "x-moderator-token"
NATION_HEADER = "x-nation-token"
_WAR_ID = re.compile(r"^[0-9a-f]{16}$")


def keep_token(request: Request, response: Response, name: str, token: str) -> None:
    """Set a token cookie: HttpOnly, SameSite=Lax, Secure when served over https."""
    response.set_cookie(name, token, max_age=COOKIE_DAYS * 86400, path="/", httponly=True,
                        samesite="lax", secure=request.url.scheme == "https")


def store_of(request: Request) -> WarStore:
    """The war store of the app serving this request (a dependency)."""
    store: WarStore = request.app.state.war_store
    return store


Store = Annotated[WarStore, Depends(store_of)]


def valid_war_id(war_id: str) -> str:
    """A war id as the store makes them (16 hex digits); anything else is no war (404)."""
    if not _WAR_ID.match(war_id):
        raise HTTPException(404, "no such war")
    return war_id


def moderator_cookie(war_id: str) -> str:
    """The cookie that keeps a war's moderator token."""
    return f"{COOKIE_PREFIX}{war_id}_moderator"


def nation_cookie(war_id: str, nation: int) -> str:
    """The cookie that keeps a nation's token."""
    return f"{COOKIE_PREFIX}{war_id}_{nation}"


def _moderator(request: Request, store: WarStore, war_id: str) -> bool:
    token = request.headers.get(MODERATOR_HEADER) or request.cookies.get(
        moderator_cookie(war_id))
    return store.is_moderator(war_id, token)


def _nation(request: Request, store: WarStore, war_id: str, count: int) -> int | None:
    header = request.headers.get(NATION_HEADER)
    for nation in range(count):
        token = header or request.cookies.get(nation_cookie(war_id, nation))
        if token and store.is_nation(war_id, nation, token):
            return nation
    return None


def viewer_of(request: Request, store: WarStore, war_id: str, nations: int) -> Viewer:
    """Who the request speaks for in this war (moderator, one nation, or neither)."""
    return Viewer(moderator=_moderator(request, store, war_id),
                  nation=_nation(request, store, war_id, nations))


def require_moderator(request: Request, store: WarStore, war_id: str) -> None:
    """Refuse (403) unless the request carries the war's moderator token."""
    if not _moderator(request, store, war_id):
        raise HTTPException(403, "the moderator's link (or its cookie) is needed")


def require_nation(request: Request, store: WarStore, war_id: str, nation: int) -> None:
    """Refuse (403) unless the request carries this nation's token."""
    token = request.headers.get(NATION_HEADER) or request.cookies.get(
        nation_cookie(war_id, nation))
    if not store.is_nation(war_id, nation, token):
        raise HTTPException(403, "this nation's link (or its cookie) is needed")
