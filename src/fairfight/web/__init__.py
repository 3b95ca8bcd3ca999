"""The web service: server-rendered pages and a JSON API over the four rulesets.

`create_app` and `WebSettings` are loaded on first use, not when a submodule is imported: the
upload verifier's child process (`python -m fairfight.web.verify_runner`) and the worker
supervisor import a module of this package and need none of the framework.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fairfight.web.app import create_app
    from fairfight.web.settings import WebSettings

__all__ = ["WebSettings", "create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from fairfight.web.app import create_app

        return create_app
    if name == "WebSettings":
        from fairfight.web.settings import WebSettings

        return WebSettings
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
