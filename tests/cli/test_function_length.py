"""No function of the CLI is longer than 80 lines: a command parses its options and calls the
room that does the work (selection: webmdp.tasks.select; resume rules: webmdp.runner.resume)."""

from __future__ import annotations

import ast
from pathlib import Path

CLI = Path(__file__).resolve().parents[2] / "src" / "webmdp" / "cli"
LIMIT = 80


def lengths() -> dict[str, int]:
    """``module.function`` -> lines, from its ``def`` to its last line, for every function
    (nested and methods too) of every module of ``webmdp.cli``."""
    out = {}
    for path in sorted(CLI.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                assert node.end_lineno is not None
                out[f"{path.stem}.{node.name}:{node.lineno}"] = node.end_lineno - node.lineno + 1
    return out


def test_no_cli_function_is_longer_than_80_lines() -> None:
    found = lengths()
    assert len(found) > 50  # the walk saw the commands
    over = {name: n for name, n in found.items() if n > LIMIT}
    assert over == {}, f"functions over {LIMIT} lines: {over}"


def test_the_run_command_keeps_no_selection_or_resume_rules() -> None:
    source = (CLI / "run_cmd.py").read_text()
    for rule in ("def _stored_tasks", "def _stored_model", "def _resumed", "_SELECT =",
                 "_OPERATIONAL ="):
        assert rule not in source
    common = (CLI / "common.py").read_text()
    for rule in ("class _Filters", "def _select_cross", "def _limited", "def in_split"):
        assert rule not in common
