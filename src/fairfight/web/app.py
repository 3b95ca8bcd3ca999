"""The app factory: one FastAPI app per settings object, no module-level state."""

from __future__ import annotations

from importlib.resources import files

from fastapi import Depends, FastAPI
from fastapi.staticfiles import StaticFiles

from fairfight import __version__
from fairfight.web import routes
from fairfight.web.ballot import wing as ballot_wing
from fairfight.web.clash import wing as clash_wing
from fairfight.web.conquest import wing as conquest_wing
from fairfight.web.errors import install_error_handlers
from fairfight.web.ops import install_operations, install_operations_middleware
from fairfight.web.request_guard import RequestGuard
from fairfight.web.settings import WebSettings
from fairfight.web.strict_input import strict_json_body
from fairfight.web.templating import templates
from fairfight.web.warscore import wing as warscore_wing
from fairfight.web.wing import Register, order_for_matching

__all__ = ["UPLOAD_PATH_PREFIXES", "WINGS", "create_app"]

# Paths that accept a whole record archive rather than a small form or JSON body.
UPLOAD_PATH_PREFIXES = ("/api/upload/",)

WINGS: tuple[Register, ...] = (
    ballot_wing.register,
    clash_wing.register,
    conquest_wing.register,
    routes.register,
    warscore_wing.register,
)
"""The parts of the site, each joining the app through its hook. The order is the order the
routers were mounted in before each ruleset had a package of its own (their module names'),
so `/openapi.json` lists the paths as it did."""


def create_app(settings: WebSettings | None = None) -> FastAPI:
    """Build the service: routers, static files, error handlers and protections."""
    settings = settings or WebSettings()
    app = FastAPI(
        title="fairfight",
        version=__version__,
        description="Exact, reproducible and verifiable battles: pages and a JSON API.",
        docs_url=None,  # /api/docs is our own page (fairfight.web.ops.api_docs): the CSP
        redoc_url=None,
        openapi_url="/openapi.json",
        dependencies=[Depends(strict_json_body)],  # every JSON body read without coercion
    )
    app.state.settings = settings
    templates.env.auto_reload = settings.template_reload
    app.state.navigation = []
    for register in WINGS:
        register(app, templates)
    app.mount("/static", StaticFiles(directory=str(files("fairfight.web") / "static")),
              name="static")
    install_error_handlers(app)
    install_operations(app, settings)
    order_for_matching(app)
    app.add_middleware(RequestGuard, max_bytes=settings.max_body_bytes,
                       upload_max_bytes=settings.max_upload_bytes,
                       upload_prefixes=UPLOAD_PATH_PREFIXES, public_url=settings.public_url)
    install_operations_middleware(app, settings)  # outermost: it sees every answer
    return app
