"""Deadlines and progress for long work, without threading them through every signature.

The caller (the HTTP server, the CLI) runs work inside `watching(Control(...))`; the pipelines call
`checkpoint()` between units of work (a sentence, a batch of claims, an LLM call). A checkpoint past
the deadline, or after `cancel()`, raises DeadlineExceeded, so abandoned work stops at the next unit
and releases what it holds (its worker thread, the LLM lock) instead of running on unseen. With no
Control active a checkpoint costs one context-variable lookup.

The active Control lives in a ContextVar: `asyncio.to_thread` copies the context into the worker
thread, and concurrent requests each see their own.
"""
from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Callable, Iterator

from kgcheck.verifier.errors import VerifierError


class DeadlineExceeded(VerifierError):
    """The work ran past its time cap (or was cancelled) and stopped at a checkpoint."""


class Control:
    def __init__(self, seconds: float | None = None,
                 on_progress: Callable[[str, int, int], None] | None = None) -> None:
        self.seconds = seconds
        self.deadline = None if seconds is None else time.monotonic() + seconds
        self.on_progress = on_progress
        self._cancelled = threading.Event()

    def cancel(self) -> None:
        self._cancelled.set()

    def remaining(self) -> float | None:
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())

    def expired(self) -> bool:
        return self._cancelled.is_set() or (self.deadline is not None and time.monotonic() >= self.deadline)

    def check(self, stage: str = "", done: int = 0, total: int = 0) -> None:
        if self.expired():
            raise DeadlineExceeded(f"stopped after {self.seconds:g} s" if self.seconds else "cancelled")
        if self.on_progress is not None and total:
            self.on_progress(stage, done, total)


_active: ContextVar[Control | None] = ContextVar("kgcheck_control", default=None)


@contextmanager
def watching(control: Control) -> Iterator[Control]:
    token = _active.set(control)
    try:
        yield control
    finally:
        _active.reset(token)


def checkpoint(stage: str = "", done: int = 0, total: int = 0) -> None:
    """Raise DeadlineExceeded when the active Control's time is up; report progress (done of total)."""
    control = _active.get()
    if control is not None:
        control.check(stage, done, total)


def active() -> Control | None:
    return _active.get()
