"""A serving worker's interpreter: the lock handed over every half millisecond, the cycle
collector's passes fewer (each stops every thread), and what the started app holds frozen."""

from __future__ import annotations

import gc
import sys

from fastapi import FastAPI
from fastapi.testclient import TestClient

from fairfight.web import serve


def test_a_worker_collects_less_often_and_freezes_what_it_started_with() -> None:
    thresholds, interval = gc.get_threshold(), sys.getswitchinterval()
    try:
        app = serve._tuned(FastAPI())  # noqa: SLF001 -- the step both ways of serving take
        assert gc.get_threshold() == serve.COLLECTOR_THRESHOLDS
        assert gc.get_threshold()[0] > 700  # Python's own default passes far more often
        assert sys.getswitchinterval() == serve.SWITCH_INTERVAL_SECONDS
        gc.unfreeze()
        with TestClient(app):
            assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
        sys.setswitchinterval(interval)
