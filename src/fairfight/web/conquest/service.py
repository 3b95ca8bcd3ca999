"""The conquest service of one app: its catalog, keys in flight, writer, broadcaster, and
the operator's sessions and sign-in brake.

`install` puts one `ConquestService` on `app.state.conquest`; routes reach it through the
`service` dependency, so tests build an app per database URL and nothing is global.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Annotated

from fastapi import Depends, FastAPI, Request

from fairfight.web.conquest.airing import AiringLoop, install_airing
from fairfight.web.conquest.catalog import SeasonCatalog
from fairfight.web.conquest.checkpoints import (
    UNCONFIGURED_HOST,
    CheckpointNotes,
    configured_host,
)
from fairfight.web.conquest.contributions import InFlight
from fairfight.web.conquest.database import SeasonDatabase
from fairfight.web.conquest.forecasts import ForecastCache
from fairfight.web.conquest.live import Broadcaster
from fairfight.web.conquest.page_cache import PageCache
from fairfight.web.conquest.page_parts import PageParts
from fairfight.web.conquest.refusals import install_refusals
from fairfight.web.conquest.sign_in import OperatorSessions, SignInBrake
from fairfight.web.conquest.witnessing import WitnessSender
from fairfight.web.conquest.writer import ContributionWriter
from fairfight.web.lifecycle import on_shutdown, on_startup
from fairfight.web.ops.health import ReadinessCheck, add_readiness_check
from fairfight.web.settings import WebSettings

__all__ = ["ConquestService", "Service", "install_service", "service"]


class ConquestService:
    """Everything the conquest routes share within one app."""

    def __init__(self, settings: WebSettings) -> None:
        self.settings = settings
        self.catalog = SeasonCatalog(SeasonDatabase(settings.database_url))
        self.in_flight = InFlight()
        self.writer = ContributionWriter(self.catalog)
        database = self.catalog.database
        self.live = Broadcaster(
            self.catalog, poll_seconds=settings.live_poll_seconds,
            max_clients=settings.live_max_streams,
            listen_url=settings.database_url if database.server else None)
        self.forecasts = ForecastCache(self.catalog, settings.forecast_seasons,
                                       settings.forecast_seed)
        self.live.listeners.append(self.forecasts.refresh)
        self.sessions = OperatorSessions(self.catalog.database)
        self.brake = SignInBrake()
        self.airing = AiringLoop(self.catalog, self.live.poke)
        self.pages = PageCache(stand_in_seconds=settings.crowd_stand_in_seconds)
        """Public pages rendered once per season version (`page_cache`); stand-ins under a
        crowd only when the operator turned them on."""
        self.parts = PageParts()
        """The parts of those pages that no contribution moves, rendered once per version of
        what they show (`page_parts`)."""
        self.checkpoints = CheckpointNotes(self.catalog)
        """Each head of each season as a signed checkpoint note (`checkpoints`)."""
        host = configured_host(settings.public_url) if settings.witnesses else UNCONFIGURED_HOST
        self.witnessing = WitnessSender(self.catalog, self.checkpoints, list(settings.witnesses),
                                        host, queue_size=settings.witness_queue,
                                        interval=settings.witness_interval)
        """Sends new checkpoints to the configured witnesses (`witnessing`)."""
        self.live.head_listeners.append(self.witnessing.submit)

    @property
    def payments_only(self) -> bool:
        """With a payment secret, fans pay through the provider and the form does not record."""
        return bool(self.settings.payment_secret)

    async def close(self) -> None:
        """End live streams and release the database."""
        await self.live.close()
        self.witnessing.close()
        self.writer.close()
        self.forecasts.close()
        self.catalog.close()


def install_service(app: FastAPI) -> None:
    """Create the app's service once and close it when the app shuts down."""
    if hasattr(app.state, "conquest"):
        return
    app.state.conquest = ConquestService(app.state.settings)
    install_refusals(app)
    if not hasattr(app.state, "exit_hooks"):
        app.state.exit_hooks = []
    app.state.exit_hooks.append(app.state.conquest.live.end_soon)
    on_shutdown(app, app.state.conquest.close)
    on_startup(app, app.state.conquest.live.start)
    on_startup(app, _start_witnessing(app))
    add_readiness_check(app, "listener", _listener_check(app.state.conquest))
    install_airing(app, app.state.conquest.airing)  # stops airing before the close above


def _start_witnessing(app: FastAPI) -> Callable[[], Awaitable[None]]:
    """Start the witness lanes once the app is up, their counts mirrored in its metrics."""
    conquest: ConquestService = app.state.conquest

    async def start() -> None:
        metrics = getattr(app.state, "metrics", None)
        if metrics is not None and not conquest.witnessing.observers:
            conquest.witnessing.observers.append(
                lambda lane: metrics.observe_witness(lane.witness.name, len(lane.waiting),
                                                     lane.failures, lane.cosigned))
        await asyncio.to_thread(conquest.witnessing.start)  # it reads the season ids

    return start


def _listener_check(conquest: ConquestService) -> ReadinessCheck:
    """`/readyz`'s live-news question: on PostgreSQL, the LISTEN connection is up."""

    def check() -> None:
        if not conquest.live.listener_alive():
            raise RuntimeError("the live-news listener is reconnecting")

    return check


async def service(request: Request) -> ConquestService:
    """The dependency every conquest route takes (a coroutine: a plain function would cost
    each request a trip through the thread pool for one attribute read)."""
    found: ConquestService = request.app.state.conquest
    return found


Service = Annotated[ConquestService, Depends(service)]
"""The conquest service as a route parameter: what every conquest route module takes."""
