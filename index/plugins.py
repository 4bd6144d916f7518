"""Named plug-ins found through entry points: embedders, LLM backends, claim readers.

Each kind is one entry-point group (``kgcheck.embedders``, ``kgcheck.llms``, ``kgcheck.readers``). An entry
point names a factory: a callable that takes keyword settings and returns the object (an ``Embedder``, an
``LLM``, a ``ClaimReader``). A user adds one without editing kgcheck, in their own package's pyproject::

    [project.entry-points."kgcheck.embedders"]
    minilm-cuda = "mypackage.embedders:minilm_on_gpu"

The built-ins register through the same mechanism: they are declared in kgcheck's pyproject.toml and
also listed here as the same ``EntryPoint`` objects, so a source checkout that was never installed
finds them too. This module lives in ``index/`` because it is the lowest layer that all three kinds
share (the verifier may import the index, never the reverse).
"""
from __future__ import annotations

import importlib.metadata
import inspect
import threading
from collections.abc import Callable
from typing import Any


class PluginError(Exception):
    """An unknown plug-in name, a plug-in that fails to load, or settings it does not take."""


class Registry:
    """Factories of one kind, by name: the built-ins first, then every installed entry point of `group`."""

    def __init__(self, group: str, kind: str, builtins: dict[str, str]):
        self.group = group
        self.kind = kind  # for messages: "embedder", "LLM backend", "claims format"
        self._builtins = [importlib.metadata.EntryPoint(name, value, group) for name, value in builtins.items()]
        self._entries: dict[str, list[importlib.metadata.EntryPoint]] | None = None
        self._loaded: dict[str, Callable[..., Any]] = {}
        self._lock = threading.Lock()

    def _entry_points(self) -> dict[str, list[importlib.metadata.EntryPoint]]:
        with self._lock:
            if self._entries is None:
                found: dict[str, list[importlib.metadata.EntryPoint]] = {}
                for ep in [*self._builtins, *importlib.metadata.entry_points(group=self.group)]:
                    same = found.setdefault(ep.name, [])
                    if all(ep.value != other.value for other in same):  # kgcheck's own, installed: one entry
                        same.append(ep)
                self._entries = found
            return self._entries

    def names(self) -> list[str]:
        """Every registered name: built-ins in their order, then plug-ins."""
        return list(self._entry_points())

    def factory(self, name: str) -> Callable[..., Any]:
        """The factory registered as `name` (loaded on first use)."""
        if name in self._loaded:
            return self._loaded[name]
        entries = self._entry_points().get(name)
        if not entries:
            raise PluginError(f"unknown {self.kind} {name!r}: expected one of {', '.join(self.names())} "
                              f"(plug-ins register in the entry-point group {self.group!r})")
        if len(entries) > 1:
            raise PluginError(f"two plug-ins register the {self.kind} {name!r}: "
                              f"{' and '.join(ep.value for ep in entries)}; uninstall one")
        try:
            loaded = entries[0].load()
        except Exception as exc:  # noqa: BLE001 - a broken plug-in is a clear error, not a traceback
            raise PluginError(f"cannot load the {self.kind} {name!r} ({entries[0].value}): {exc}") from exc
        if not callable(loaded):
            raise PluginError(f"the {self.kind} {name!r} ({entries[0].value}) is not a factory (not callable)")
        self._loaded[name] = loaded
        return loaded

    def create(self, name: str, **settings: Any) -> Any:
        """factory(**settings) for `name`; settings left None are not passed (the factory's defaults hold)."""
        factory = self.factory(name)
        settings = {key: value for key, value in settings.items() if value is not None}
        try:
            inspect.signature(factory).bind(**settings)
        except TypeError:
            raise PluginError(f"the {self.kind} {name!r} does not take {', '.join(sorted(settings))}") from None
        except ValueError:  # no signature to inspect (some builtins): let the call decide
            pass
        return factory(**settings)
