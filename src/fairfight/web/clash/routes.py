"""Clash pages and their JSON twins: the attack panel on single exchanges, the rules page,
and (from `fairfight.web.clash.sandbox`) the board sandbox.

Every figure comes from the engine: the panel is `fairfight.clash.panel`'s value, built by
`fairfight.clash.evaluation.evaluate` and rendered server-side; the JSON under /api/clash/ is
the same model. The exchange page is plain links and forms (it needs no JavaScript).
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.responses import HTMLResponse, PlainTextResponse
from pydantic import BaseModel, ValidationError

from fairfight.clash.fog import FogField, parse_fog_fields
from fairfight.clash.panel_model import Evaluation
from fairfight.clash.rules_page import rules_page
from fairfight.clash.spec import ClashSpec
from fairfight.core.errors import InputError
from fairfight.core.validation import input_error_from_validation, is_plain_digits
from fairfight.web.clash.exchange import (
    EXAMPLES,
    PreviewRequest,
    ResolveRequest,
    evaluate,
    example_spec,
)
from fairfight.web.clash.foresight import foresight_router
from fairfight.web.clash.live import live_router
from fairfight.web.clash.sandbox import install_sandbox, sandbox_router
from fairfight.web.clash.seat_pages import seat_pages_router
from fairfight.web.clash.seats import seats_router
from fairfight.web.markup import markdown_html
from fairfight.web.templating import templates

__all__ = [
    "ExampleList",
    "NAV",
    "api_example",
    "api_examples",
    "api_preview",
    "api_resolve",
    "api_rules",
    "exchange_page",
    "exchange_post",
    "install",
    "router",
    "rules_html",
]

router = APIRouter()
router.include_router(sandbox_router)
router.include_router(seats_router)
router.include_router(seat_pages_router)
router.include_router(live_router)
router.include_router(foresight_router)
NAV = (30, "Clash", "/clash")


def install(app: FastAPI) -> None:
    """Called by the app factory: the sandbox's game store lives on the app."""
    install_sandbox(app)


class ExampleList(BaseModel):
    """The built-in specifications by name."""

    examples: dict[str, str]


def _parse_draw(text: str | None) -> int | None:
    if text is None or not text.strip():
        return None
    value = text.strip()
    if not is_plain_digits(value) or not 0 <= int(value) <= 999:
        raise InputError("r", "the draw must be an integer from 0 to 999")
    return int(value)


def _exchange(request: Request, *, example: str, spec: ClashSpec | None, spec_text: str,
              fog: list[str], capture: bool, r_text: str | None) -> HTMLResponse:
    evaluation: Evaluation | None = None
    error = ""
    r: int | None = None
    status = 200
    try:
        r = _parse_draw(r_text)
        chosen = spec if spec is not None else example_spec(example)
        fields = list(parse_fog_fields(fog, "fog"))
        evaluation = evaluate(PreviewRequest(spec=chosen, unobserved=fields,
                                             capture_possible=capture), r)
    except InputError as refusal:
        error, status = refusal.one_line().split(": ", 1)[1], 422
    return templates.TemplateResponse(
        request, "clash/exchange.html",
        {"examples": EXAMPLES, "example": example, "evaluation": evaluation, "error": error,
         "fog": fog, "fog_fields": [field.value for field in FogField], "capture": capture,
         "r": r, "spec_text": spec_text},
        status_code=status)


@router.get("/clash/exchange", response_class=HTMLResponse, include_in_schema=False)
def exchange_page(request: Request, example: str = "worked-example",
                  fog: Annotated[list[str], Query()] = [], capture: str = "",  # noqa: B006
                  r: str | None = None) -> HTMLResponse:
    """The attack panel of a built-in specification, under fog if asked, resolved at r."""
    try:
        text = json.dumps(example_spec(example).to_json(), indent=1)
    except InputError:
        text = ""
    return _exchange(request, example=example, spec=None, spec_text=text, fog=fog,
                     capture=bool(capture), r_text=r)


@router.post("/clash/exchange", response_class=HTMLResponse, include_in_schema=False)
async def exchange_post(request: Request) -> HTMLResponse:
    """The attack panel of a specification pasted as JSON."""
    form = await request.form()
    text = form.get("spec")
    text = text if isinstance(text, str) else ""
    draw = form.get("r")
    spec: ClashSpec | None = None
    problem: InputError | None = None
    try:
        spec = ClashSpec.model_validate(json.loads(text))
    except json.JSONDecodeError as error:
        problem = InputError("spec", f"JSON syntax error at line {error.lineno}: {error.msg}")
    except ValidationError as error:
        problem = input_error_from_validation(error, "spec")
    if problem is not None:
        return templates.TemplateResponse(
            request, "clash/exchange.html",
            {"examples": EXAMPLES, "example": "", "evaluation": None,
             "error": f"{problem.field}: {problem.rule}", "fog": [],
             "fog_fields": [field.value for field in FogField], "capture": False, "r": None,
             "spec_text": text}, status_code=422)
    return _exchange(request, example="", spec=spec, spec_text=text, fog=[], capture=False,
                     r_text=draw if isinstance(draw, str) else None)


@router.get("/clash/rules", response_class=HTMLResponse, include_in_schema=False)
def rules_html(request: Request) -> HTMLResponse:
    """The clash rules: the Markdown of `fairfight clash rules`, shown as HTML."""
    return templates.TemplateResponse(request, "clash/rules.html",
                                      {"body": markdown_html(rules_page())})


# --- JSON twins ----------------------------------------------------------------------------


@router.get("/api/clash/examples", tags=["clash"])
def api_examples() -> ExampleList:
    """The built-in specifications."""
    return ExampleList(examples=EXAMPLES)


@router.get("/api/clash/examples/{name}", tags=["clash"])
def api_example(name: str) -> dict[str, Any]:
    """A built-in specification in the interchange format."""
    return example_spec(name).to_json()


@router.post("/api/clash/preview", tags=["clash"])
def api_preview(body: PreviewRequest) -> Evaluation:
    """The attack panel of a specification: verdict first, bands, odds, line items, fog."""
    return evaluate(body)


@router.post("/api/clash/resolve", tags=["clash"])
def api_resolve(body: ResolveRequest) -> Evaluation:
    """The panel, the resolution at r (the combat event) and the reconciliation line."""
    return evaluate(body, body.r)


@router.get("/api/clash/rules", tags=["clash"], response_class=PlainTextResponse)
def api_rules() -> str:
    """The rules page in Markdown, exactly as `fairfight clash rules` prints it."""
    return rules_page()
