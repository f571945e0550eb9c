"""What every option of the `webmdp` command accepts, as data: the range of each numeric option
and the kind of each path, checked for every command by :func:`guard` while the command line
is parsed (before the command runs), so a new command is covered by construction.

A key is an option (``--limit``) or an argument's name in capitals (``RUN``); a key that
starts with the command's path (``validate --workers``) overrides the plain one for that
command. The CLI and its fuzz test (``tests/cli/test_cli_fuzz.py``) read the same tables."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from typer._click.core import Command, Context, Parameter
from typer._click.exceptions import BadParameter


@dataclass(frozen=True)
class Range:
    """``low <= value <= high`` (``<`` where open); ``None``: no bound. Floats are finite."""

    low: float | None = None
    high: float | None = None
    open_low: bool = False
    open_high: bool = False
    unit: str = ""

    def contains(self, value: float) -> bool:
        if self.low is not None and (value <= self.low if self.open_low else value < self.low):
            return False
        return self.high is None or (value < self.high if self.open_high else value <= self.high)

    def words(self) -> str:
        unit = f" {self.unit}" if self.unit else ""
        low, high = _num(self.low), _num(self.high)
        if self.high is None:
            if self.open_low:
                return f"more than {low}{unit}"
            return "cannot be negative" if self.low == 0 and self.unit else f"at least {low}{unit}"
        if self.low is None:
            return f"{'below' if self.open_high else 'at most'} {high}{unit}"
        if self.open_low or self.open_high:
            return (f"{'above' if self.open_low else 'at least'} {low} and "
                    f"{'below' if self.open_high else 'at most'} {high}{unit}")
        return f"between {low} and {high}{unit}"


SECONDS = Range(0, open_low=True, unit="seconds")
COUNT = Range(1)
NONNEGATIVE = Range(0)
SEED = Range(0, 2**32 - 1)

MAX_SLOTS = 256
"""The most episodes one worker runs at once (``--slots``: a thread each) and the most
concurrent requests to one endpoint (``--concurrency``)."""
MAX_SESSIONS = 1024
"""The most concurrent sessions of `rl serve` in semantic mode; in browser mode, where each
is a Chromium, :data:`MAX_BROWSER_SESSIONS`."""
MAX_BROWSER_SESSIONS = 64

RANGES: dict[str, Range] = {
    "--limit": COUNT, "--step-budget": COUNT, "--workers": NONNEGATIVE,
    "--slots": Range(1, MAX_SLOTS),
    "--retries": NONNEGATIVE, "--episode-timeout": SECONDS, "--step-timeout": SECONDS,
    "--timeout": SECONDS, "--price-in": Range(0, unit="USD"), "--price-out": Range(0, unit="USD"),
    "--temperature": Range(0, 2), "--branching": COUNT, "--history-images": COUNT,
    "--max-tokens": COUNT, "--max-retries": NONNEGATIVE, "--concurrency": Range(1, MAX_SLOTS),
    "--window": COUNT, "--per-site": COUNT, "--port": Range(0, 65535),
    "--page-size": Range(1, 1000), "--level": Range(1, 3), "--n": COUNT,
    "--judge-window": COUNT, "--samples": COUNT, "--budget": COUNT, "--cutoff": Range(0, 10),
    "--test-share": Range(0, 1, open_high=True), "--n-holdout": NONNEGATIVE, "--seed": SEED,
    "--epochs": COUNT, "--lora-r": COUNT, "--lr": Range(0, open_low=True),
    "--c": Range(0, open_low=True), "--per-level": COUNT, "--visual": NONNEGATIVE,
    "--per-cell": COUNT, "--max-sessions": Range(1, MAX_SESSIONS),
    "validate --workers": COUNT, "rl serve --workers": COUNT,
    "synth export --window": NONNEGATIVE,
}
"""Every numeric option's range (a numeric option missing here fails the fuzz test).
``--workers`` is bounded at run time too: 4 per CPU this process may use, or per CPU a Ray
cluster reports (:mod:`webmdp.runner.limits`)."""

PathKind = Literal["file", "dir", "any", "out-dir", "out-file"]


@dataclass(frozen=True)
class PathRule:
    """``file`` / ``dir``: must exist as one (``marker``: a file the directory holds);
    ``any``: must exist; ``out-dir`` / ``out-file``: created when missing, so an existing path
    must be of that kind and the nearest existing parent a directory."""

    kind: PathKind
    marker: str | None = None
    what: str = ""


RUN_DIR = PathRule("dir", "tasks.jsonl", "run directory")

PATHS: dict[str, PathRule] = {
    "--out": PathRule("out-dir"), "--tasks": PathRule("file"), "--resume": RUN_DIR,
    "--vlm": PathRule("dir", "config.json", "model directory (transformers format)"),
    "RUN": RUN_DIR, "RUN_DIRS": RUN_DIR, "TASKS_FILE": PathRule("file"),
    "PATH": PathRule("file"), "PATHS": PathRule("any"),
    "DATA": PathRule("dir", "meta.json", "StepRM data set"),
    "MODEL": PathRule("dir", "card.json", "StepRM model"),
    "tasks generate --out": PathRule("out-file"),
    "rl dataset --out": PathRule("out-file"),
}
"""Every path option's kind (a path option missing here fails the fuzz test)."""


class OptionError(BadParameter):
    """A value the tables refuse; its message names the option and what it accepts."""

    def format_message(self) -> str:
        return self.message


def keys(path: str, param: Parameter) -> list[str]:
    """The table keys of ``param`` of the command at ``path``, most specific first."""
    names = [o for o in param.opts if o.startswith("--")] if param.param_type_name == "option" \
        else [(param.name or "").upper()]
    return [f"{path} {n}".strip() for n in names] + names


def lookup(table: dict[str, Any], path: str, param: Parameter) -> Any:
    return next((table[k] for k in keys(path, param) if k in table), None)


def numeric(param: Parameter) -> bool:
    return _annotation(param) in (int, float)


def is_path(param: Parameter) -> bool:
    return _annotation(param) is Path or _annotation(param) == list[Path]


def walk(command: Command, path: str = "") -> Iterator[tuple[str, Command]]:
    """``(command path, command)`` for ``command`` and every command under it."""
    yield path, command
    for name, sub in (getattr(command, "commands", None) or {}).items():
        yield from walk(sub, f"{path} {name}".strip())


def guard(command: Command, path: str = "") -> Command:
    """Check every numeric and path parameter under ``command`` from the tables, as each is
    parsed: a bad value is an :class:`OptionError` naming the option."""
    for where, cmd in walk(command, path):
        for param in cmd.params:
            if numeric(param):
                _chain(param, _range_check(lookup(RANGES, where, param)))
            elif is_path(param) and (rule := lookup(PATHS, where, param)) is not None:
                _chain(param, _path_check(rule))
    return command


def name_of(param: Parameter) -> str:
    longs = [o for o in param.opts if o.startswith("--")]
    return longs[0] if longs else (param.name or "").upper()


def _annotation(param: Parameter) -> Any:
    desc = getattr(param, "type_descriptor", None)
    return getattr(desc, "annotation", None)


def _chain(param: Parameter, check: Any) -> None:
    before = param.callback
    if getattr(before, "webmdp_guard", False):
        return  # guarded already (a command shared by two trees)

    def callback(ctx: Context, p: Parameter, value: Any) -> Any:
        if value is not None:
            for v in value if isinstance(value, (list, tuple)) else (value,):
                check(p, v)
        return before(ctx, p, value) if before is not None else value

    callback.webmdp_guard = True  # type: ignore[attr-defined]
    param.callback = callback


def _range_check(rng: Range | None) -> Any:
    def check(param: Parameter, value: float) -> None:
        name = name_of(param)
        if isinstance(value, float) and not math.isfinite(value):
            raise OptionError(f"{name} must be a finite number, got {value}")
        if rng is not None and not rng.contains(value):
            words = rng.words()
            verb = "" if words.startswith("cannot") else "must be "
            raise OptionError(f"{name} {verb}{words}, got {_num(value)}")
    return check


def _path_check(rule: PathRule) -> Any:
    def check(param: Parameter, value: Path) -> None:
        why = problem(rule, Path(value))
        if why:
            raise OptionError(f"{name_of(param)} {value}: {why}")
    return check


def problem(rule: PathRule, p: Path) -> str | None:
    """Why ``p`` does not fit ``rule``, or None."""
    if rule.kind in ("out-dir", "out-file"):
        want_dir = rule.kind == "out-dir"
        if p.exists():
            if want_dir and not p.is_dir():
                return "is a file, not a directory"
            if not want_dir and p.is_dir():
                return "is a directory, not a file"
            return None
        parent = p.parent
        while not parent.exists() and parent != parent.parent:
            parent = parent.parent
        return None if parent.is_dir() else f"cannot be created: {parent} is not a directory"
    if not p.exists():
        return f"no {rule.what}" if rule.what else "no such file or directory"
    if rule.kind == "file" and not p.is_file():
        return "is a directory, not a file" if p.is_dir() else "is not a regular file"
    if rule.kind == "dir":
        what = rule.what or "directory"
        if not p.is_dir():
            return f"is a file, not a {what}"
        if rule.marker and not (p / rule.marker).is_file():
            return f"not a {what} (no {rule.marker})"
    return None


def _num(value: float | None) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)
