"""Every numeric and path option of every `webmdp` command, found by walking the CLI's own
command tree (a new command is covered without editing this file), gets values it must refuse:
a number just outside its declared range (:data:`webmdp.cli.ranges.RANGES`), nan, inf and a
word; a missing path, a directory, a file where a directory is expected and a non-UTF-8 file
(:data:`webmdp.cli.ranges.PATHS`). Each case exits 2 with one ``error:`` line, no traceback,
and writes nothing. In-process (CliRunner): every case stops at option validation or at the
first read of its input, before a run, a browser or a model call."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from webmdp.cli.main import app
from webmdp.cli.ranges import PATHS, RANGES, PathRule, Range, is_path, lookup, numeric, walk

ROOT = typer.main.get_command(app)
PARAMS = [(path, cmd, p) for path, cmd in walk(ROOT) for p in cmd.params]
NUMERIC = [(path, cmd, p) for path, cmd, p in PARAMS if numeric(p)]
PATH_PARAMS = [(path, cmd, p) for path, cmd, p in PARAMS if is_path(p)]


def _annotation(p: Any) -> Any:
    return p.type_descriptor.annotation


def _outside(rng: Range, is_int: bool) -> list[str]:
    """Values just outside ``rng``: below its low end and above its high end."""
    out = []
    if rng.low is not None:
        low = rng.low if rng.open_low else (rng.low - 1 if is_int else
                                            math.nextafter(rng.low, -math.inf))
        out.append(str(int(low)) if is_int else repr(float(low)))
    if rng.high is not None:
        high = rng.high if rng.open_high else (rng.high + 1 if is_int else
                                               math.nextafter(rng.high, math.inf))
        out.append(str(int(high)) if is_int else repr(float(high)))
    return out


def _label(path: str, p: Any) -> str:
    return f"{path or 'webmdp'} {p.opts[0] if p.param_type_name == 'option' else p.name}"


def _numeric_cases() -> list[Any]:
    cases = []
    for path, _cmd, p in NUMERIC:
        rng = lookup(RANGES, path, p)
        values = [*(_outside(rng, _annotation(p) is int) if rng else []), "nan", "inf", "abc"]
        cases += [pytest.param(path, p.name, v, id=f"{_label(path, p)}={v}") for v in values]
    return cases


BAD_PATHS: dict[str, tuple[str, ...]] = {
    "file": ("missing", "directory", "non-utf8"),
    "dir": ("missing", "directory", "file", "non-utf8"),
    "any": ("missing", "directory", "non-utf8"),
    "out-dir": ("file", "non-utf8", "under-file"),
    "out-file": ("directory", "under-file"),
}
"""The values each kind of path must refuse (a missing output path is created, so it is not
among them; an empty directory is not a run directory, a data set or a model)."""


def _path_cases() -> list[Any]:
    cases = []
    for path, _cmd, p in PATH_PARAMS:
        rule: PathRule = lookup(PATHS, path, p)
        cases += [pytest.param(path, p.name, v, id=f"{_label(path, p)}={v}")
                  for v in BAD_PATHS[rule.kind]]
    return cases


def test_every_numeric_and_path_option_has_a_declared_rule() -> None:
    assert len(NUMERIC) > 50 and len(PATH_PARAMS) > 20  # the walk found the whole tree
    missing = [_label(path, p) for path, _, p in NUMERIC if lookup(RANGES, path, p) is None]
    missing += [_label(path, p) for path, _, p in PATH_PARAMS if lookup(PATHS, path, p) is None]
    assert not missing, f"declare these in webmdp/cli/ranges.py: {missing}"


@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    """The temporary root: a fresh working directory and the inputs the cases use."""
    made = {"cwd": tmp_path / "cwd", "directory": tmp_path / "adir", "file": tmp_path / "a.txt",
            "non-utf8": tmp_path / "bad.jsonl", "ok-file": tmp_path / "ok.jsonl"}
    made["cwd"].mkdir()
    made["directory"].mkdir()
    made["file"].write_text("plain text\n")
    made["non-utf8"].write_bytes(b"\xff\xfe{\"id\": \"\xc3\x28\"}\n")
    made["ok-file"].write_text("")
    for marker in ("tasks.jsonl", "meta.json", "card.json", "config.json"):
        d = tmp_path / f"ok-{marker}"
        d.mkdir()
        (d / marker).write_text("")
    made["missing"] = tmp_path / "missing"
    made["under-file"] = made["file"] / "sub"
    monkeypatch.chdir(made["cwd"])
    return made


def _filler(path: str, p: Any, world: dict[str, Path]) -> str:
    """A value that passes option validation, for a required parameter not under test."""
    if is_path(p):
        rule: PathRule = lookup(PATHS, path, p)
        if rule.kind == "file":
            return str(world["ok-file"])
        if rule.kind in ("dir", "any"):
            return str(world["directory"].parent / f"ok-{rule.marker}") if rule.marker \
                else str(world["directory"])
        return str(world["missing"] / p.name)  # an output, never created by a refused case
    if numeric(p):
        return str(p.default)
    return "x"


def _argv(path: str, name: str, value: str, world: dict[str, Path]) -> list[str]:
    cmd = next(c for where, c in walk(ROOT) if where == path)
    args, opts = [], [*(next(p for p in cmd.params if p.name == name).opts[:1]), value] \
        if any(p.name == name and p.param_type_name == "option" for p in cmd.params) else []
    for p in cmd.params:
        if p.param_type_name == "argument":
            args.append(value if p.name == name else _filler(path, p, world))
        elif p.required and p.name != name:
            opts += [p.opts[0], _filler(path, p, world)]
    return [*path.split(), *opts, *args]


def _files(root: Path) -> set[Path]:
    return {p for p in root.rglob("*")}


def _refused(argv: list[str], root: Path) -> str:
    before = _files(root)
    res = CliRunner().invoke(app, argv, env={"COLUMNS": "200"})
    out = res.output
    assert res.exit_code == 2, (argv, out)
    assert "Traceback" not in out, (argv, out)
    assert res.exception is None or isinstance(res.exception, SystemExit), (argv, res.exception)
    errors = [line for line in out.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and out.strip().splitlines()[-1] == errors[0], (argv, out)
    assert _files(root) == before, (argv, _files(root) - before)  # nothing written
    return errors[0]


@pytest.mark.parametrize("path,name,value", _numeric_cases())
def test_a_number_out_of_range_is_refused(path: str, name: str, value: str,
                                          world: dict[str, Path]) -> None:
    line = _refused(_argv(path, name, value, world), world["cwd"].parent)
    option = next(p for _, c in walk(ROOT) for p in c.params if p.name == name)
    assert any(o in line for o in option.opts), line  # names the option


@pytest.mark.parametrize("path,name,value", _path_cases())
def test_a_bad_path_is_refused(path: str, name: str, value: str,
                               world: dict[str, Path]) -> None:
    _refused(_argv(path, name, str(world[value]), world), world["cwd"].parent)
