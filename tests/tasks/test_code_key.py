"""WEBMDP_CODE_KEY: an install key mixed into every task secret, so a public task file no
longer gives gold codes; a run records the key's fingerprint (never the key), and commands
that read a run's codes refuse a shell whose key differs. Without a key nothing changes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from support import site_tasks
from webmdp.cli.main import app
from webmdp.tasks.codes import CODE_KEY_ENV, gold_code, key_fingerprint

runner = CliRunner()
KEY = "leaderboard-install-key-2026"


def _run(out: Path) -> None:
    res = runner.invoke(app, ["run", "--site", "shopping", "-n", "2", "-a", "oracle",
                              "--mode", "semantic", "--out", str(out)])
    assert res.exit_code == 0, res.output


def test_the_key_changes_every_code_and_no_key_changes_none(
        monkeypatch: pytest.MonkeyPatch) -> None:
    tasks = site_tasks("shopping")[:6]
    monkeypatch.delenv(CODE_KEY_ENV, raising=False)
    plain = [gold_code(t) for t in tasks]
    assert key_fingerprint() is None
    monkeypatch.setenv(CODE_KEY_ENV, KEY)
    keyed = [gold_code(t) for t in tasks]
    assert all(a != b for a, b in zip(plain, keyed, strict=True))
    assert key_fingerprint() and KEY not in str(key_fingerprint())
    monkeypatch.setenv(CODE_KEY_ENV, KEY + "x")
    assert [gold_code(t) for t in tasks] != keyed


def test_a_run_records_the_fingerprint_and_others_refuse_another_key(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CODE_KEY_ENV, KEY)
    out = tmp_path / "run"
    _run(out)
    manifest = (out / "manifest.json").read_text()
    assert json.loads(manifest)["code_key"] == key_fingerprint() and KEY not in manifest
    assert not any(KEY in p.read_text(errors="ignore") for p in out.rglob("*") if p.is_file())
    rep = runner.invoke(app, ["report", str(out), "--out", str(tmp_path / "rep")])
    assert rep.exit_code == 0, rep.output
    assert str(key_fingerprint()) in (tmp_path / "rep" / "report.md").read_text()
    for other in (None, "another-key-entirely"):
        if other is None:
            monkeypatch.delenv(CODE_KEY_ENV)
        else:
            monkeypatch.setenv(CODE_KEY_ENV, other)
        for args in (["report", str(out), "--out", str(tmp_path / "rep2")],
                     ["run", "--resume", str(out)],
                     ["synth", "grade", str(out)]):
            res = runner.invoke(app, args)
            assert res.exit_code == 2, (args, res.output)
            assert "operation codes were made with key" in " ".join(res.output.split())
            assert "Traceback" not in res.output


def test_without_a_key_a_run_records_none_and_reads_as_before(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CODE_KEY_ENV, raising=False)
    out = tmp_path / "run"
    _run(out)
    assert json.loads((out / "manifest.json").read_text())["code_key"] is None
    assert runner.invoke(app, ["report", str(out), "--out", str(tmp_path / "r")]).exit_code == 0
    monkeypatch.setenv(CODE_KEY_ENV, KEY)
    res = runner.invoke(app, ["report", str(out), "--out", str(tmp_path / "r2")])
    assert res.exit_code == 2 and "made with no key" in " ".join(res.output.split())
