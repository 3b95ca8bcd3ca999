"""The web service: server-rendered pages and a JSON API over the four rulesets."""

from __future__ import annotations

from fairfight.web.app import create_app
from fairfight.web.settings import WebSettings

__all__ = ["WebSettings", "create_app"]
