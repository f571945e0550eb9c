"""One registry for everything webmdp looks up by name: sites, agents, grammars, model clients.

A :class:`Registry` maps a name to a lazy ``"module:attr"`` target, imported only when asked
for. webmdp's own entries are registered in code (a source checkout works without an install);
installed packages add theirs through entry points, read once per process:

====================  ==========================================================
group                 target
====================  ==========================================================
``webmdp.sites``      a :class:`~webmdp.core.site.Site` subclass
``webmdp.agents``     an :class:`~webmdp.agents.base.Agent` subclass (or factory)
``webmdp.grammars``   a :class:`~webmdp.agents.llm.grammars.GrammarInfo`
``webmdp.clients``    a :class:`~webmdp.agents.llm.clients.Provider`
====================  ==========================================================

A plugin's module declares ``WEBMDP_PLUGIN_API = N``, the :data:`PLUGIN_API` it was written
for; a missing or different number is refused in one line when the plugin is loaded. Its name
must match the registry's pattern (a site's is ``[a-z_]+``: environment ids and task ids are
built from it), may not start with a prefix webmdp reserves, and may not clash with a built-in
name or another package's; a clash names both packages.

Names registered at run time with :meth:`Registry.register` are exported to
``$WEBMDP_PLUGINS`` so that every process started afterwards (runner workers, spawned or
forked; Ray workers; ``rl serve``; the viewer) sees them too.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any, Generic, TypeVar

from webmdp.errors import ConfigError, unknown_choice

PLUGIN_API = 1
"""The plugin interface's version: a plugin module declares ``WEBMDP_PLUGIN_API`` equal to it."""
API_ATTR = "WEBMDP_PLUGIN_API"
ENV = "WEBMDP_PLUGINS"
"""Names registered at run time, as JSON ``{group: {name: "module:attr"}}``, inherited by
child processes."""
BUILTIN = "webmdp"
RUNTIME = "(registered at run time)"
"""The package an entry registered with :meth:`Registry.register` is shown under; such an
entry is the user's own code in their own process, so no plugin API is asked of it."""
RESERVED_PREFIXES = ("webmdp", "cross")
"""No plugin name starts with these: ``cross`` names the cross-site MDP and its tasks."""
RESERVED_NAMES = ("all", "none", "builtin")
"""Words the command line reads as selections, never as a name."""

T = TypeVar("T")


class PluginError(ConfigError):
    """A plugin that cannot be registered or loaded (bad name, clash, API mismatch)."""


@dataclass(frozen=True)
class Entry:
    """One registered name: where it lives and which package brought it."""

    name: str
    target: str
    package: str
    version: str

    @property
    def module(self) -> str:
        return self.target.split(":", 1)[0]

    @property
    def builtin(self) -> bool:
        return self.package == BUILTIN


def _webmdp_version() -> str:
    try:
        return metadata.version("webmdp")
    except metadata.PackageNotFoundError:  # a source tree on sys.path, not installed
        return "source"


def _split(target: str) -> tuple[str, str]:
    module, sep, attr = target.partition(":")
    if not sep or not module or not attr:
        raise PluginError(f"'{target}' is not a 'module:attr' target")
    return module, attr


class Registry(Generic[T]):
    """Named lazy targets of one kind (``site``, ``agent``, ...), built-ins first, then the
    entry points of ``group``, then names registered at run time."""

    def __init__(self, kind: str, group: str | None, builtins: dict[str, str], *,
                 pattern: str = r"[a-z][a-z0-9_-]*", check: Callable[[T], None] | None = None):
        self.kind, self.group = kind, group
        self.pattern = re.compile(pattern)
        self.check = check
        self._builtins = dict(builtins)
        self._entries: dict[str, Entry] | None = None
        self._loaded: dict[str, T] = {}
        self._refused: dict[str, str] = {}
        """Names two installed plugins both claim: naming one is refused with this line."""

    @property
    def _runtime_key(self) -> str:
        """Where ``$WEBMDP_PLUGINS`` holds this registry's run-time names: its group, or for a
        registry without one, its kind."""
        return self.group or self.kind

    # -- reading -------------------------------------------------------------------------------
    def entries(self) -> dict[str, Entry]:
        """Every registered name, read once (entry points and ``$WEBMDP_PLUGINS``)."""
        if self._entries is None:
            version = _webmdp_version()
            entries = {n: Entry(n, t, BUILTIN, version) for n, t in self._builtins.items()}
            for entry in _installed(self.group) if self.group else ():
                self._add_installed(entries, entry)
            for name, target in _runtime().get(self._runtime_key, {}).items():
                old = entries.get(name)
                if old is None or old.target != target:  # the same again is no clash
                    self._add(entries, Entry(name, target, RUNTIME, ""))
            self._entries = entries
        return self._entries

    def names(self) -> list[str]:
        return sorted(self.entries())

    def __contains__(self, name: object) -> bool:
        return name in self.entries()

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __getitem__(self, name: str) -> T:
        return self.load(name)

    def entry(self, name: str) -> Entry:
        entries = self.entries()
        if name in self._refused:
            raise PluginError(self._refused[name])
        if name not in entries:
            raise unknown_choice(self.kind, name, sorted(entries))
        return entries[name]

    def load(self, name: str) -> T:
        """The target ``name`` points at, imported now (once per process). A plugin whose
        module declares another plugin API than :data:`PLUGIN_API` is refused in one line."""
        if name not in self._loaded:
            entry = self.entry(name)
            module_name, attr = _split(entry.target)
            try:
                module = importlib.import_module(module_name)
                value = getattr(module, attr)
            except (ImportError, AttributeError) as exc:
                raise PluginError(f"{self.kind} '{name}' from package {entry.package}: cannot "
                                  f"load {entry.target}: {exc}") from exc
            if entry.package not in (BUILTIN, RUNTIME):
                _check_api(self.kind, entry, module)
            if self.check is not None:
                self.check(value)
            self._loaded[name] = value
        return self._loaded[name]

    # -- writing -------------------------------------------------------------------------------
    def register(self, name: str, target: str) -> None:
        """Add ``name`` -> ``"module:attr"`` in this process and every process it starts."""
        _split(target)
        entry = Entry(name, target, RUNTIME, "")
        entries = {n: e for n, e in self.entries().items()
                   if n != name or e.package != entry.package}  # re-registering replaces
        self._add(entries, entry)
        self._entries = entries
        self._loaded.pop(name, None)
        runtime = _runtime()
        runtime.setdefault(self._runtime_key, {})[name] = target
        os.environ[ENV] = json.dumps(runtime, sort_keys=True)

    def _add_installed(self, entries: dict[str, Entry], entry: Entry) -> None:
        """An installed plugin with a bad or clashing name is left out with one warning,
        as one written for another plugin API disables only itself: every other name keeps
        working. A name two plugins claim is refused (naming both); one a built-in has stays
        the built-in's."""
        if entry.name in self._refused:
            _warn_once(f"{self.kind} '{entry.name}' from package {entry.package} is left out: "
                       f"{self._refused[entry.name]}")
            return
        try:
            self._add(entries, entry)
        except PluginError as exc:
            old = entries.get(entry.name)
            if old is not None and not old.builtin and old.package != RUNTIME:
                del entries[entry.name]  # neither plugin gets the name
                self._refused[entry.name] = f"{exc}: both are left out; uninstall one"
            _warn_once(f"{exc}; it is left out")

    def _add(self, entries: dict[str, Entry], entry: Entry) -> None:
        if not self.pattern.fullmatch(entry.name):
            raise PluginError(f"{self.kind} name '{entry.name}' from package {entry.package} "
                              f"must match {self.pattern.pattern}")
        if entry.name in RESERVED_NAMES or entry.name.startswith(RESERVED_PREFIXES):
            raise PluginError(f"{self.kind} name '{entry.name}' from package {entry.package} is "
                              f"reserved by webmdp (names {', '.join(RESERVED_NAMES)} and "
                              f"prefixes {', '.join(RESERVED_PREFIXES)})")
        old = entries.get(entry.name)
        if old is not None and old.target != entry.target:
            raise PluginError(f"{self.kind} '{entry.name}' from package {entry.package} clashes "
                              f"with {self.kind} '{entry.name}' from package {old.package}"
                              + (" (a built-in)" if old.builtin else ""))
        entries[entry.name] = entry


_WARNED: set[str] = set()


def _warn_once(line: str) -> None:
    """One line on stderr, once per process."""
    if line not in _WARNED:
        _WARNED.add(line)
        print(f"warning: {line}", file=sys.stderr)


def _runtime() -> dict[str, dict[str, str]]:
    raw = os.environ.get(ENV, "")
    if not raw:
        return {}
    try:
        value = json.loads(raw)
    except ValueError as exc:
        raise PluginError(f"${ENV} is not JSON: {exc}") from exc
    if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
        raise PluginError(f"${ENV} must map entry-point groups to {{name: 'module:attr'}}")
    return value


def _check_api(kind: str, entry: Entry, module: Any) -> None:
    declared = getattr(module, API_ATTR, None)
    if declared is None:
        top = importlib.import_module(entry.module.split(".")[0])
        declared = getattr(top, API_ATTR, None)
    if declared != PLUGIN_API:
        said = ("declares no " + API_ATTR if declared is None
                else f"was written for webmdp plugin API {declared}")
        raise PluginError(f"{kind} '{entry.name}' from package {entry.package} {entry.version} "
                          f"{said}; this webmdp speaks plugin API {PLUGIN_API}")


def _installed(group: str) -> list[Entry]:
    """The entry points of ``group``, each as an entry naming its distribution and version."""
    out = []
    for ep in metadata.entry_points(group=group):
        dist = getattr(ep, "dist", None)
        out.append(Entry(ep.name, ep.value, dist.name if dist is not None else ep.module,
                         dist.version if dist is not None else "?"))
    return out


def plugin_entries() -> list[tuple[str, Entry]]:
    """Every non-built-in entry of every group: ``(group, entry)`` (entry points and names
    registered at run time), read from the installed metadata without importing anything."""
    out: list[tuple[str, Entry]] = []
    for group in GROUPS:
        out += [(group, entry) for entry in _installed(group)]
        for name, target in _runtime().get(group, {}).items():
            if not target.startswith(BUILTIN + "."):
                out.append((group, Entry(name, target, RUNTIME, "")))
    return out


def plugin_roots() -> list[tuple[str, Path]]:
    """The code of every plugin: ``(top-level package, its directory or file)``, sorted, found
    without importing it (the task cache's key covers them)."""
    roots: dict[str, Path] = {}
    for _, entry in plugin_entries():
        top = entry.module.split(".")[0]
        if top in roots or top == BUILTIN:
            continue
        try:
            spec = importlib.util.find_spec(top)
        except (ImportError, ValueError):
            spec = None
        if spec is None:
            continue
        if spec.submodule_search_locations:
            roots[top] = Path(next(iter(spec.submodule_search_locations)))
        elif spec.origin and spec.origin not in ("built-in", "frozen"):
            roots[top] = Path(spec.origin)
    return sorted(roots.items())


GROUPS = ("webmdp.sites", "webmdp.agents", "webmdp.grammars", "webmdp.clients")

__all__ = ["API_ATTR", "ENV", "GROUPS", "PLUGIN_API", "Entry", "PluginError", "Registry",
           "plugin_entries", "plugin_roots"]
