"""The install key's fingerprint is a slow key derivation (scrypt) for a new run, recorded as
``code_key_kdf``; a run recorded with the old SHA-256 digest is still checked with it, so
`report` and `--resume` keep working on it; a new run refuses a key shorter than 16
characters."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from webmdp.cli.main import app
from webmdp.tasks.codes import CODE_KEY_ENV, KDF, KEY_MIN_LEN, key_fingerprint

runner = CliRunner()
KEY = "a-sixteen-char-k"  # exactly the minimum
RUN = ["run", "--site", "shopping", "-n", "2", "-a", "oracle", "--mode", "semantic"]


def _manifest(out: Path) -> dict:  # type: ignore[type-arg]
    return json.loads((out / "manifest.json").read_text())


def test_a_new_run_records_a_scrypt_fingerprint(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CODE_KEY_ENV, KEY)
    out = tmp_path / "run"
    res = runner.invoke(app, [*RUN, "-n", "1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    m = _manifest(out)
    assert m["code_key_kdf"] == KDF == "scrypt"
    assert m["code_key"] == hashlib.scrypt(KEY.encode(), salt=b"webmdp code-key fingerprint v1",
                                           n=2 ** 14, r=8, p=1, dklen=8).hex()
    assert m["code_key"] != hashlib.sha256(b"webmdp-code-key:" + KEY.encode()).hexdigest()[:16]
    assert KEY not in (out / "manifest.json").read_text()


def test_a_run_recorded_with_the_old_digest_still_reads_and_resumes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    short = "old-short-key"  # an existing run may have been made with a short key
    monkeypatch.setenv(CODE_KEY_ENV, KEY)
    out = tmp_path / "run"
    res = runner.invoke(app, [*RUN, "--out", str(out), "--limit", "1"])
    assert res.exit_code == 0, res.output
    m = _manifest(out)  # as webmdp wrote it before scrypt
    del m["code_key_kdf"]
    m["code_key"] = hashlib.sha256(b"webmdp-code-key:" + short.encode()).hexdigest()[:16]
    (out / "manifest.json").write_text(json.dumps(m, indent=1))
    monkeypatch.setenv(CODE_KEY_ENV, short)
    assert key_fingerprint("sha256") == m["code_key"]
    rep = runner.invoke(app, ["report", str(out), "--out", str(tmp_path / "rep")])
    assert rep.exit_code == 0, rep.output
    res = runner.invoke(app, ["run", "--resume", str(out)])
    assert res.exit_code == 0, res.output
    assert "code_key_kdf" not in _manifest(out) and _manifest(out)["code_key"] == m["code_key"]
    monkeypatch.setenv(CODE_KEY_ENV, KEY)  # another key is still refused
    rep = runner.invoke(app, ["report", str(out), "--out", str(tmp_path / "rep2")])
    assert rep.exit_code == 2 and "operation codes were made with key" in rep.output


def test_a_new_run_refuses_a_short_key_in_one_line(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CODE_KEY_ENV, KEY[:KEY_MIN_LEN - 1])
    out = tmp_path / "run"
    res = runner.invoke(app, [*RUN, "--out", str(out)])
    assert res.exit_code == 2, res.output
    lines = [ln for ln in res.output.strip().splitlines() if ln.strip()]
    assert len(" ".join(lines)) < 200 and "at least 16" in " ".join(res.output.split())
    assert KEY[:KEY_MIN_LEN - 1] not in res.output
    assert not (out / "manifest.json").exists()
