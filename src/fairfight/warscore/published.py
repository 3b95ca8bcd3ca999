"""Published results of a stored war: the document, its digest, its posts, and the re-run.

A result is one JSON document holding both sealed sheets as they were sent (with their
SHA-256), the terms the war filled in, the moderator's approvals and the figures. Its digest is
the SHA-256 of the document's canonical JSON (`fairfight.core.records`); the page
`/warscore/r/{digest}` serves it, and `verify_published` scores the sheets again and compares
every figure, which is what `fairfight warscore verify FILE` and the page's re-run do.

`published_result(bind, digest)` and `war_standing(bind, war_id)` read the service database
(an Engine, a Connection or a Session) for other parts of the service.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fairfight.core.errors import InputError
from fairfight.core.records import digest as record_digest
from fairfight.warscore.export import battle_json, nws_json
from fairfight.warscore.forum import Line, PostFormat, battle_lines, nws_lines, render
from fairfight.warscore.history import Approval, WarStanding
from fairfight.warscore.sealed import Sheet, battle_of_sheets, nws_sheet, year_of_sheets

if TYPE_CHECKING:
    from fairfight.warscore.store.reads import Bind

__all__ = [
    "FORMAT",
    "VERSION",
    "Check",
    "PublishedResult",
    "battle_document",
    "posts_of",
    "published_result",
    "result_link",
    "verify_published",
    "war_standing",
    "year_document",
]

FORMAT = "fairfight-warscore-result"
VERSION = 1


def _sheet_entry(sheet: Sheet, sealed_at: str) -> dict[str, Any]:
    return {"nation": sheet.nation, "text": sheet.text, "sha256": sheet.sha256(),
            "sealed_at": sealed_at}


def battle_document(war: dict[str, Any], round_number: int, header: dict[str, Any],
                    sheets: dict[str, tuple[Sheet, str]], filled: dict[str, dict[str, Any]],
                    approvals: list[Approval]) -> dict[str, Any]:
    """A battle's result document: `sheets` maps attacker/defender to (sheet, sealed time)."""
    battle, result = battle_of_sheets(
        header, {side: sheet.text for side, (sheet, _) in sheets.items()}, filled)
    return {
        "format": FORMAT, "version": VERSION, "kind": "battle",
        "war": {"id": war["id"], "name": war["name"], "round": round_number},
        "battle": header,
        "sheets": {side: _sheet_entry(sheet, at) for side, (sheet, at) in sheets.items()},
        "filled": filled,
        "approvals": [{"nation": a.nation, "by": a.by, "at": a.at, "note": a.note}
                      for a in approvals],
        "input": battle.model_dump(mode="json"),
        "result": battle_json(result),
    }


def year_document(war: dict[str, Any], round_number: int, year: int,
                  sheets: dict[str, tuple[Sheet, str]]) -> dict[str, Any]:
    """A year's result document: every nation's NWS sheet and its score."""
    texts = {nation: sheet.text for nation, (sheet, _) in sheets.items()}
    scores = year_of_sheets(year, texts)
    return {
        "format": FORMAT, "version": VERSION, "kind": "year",
        "war": {"id": war["id"], "name": war["name"], "round": round_number},
        "year": year,
        "sheets": {nation: _sheet_entry(sheet, at) for nation, (sheet, at) in sheets.items()},
        "input": {nation: nws_sheet(text, f"{nation}.sheet").model_dump(mode="json")
                  for nation, text in texts.items()},
        "result": {"nws": [nws_json(score) for score in scores]},
    }


def result_link(base_url: str, digest: str) -> str:
    """The permanent page of a result."""
    return f"{base_url.rstrip('/')}/warscore/r/{digest}"


def _figures(document: dict[str, Any]) -> list[Line]:
    """The result's blocks, scored again from the document's sheets."""
    if document["kind"] == "year":
        sheets = {nation: entry["text"] for nation, entry in document["sheets"].items()}
        return [nws_lines(score) for score in year_of_sheets(int(document["year"]), sheets)]
    sheets = {side: entry["text"] for side, entry in document["sheets"].items()}
    _, result = battle_of_sheets(document["battle"], sheets, document["filled"])
    return [battle_lines(result)]


def posts_of(document: dict[str, Any], digest: str, base_url: str) -> dict[str, str]:
    """The forum posts (text and BBCode), each ending with the result's link and digest."""
    link = result_link(base_url, digest)
    blocks = _figures(document)
    seals = ", ".join(f"{entry['nation']} {entry['sha256'][:16]}"
                      for entry in document["sheets"].values())
    return {
        "text": render([*blocks, Line(f"Sealed sheets (SHA-256): {seals}"),
                        Line(f"Result {digest}: {link}")], PostFormat.TEXT),
        "bbcode": render([*blocks, Line(f"Sealed sheets (SHA-256): {seals}"),
                          Line(f"[url={link}]Result {digest}[/url]")], PostFormat.BBCODE),
    }


@dataclass(frozen=True, slots=True)
class Check:
    """One check of a re-run: what was compared, whether it held, and what was found."""

    name: str
    ok: bool
    detail: str


@dataclass(frozen=True, slots=True)
class PublishedResult:
    """A result as published: its digest, the document (sheets, terms, figures) and posts."""

    digest: str
    document: dict[str, Any]
    posts: dict[str, str]
    link: str

    def sheets(self) -> dict[str, dict[str, Any]]:
        """Each sheet (nation, text, sha256, sealed_at) by side or nation."""
        sheets: dict[str, dict[str, Any]] = self.document["sheets"]
        return sheets

    def figures(self) -> dict[str, Any]:
        """The result in the documented JSON shape (a battle, or the year's NWS list)."""
        figures: dict[str, Any] = self.document["result"]
        return figures

    def as_json(self) -> dict[str, Any]:
        """The file `fairfight warscore verify` reads."""
        return {"digest": self.digest, "link": self.link, "document": self.document,
                "posts": self.posts}


def _scored_again(document: dict[str, Any]) -> tuple[Any, Any]:
    """The input read again from the sheets (and the war's terms), and its result."""
    if document["kind"] == "year":
        sheets = {nation: entry["text"] for nation, entry in document["sheets"].items()}
        again = {nation: nws_sheet(text, f"{nation}.sheet").model_dump(mode="json")
                 for nation, text in sheets.items()}
        return again, {"nws": [nws_json(s) for s in year_of_sheets(int(document["year"]),
                                                                    sheets)]}
    sheets = {side: entry["text"] for side, entry in document["sheets"].items()}
    battle, result = battle_of_sheets(document["battle"], sheets, document["filled"])
    return battle.model_dump(mode="json"), battle_json(result)


def _shape(data: Any) -> dict[str, Any]:
    """The published file's top level, or an InputError naming what is missing."""
    if not isinstance(data, dict) or not isinstance(data.get("document"), dict):
        raise InputError("document", "a published result is an object with a `document`")
    document: dict[str, Any] = data["document"]
    if document.get("format") != FORMAT or document.get("version") != VERSION:
        raise InputError("document.format", f"must be {FORMAT} version {VERSION}")
    if document.get("kind") not in ("battle", "year") or not isinstance(
            document.get("sheets"), dict):
        raise InputError("document.kind", "must be a battle or a year, with its sheets")
    return document


def verify_published(data: Any) -> list[Check]:
    """Every check of a published result: the digest, each sheet's SHA-256, the figures scored
    again from the sheets, and the posts; InputError when the file is not a result at all."""
    document = _shape(data)
    digest = record_digest(document)
    checks = [Check("digest", digest == data.get("digest"),
                    f"SHA-256 of the document is {digest}")]
    for key, entry in document["sheets"].items():
        text = entry.get("text") if isinstance(entry, dict) else None
        if not isinstance(text, str):
            raise InputError(f"document.sheets.{key}.text", "must be the sheet's text")
        found = Sheet(str(entry.get("nation")), text).sha256()
        checks.append(Check(f"sheet {key}", found == entry.get("sha256"),
                            f"SHA-256 of the sheet is {found}"))
    try:
        armies, again = _scored_again(document)
    except InputError as error:
        return [*checks, Check("figures", False, f"the sheets do not score: {error}")]
    except (KeyError, TypeError, AttributeError) as error:
        raise InputError("document", f"is not a complete result (missing or malformed "
                         f"{str(error)[:60]})") from None
    same = armies == document.get("input")
    checks.append(Check("input", same, "read again from the sheets and the war's terms" if same
                        else "the sheets read differently from the published input"))
    same = again == document.get("result")
    checks.append(Check("figures", same, "scored again from the sheets" if same
                        else "the sheets score differently from the published figures"))
    if "posts" in data:
        base = str(data.get("link", "")).removesuffix(f"/warscore/r/{digest}")
        same = posts_of(document, digest, base) == data["posts"]
        checks.append(Check("posts", same, "written again from the figures" if same
                            else "the posts differ from the figures"))
    return checks


def published_result(bind: Bind, digest: str, base_url: str = "") -> PublishedResult | None:
    """A published result by its digest (None when there is none), with its posts linking to
    `base_url`; `bind` is the service database's Engine, Connection or Session."""
    from fairfight.warscore.store.reads import load_result

    document = load_result(bind, digest)
    if document is None:
        return None
    return PublishedResult(digest, document, posts_of(document, digest, base_url),
                           result_link(base_url, digest))


def war_standing(bind: Bind, war_id: str) -> WarStanding | None:
    """A stored war's standing (nations and sides, the years' scores, the battles in order),
    or None when there is no such war."""
    from fairfight.warscore.store.reads import load_standing

    return load_standing(bind, war_id)
