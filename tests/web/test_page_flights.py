"""Renders waited for on the event loop (`page_flights`): requests that come while their page
renders share the next render, never one that started before they came; a free render slot
goes to the render whose requests waited longest in all; an error or a page for one visitor
is not shared."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

import anyio.to_thread
import pytest
from fastapi.responses import Response

from fairfight.web.conquest.page_flights import RenderFlights


class _Renders:
    """Renders that number their pages and wait, in their thread, until released."""

    def __init__(self) -> None:
        self.made: list[str] = []
        self.started = threading.Semaphore(0)
        self.release = threading.Semaphore(0)

    def of(self, name: str) -> Callable[[], str]:
        def render() -> str:
            self.started.release()
            self.release.acquire()
            page = f"{name} #{sum(made.startswith(name) for made in self.made) + 1}"
            self.made.append(page)
            return page
        return render


async def _started(renders: _Renders) -> None:
    """Wait until a render is running in its thread (a safety net turns a render that never
    comes into a failure rather than a hung run)."""
    assert await anyio.to_thread.run_sync(lambda: renders.started.acquire(timeout=30)), \
        "no render started"


async def _settle() -> None:
    """Let every task that can run reach its next wait."""
    for _ in range(20):
        await asyncio.sleep(0)


def test_requests_during_a_render_share_the_next_one_not_the_one_under_way() -> None:
    async def crowd() -> list[str | Response]:
        renders = _Renders()
        flights: RenderFlights[str] = RenderFlights()
        first = asyncio.create_task(flights.page("home", renders.of("home")))
        await _started(renders)  # render 1 read its key before the others came
        later = [asyncio.create_task(flights.page("home", renders.of("home")))
                 for _ in range(5)]
        await _settle()
        renders.release.release()  # render 1 ends; one of the five starts render 2
        await _started(renders)
        await _settle()
        renders.release.release()
        answers = [await first, *[await task for task in later]]
        assert renders.made == ["home #1", "home #2"]
        assert flights.under_way() == 0
        return answers

    answers = asyncio.run(crowd())
    assert answers == ["home #1"] + ["home #2"] * 5


@pytest.mark.parametrize(("card_waited", "order"), [
    (0.0, ["card A #1", "home #1", "card B #1"]),  # queued together: three before one
    (1.0, ["card A #1", "card B #1", "home #1"]),  # one visitor for 1.05 s > three for 0.05 s
])
def test_a_free_slot_goes_to_the_render_whose_requests_waited_longest_in_all(
        card_waited: float, order: list[str]) -> None:
    now = [100.0]

    async def queue() -> list[str]:
        renders = _Renders()
        flights: RenderFlights[str] = RenderFlights(slots=1, clock=lambda: now[0])
        busy = asyncio.create_task(flights.page("card A", renders.of("card A")))
        await _started(renders)
        card = asyncio.create_task(flights.page("card B", renders.of("card B")))
        await _settle()  # card B queued first, for one visitor
        now[0] += card_waited
        homes = [asyncio.create_task(flights.page("home", renders.of("home")))
                 for _ in range(3)]
        await _settle()
        renders.release.release()  # card A ends: its slot is handed out
        await _started(renders)
        renders.release.release()
        await _started(renders)
        renders.release.release()
        await asyncio.gather(busy, card, *homes)
        return renders.made

    assert asyncio.run(queue()) == order


def test_an_answer_for_one_visitor_or_an_error_is_not_shared() -> None:
    calls: list[str] = []

    def refused() -> str | Response:
        calls.append("refused")
        return Response(status_code=404)

    def failing() -> str | Response:
        calls.append("failing")
        raise LookupError("no such season")

    async def both() -> tuple[list[int], list[str]]:
        flights: RenderFlights[str] = RenderFlights()
        statuses = [answer.status_code for answer in await asyncio.gather(
            *(flights.page("page", refused) for _ in range(3)))
            if isinstance(answer, Response)]
        errors = [type(error).__name__ for error in await asyncio.gather(
            *(flights.page("other", failing) for _ in range(3)), return_exceptions=True)]
        return statuses, errors

    statuses, errors = asyncio.run(both())
    assert statuses == [404, 404, 404]
    assert errors == ["LookupError"] * 3
    assert calls == ["refused"] * 3 + ["failing"] * 3
