"""Test-wide settings: a deterministic hypothesis profile so CI runs are repeatable, the
`slow` marker's promise kept, and no process left behind.

A test marked `slow` is a bigger sweep of a property a default test already checks on a sample
(the marker's help in pyproject.toml: "kept out of the default run"); `make test` leaves it out
without reporting a skip, and `FAIRFIGHT_SLOW=1 pytest -m slow` runs every one of them.

Every process the run starts ends with it: the run adopts orphaned descendants
(tests/processes.py), and when it ends, after what the whole run shares is stopped, any child
still alive fails the run, named, and is ended.
"""

from __future__ import annotations

import os
import signal
from typing import Any

import pytest
from hypothesis import settings

from tests import processes

_LEFT_BEHIND = "fairfight_left_behind"
_WORKERS_LEFT_BEHIND = pytest.StashKey[list[str]]()

settings.register_profile("fairfight", derandomize=True, deadline=None, max_examples=60)
settings.load_profile("fairfight")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leave the `slow` tests out unless FAIRFIGHT_SLOW is set."""
    if os.environ.get("FAIRFIGHT_SLOW"):
        return
    slow = [item for item in items if item.get_closest_marker("slow")]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if not item.get_closest_marker("slow")]


def pytest_configure(config: pytest.Config) -> None:
    """Adopt orphans for the whole run, so the check at its end can see them; and take Ctrl-C
    back where the run was started with it ignored (a shell without job control ignores it in
    whatever it starts in the background, `make test &`, and the children inherit that), so
    the tests that interrupt a command see what a person at a terminal would."""
    processes.become_subreaper()
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """Under pytest-xdist: keep what a worker found left behind, for the run's own verdict."""
    found = getattr(node, "workeroutput", {}).get(_LEFT_BEHIND)
    if found:
        node.config.stash.setdefault(_WORKERS_LEFT_BEHIND, []).append(found)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Stop what the run shared, then fail the run if any process it started is alive.

    Under pytest-xdist each worker checks its own children (it is a subreaper too) and hands
    the names to the controller, whose exit status is the run's.
    """
    processes.run_session_end()
    left = processes.left_behind()
    messages = list(session.config.stash.get(_WORKERS_LEFT_BEHIND, []))
    if left:
        report = "\n".join(f"  {processes.described(pid)}" for pid in left)
        messages.append(f"processes started by the tests were still running at the end:\n{report}")
        processes.end_left_behind(left)
    if not messages:
        return
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # an xdist worker: the controller reports and fails the run
        workeroutput[_LEFT_BEHIND] = "\n".join(messages)
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    for message in messages:
        if reporter is not None:
            reporter.write_line(message, red=True, bold=True)
        else:
            print(message)
    if session.exitstatus == pytest.ExitCode.OK:  # an interrupted run stays interrupted
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
