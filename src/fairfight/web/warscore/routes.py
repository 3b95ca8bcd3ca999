"""War score pages and their JSON twins: the battle builder, war files, the rules page.

Pages work without JavaScript (the form posts and the answer is the same page with the
result or the refusals beside their fields); `static/warscore/builder.js` adds validation as
you type through `/api/warscore/check`, which reads the same form fields.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, File, Request, UploadFile
from fastapi.responses import HTMLResponse, PlainTextResponse, Response
from pydantic import BaseModel, Field

from fairfight.warscore import (
    BattleInput,
    PostFormat,
    WarInput,
    battle_json,
    battle_post,
    demonstration_battle,
    rules_page,
    score_battle,
    score_war,
    war_json,
    war_post,
)
from fairfight.web.markup import markdown_html
from fairfight.web.templating import templates
from fairfight.web.warscore.builder import (
    FieldError,
    FormValues,
    Outcome,
    battle_to_values,
    check_battle_data,
    check_nws,
    check_war_text,
    read_battle_or_war,
    values_from_form,
    values_of,
    values_to_data,
    yaml_of,
)
from fairfight.web.warscore.fields import ARMY_SECTIONS, BATTLE_FIELDS, NWS_FORM, SIDES

__all__ = [
    "BattleAnswer",
    "CheckAnswer",
    "EXAMPLE_WAR",
    "ErrorItem",
    "NAV",
    "UPLOAD_MAX_BYTES",
    "WarAnswer",
    "WarText",
    "api_battle",
    "api_check",
    "api_demonstration",
    "api_nws_check",
    "api_rules",
    "api_war",
    "api_war_check",
    "builder_download",
    "builder_page",
    "builder_post",
    "builder_upload",
    "nws_post_page",
    "router",
    "rules_html",
    "war_page",
    "war_post_page",
]

router = APIRouter()
NAV = (40, "War score", "/warscore")
UPLOAD_MAX_BYTES = 64 * 1024
"""A battle or war file is a few kilobytes; anything larger is refused before it is read."""
EXAMPLE_WAR = """war: A small war
nations:
  - name: Gondor
  - name: Mordor
years:
  - year: 3019
    nws:
      Gondor: {population: over-1-million, industry: proto-industrial, technology: middle,
               government: supported-monarchy, eagerness: supported-war,
               weariness: well-supplied, readiness: in-position-or-stockpiled, fronts: 1}
      Mordor: {population: over-5-million, industry: lightly-industrialized,
               technology: middle, government: unsupported-dictatorship, eagerness: zealous,
               weariness: fully-supplied, readiness: in-position-stockpiled, fronts: 2}
    battles: []
"""


class BattleAnswer(BaseModel):
    """A scored battle: the documented JSON result and the forum post in both formats."""

    result: dict[str, Any]
    text: str
    bbcode: str


class WarAnswer(BattleAnswer):
    """A scored war: per year each nation's NWS and each battle, and the posts."""


class ErrorItem(BaseModel):
    """One refusal: the field's dotted path and the rule it broke."""

    field: str
    message: str


class CheckAnswer(BaseModel):
    """Live validation: every refusal by field, or the result and posts when there is none."""

    valid: bool
    errors: list[ErrorItem]
    result: dict[str, Any] | None
    text: str
    bbcode: str


class WarText(BaseModel):
    """A war (or battle) file as YAML text, as typed into the war page."""

    yaml: str = Field(max_length=UPLOAD_MAX_BYTES)


def _builder(request: Request, values: FormValues, outcome: Outcome | None,
             status: int = 200, notice: str = "") -> HTMLResponse:
    errors = {} if outcome is None else {e.field: e.message for e in outcome.errors}
    return templates.TemplateResponse(
        request, "warscore/builder.html",
        {"values": values, "errors": errors, "outcome": outcome, "sides": SIDES,
         "battle_fields": BATTLE_FIELDS, "sections": ARMY_SECTIONS, "notice": notice,
         "upload_max": UPLOAD_MAX_BYTES},
        status_code=status,
    )


def _war_page(request: Request, text: str, outcome: Outcome | None, status: int = 200,
              nws_values: FormValues | None = None,
              nws_outcome: Outcome | None = None) -> HTMLResponse:
    nws_errors = {} if nws_outcome is None else {e.field: e.message for e in nws_outcome.errors}
    return templates.TemplateResponse(
        request, "warscore/war.html",
        {"text": text, "outcome": outcome, "upload_max": UPLOAD_MAX_BYTES,
         "nws_fields": NWS_FORM, "nws_values": nws_values or {}, "nws_errors": nws_errors,
         "nws_outcome": nws_outcome}, status_code=status)


def _status(outcome: Outcome) -> int:
    return 200 if outcome.valid else 422


async def _form_values(request: Request) -> FormValues:
    form = await request.form()
    return values_from_form(form.multi_items())


@router.get("/warscore", response_class=HTMLResponse, include_in_schema=False)
def builder_page(request: Request, example: str = "") -> HTMLResponse:
    """The battle builder, empty or filled with the source's demonstration battle."""
    if example == "demonstration":
        battle = demonstration_battle()
        return _builder(request, battle_to_values(battle), check_battle_data(
            battle.model_dump(mode="json")))
    return _builder(request, values_from_form([("kind", "land")]), None)


@router.post("/warscore", response_class=HTMLResponse, include_in_schema=False)
async def builder_post(request: Request) -> HTMLResponse:
    """The form posted without JavaScript: the result, or the refusals beside their fields."""
    values = await _form_values(request)
    outcome = check_battle_data(values_to_data(values))
    return _builder(request, values, outcome, _status(outcome))


@router.post("/warscore/battle.yaml", include_in_schema=False)
async def builder_download(request: Request) -> Response:
    """The form as a battle file; an unfinished battle is saved with its first refusal noted."""
    values = await _form_values(request)
    outcome = check_battle_data(values_to_data(values))
    problem = outcome.errors[0] if outcome.errors else None
    return PlainTextResponse(
        yaml_of(values, problem), media_type="application/yaml",
        headers={"content-disposition": 'attachment; filename="battle.yaml"'})


async def _read_upload(upload: UploadFile) -> tuple[str, FieldError | None]:
    """The uploaded file's text, or a refusal when it is too large or not UTF-8 text."""
    raw = await upload.read(UPLOAD_MAX_BYTES + 1)
    name = upload.filename or "upload"
    if len(raw) > UPLOAD_MAX_BYTES:
        return "", FieldError(name, f"a battle or war file is at most {UPLOAD_MAX_BYTES:,} bytes")
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError:
        return "", FieldError(name, "is not UTF-8 text")


@router.post("/warscore/upload", response_class=HTMLResponse, include_in_schema=False)
async def builder_upload(request: Request,
                         file: Annotated[UploadFile, File()]) -> HTMLResponse:
    """A battle file fills the builder; a war file opens the war page with its report."""
    text, problem = await _read_upload(file)
    if problem is not None:
        return _builder(request, values_from_form([("kind", "land")]),
                        Outcome(errors=[problem]), 422)
    outcome = read_battle_or_war(text, file.filename or "upload")
    if isinstance(outcome.model, WarInput):
        return _war_page(request, text, outcome)
    if isinstance(outcome.model, BattleInput):
        return _builder(request, battle_to_values(outcome.model), outcome,
                        notice=f"Read {file.filename or 'the file'}.")
    return _builder(request, values_from_form([("kind", "land")]), outcome, 422)


@router.get("/warscore/war", response_class=HTMLResponse, include_in_schema=False)
def war_page(request: Request) -> HTMLResponse:
    """A war file as YAML text: checked as you type, scored year by year."""
    return _war_page(request, EXAMPLE_WAR, None)


@router.post("/warscore/war", response_class=HTMLResponse, include_in_schema=False)
async def war_post_page(request: Request) -> HTMLResponse:
    """The war text posted without JavaScript."""
    form = await request.form()
    text = form.get("yaml")
    text = text if isinstance(text, str) else ""
    if len(text.encode()) > UPLOAD_MAX_BYTES:
        outcome = Outcome(errors=[FieldError("yaml", f"at most {UPLOAD_MAX_BYTES:,} bytes")])
    else:
        outcome = check_war_text(text)
    return _war_page(request, text, outcome, _status(outcome))


@router.post("/warscore/war/nws", response_class=HTMLResponse, include_in_schema=False)
async def nws_post_page(request: Request) -> HTMLResponse:
    """One nation's NWS posted without JavaScript: its score and the lines for the war file."""
    form = await request.form()
    values = values_of(form.multi_items(), NWS_FORM)
    outcome = check_nws(values)
    return _war_page(request, EXAMPLE_WAR, None, _status(outcome), values, outcome)


@router.get("/warscore/rules", response_class=HTMLResponse, include_in_schema=False)
def rules_html(request: Request) -> HTMLResponse:
    """The rules page: the Markdown of `fairfight warscore rules`, shown as HTML."""
    return templates.TemplateResponse(
        request, "warscore/rules.html", {"body": markdown_html(rules_page())})


# --- JSON twins ----------------------------------------------------------------------------


@router.post("/api/warscore/battle", tags=["warscore"])
def api_battle(battle: BattleInput) -> BattleAnswer:
    """Score a battle file given as JSON; a refusal is 422 naming the field."""
    result = score_battle(battle, battle.year)
    return BattleAnswer(result=battle_json(result), text=battle_post(result, PostFormat.TEXT),
                        bbcode=battle_post(result, PostFormat.BBCODE))


@router.post("/api/warscore/war", tags=["warscore"])
def api_war(war: WarInput) -> WarAnswer:
    """Score a war file given as JSON, year by year."""
    report = score_war(war)
    return WarAnswer(result=war_json(report), text=war_post(report, PostFormat.TEXT),
                     bbcode=war_post(report, PostFormat.BBCODE))


@router.post("/api/warscore/check", tags=["warscore"])
async def api_check(request: Request) -> CheckAnswer:
    """Check the builder's form fields (form-encoded): every refusal by field, or the posts."""
    values = await _form_values(request)
    return CheckAnswer.model_validate(check_battle_data(values_to_data(values)).to_json())


@router.post("/api/warscore/war/check", tags=["warscore"])
def api_war_check(body: WarText) -> CheckAnswer:
    """Check a war (or battle) file given as YAML text, with the command line's readers."""
    return CheckAnswer.model_validate(check_war_text(body.yaml).to_json())


@router.post("/api/warscore/nws/check", tags=["warscore"])
async def api_nws_check(request: Request) -> CheckAnswer:
    """Check the NWS form's fields (form-encoded): every refusal by field, or the nation's
    score, its post block, and (`result.yaml`) the lines to paste into the war file."""
    form = await request.form()
    return CheckAnswer.model_validate(check_nws(values_of(form.multi_items(), NWS_FORM)).to_json())


@router.get("/api/warscore/demonstration", tags=["warscore"])
def api_demonstration() -> BattleInput:
    """The source's demonstration battle as a battle file in JSON."""
    return demonstration_battle()


@router.get("/api/warscore/rules", tags=["warscore"], response_class=PlainTextResponse)
def api_rules() -> str:
    """The rules page in Markdown, exactly as `fairfight warscore rules` prints it."""
    return rules_page()

