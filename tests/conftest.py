"""Shared test helpers."""

from __future__ import annotations

import signal
from contextlib import contextmanager

import pytest


@contextmanager
def _time_limit(seconds: int):
    """Fail with TimeoutError instead of hanging (SIGALRM: the main thread of a Unix process)."""
    def alarm(*_):
        raise TimeoutError(f"still running after {seconds} s: the content hangs the game")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@pytest.fixture(scope="session")
def time_limit():
    """``with time_limit(seconds): ...`` fails the test instead of hanging it."""
    return _time_limit
