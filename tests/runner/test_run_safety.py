"""`webmdp run` keeps no secrets, resumes as it was started, says how it ended, closes the
invocations of dead owners and times episodes out one by one (real processes throughout,
model agents against the scripted model server)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import traceback
from pathlib import Path
from unittest import mock

from typer.testing import CliRunner

from webmdp.cli.main import app
from webmdp.testing.model_server import Reply, Request, ScriptedModelServer

WEBMDP = str(Path(sys.executable).parent / "webmdp")
FINISH = Reply(text='{"action": "Finish", "params": {}}')
CANARY = "sk-canary-7f3c9e1d2b4a6f80"


def webmdp(*args: str, env: dict[str, str] | None = None, timeout: float = 240
           ) -> subprocess.CompletedProcess:
    full = {**os.environ, "COLUMNS": "200", **(env or {})}
    return subprocess.run([WEBMDP, *args], capture_output=True, text=True, timeout=timeout,
                          env=full)


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """The same command in this process (typer's runner; the binary is this ``app``), for the
    tests that check what it says and its exit status, not the process: an uncaught exception
    comes back as exit status 1 with its traceback in stderr, as the binary would print it."""
    with mock.patch.object(sys, "argv", ["webmdp", *args]):  # what the manifest records
        res = CliRunner().invoke(app, list(args), env={"COLUMNS": "200", **(env or {})})
    err = res.stderr
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        err += "Traceback (most recent call last):\n" + "".join(
            traceback.format_exception(res.exception))
    return subprocess.CompletedProcess(["webmdp", *args], res.exit_code, res.stdout, err)


def rows(run: Path) -> list[dict]:
    return [json.loads(x) for x in (run / "results.jsonl").read_text().splitlines()]


def manifest(run: Path) -> dict:
    return json.loads((run / "manifest.json").read_text())


def model_args(srv: ScriptedModelServer, *extra: str) -> tuple[str, ...]:
    return ("--agent", "step", "--model", "vllm/scripted-model", "--base-url", srv.base_url,
            *extra)


def test_a_key_given_by_flag_is_never_written(tmp_path: Path) -> None:
    """The endpoint echoes the key in its error, as some services do: every byte under the
    run directory (traces, events, tables, manifest, report) is searched for it."""
    def echo(req: Request) -> Reply:
        return Reply(status=400, error=f"bad request for key {req.headers['authorization']}")

    out = tmp_path / "run"
    with ScriptedModelServer(echo) as srv:
        res = cli("run", "--site", "mail", *model_args(srv), "--api-key", CANARY,
                  "--max-tokens", "77", "--max-retries", "0", "--limit", "3",
                  "--workers", "1", "--out", str(out))
        assert srv.requests and all(r.headers["authorization"] == f"Bearer {CANARY}"
                                    for r in srv.requests)  # the key was used
    assert res.returncode == 4, res.stderr
    assert all("bad request for key" in (r["infra_error"] or "") for r in rows(out))
    assert cli("report", str(out)).returncode == 0
    files = [p for p in out.rglob("*") if p.is_file()]
    assert len(files) >= 8
    leaks = [str(p) for p in files if CANARY.encode() in p.read_bytes()]
    assert leaks == []
    argv = manifest(out)["invocations"][0]["argv"]
    assert argv[argv.index("--api-key") + 1] == "***"
    assert argv[argv.index("--max-tokens") + 1] == "77"  # not a secret
    assert CANARY not in res.stderr and CANARY not in res.stdout


def test_secrets_are_named_on_word_boundaries(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from webmdp import redact

    monkeypatch.setenv("HF_TOKEN", "hf-token-value-123")
    monkeypatch.setenv("MAX_TOKENS", "tokens-are-not-secret")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "aws-secret-value")
    text = "a hf-token-value-123 b tokens-are-not-secret c aws-secret-value d"
    assert redact.scrub(text) == "a *** b tokens-are-not-secret c *** d"
    assert redact.redact_argv(["--max-tokens", "9", "--api-key=abcdefgh1", "--judge-api-key",
                               "k2", "--token", "t"]) == [
        "--max-tokens", "9", "--api-key=***", "--judge-api-key", "***", "--token", "***"]
    from webmdp.server.runner import ServerHandle

    handle = ServerHandle()  # its control token is a secret from birth
    assert redact.scrub(f"x{handle.token}y") == "x***y"


def _failing_then_fine() -> tuple[list[bool], ScriptedModelServer]:
    fail = [True]

    def answer(_req: Request) -> Reply:
        return Reply(status=500, error="down") if fail[0] else FINISH

    return fail, ScriptedModelServer(answer)


def test_resume_calls_the_stored_endpoint_and_needs_the_key_back(tmp_path: Path) -> None:
    out = tmp_path / "run"
    fail, srv = _failing_then_fine()
    elsewhere = ScriptedModelServer([FINISH] * 10)
    with srv, elsewhere:
        first = cli("run", "--site", "mail", *model_args(srv), "--api-key", CANARY,
                    "--max-retries", "0", "--timeout", "17", "--limit", "2",
                    "--workers", "0", "--out", str(out))
        assert first.returncode == 4, first.stderr  # every episode an infra error
        assert "all episodes of the run ended in an infrastructure error" in first.stderr
        assert "500" in first.stderr  # the most common cause is named
        stored = manifest(out)["settings"]["endpoint"]
        assert stored["base_url"] == srv.base_url and stored["max_retries"] == 0
        assert stored["timeout_s"] == 17 and stored["api_key_from"] == "flag"
        assert CANARY not in (out / "manifest.json").read_text()
        fail[0] = False
        moved = {"VLLM_BASE_URL": elsewhere.base_url}
        # the key was given by flag and is not stored: resume asks for it by name
        nokey = cli("run", "--resume", str(out), env={**moved, "VLLM_API_KEY": ""})
        assert nokey.returncode == 2 and "VLLM_API_KEY" in nokey.stderr
        n = len(srv.requests)
        again = cli("run", "--resume", str(out), env={**moved, "VLLM_API_KEY": CANARY})
        assert again.returncode == 0, again.stderr
        assert "2 episodes run" in again.stderr
        assert len(srv.requests) > n and not elsewhere.requests and not elsewhere.probes
        assert all(r.headers["authorization"] == f"Bearer {CANARY}" for r in srv.requests)
        # an option given again overrides the stored one and is recorded
        moved_run = cli("run", "--resume", str(out), "--base-url", elsewhere.base_url,
                        "--rerun", env={"VLLM_API_KEY": CANARY})
        assert moved_run.returncode == 0, moved_run.stderr
        assert elsewhere.requests
    inv = manifest(out)["invocations"]
    assert inv[-1]["overrides"] == ["base_url"]
    assert manifest(out)["settings"]["endpoint"]["base_url"] == elsewhere.base_url
    assert "overrides" not in inv[1]


def test_exit_status_counts_the_runs_infra_errors(tmp_path: Path) -> None:
    def half(req: Request) -> Reply:
        return Reply(status=503, error="overloaded") if "mail_0000" in _task_of(req) \
            else FINISH

    with ScriptedModelServer(half) as srv:
        out = tmp_path / "run"
        res = cli("run", "--site", "mail", *model_args(srv), "--task", "mail_0000",
                  "--task", "mail_0001", "--max-retries", "0", "--workers", "0",
                  "--out", str(out))
    assert res.returncode == 3, res.stderr
    assert "1 of 2 episodes of the run ended in an infrastructure error" in res.stderr
    assert "503" in res.stderr


def _task_of(req: Request) -> str:
    """Requests carry the task's instruction; the test tasks are told apart by it."""
    from webmdp.cli.common import site_tasks

    text = "\n".join(req.texts())
    return next((t.id for t in site_tasks("mail")[:2] if t.instruction in text), "")


def test_preflight_names_the_cause_and_the_fix(tmp_path: Path) -> None:
    with ScriptedModelServer([FINISH], api_key="right-key-123",
                             models=["scripted-model"]) as srv:
        base = ("run", "--site", "mail", "--limit", "1", "--workers", "0")
        nokey = cli(*base, *model_args(srv), "--out", str(tmp_path / "a"),
                    env={"VLLM_API_KEY": ""})
        assert nokey.returncode == 2
        assert "401" in nokey.stderr and "VLLM_API_KEY" in nokey.stderr
        assert "Traceback" not in nokey.stderr
        wrong = cli(*base, "--agent", "step", "--model", "vllm/other-model", "--base-url",
                    srv.base_url, "--api-key", "right-key-123", "--out", str(tmp_path / "b"))
        assert wrong.returncode == 2 and "404" in wrong.stderr and "--model" in wrong.stderr
        assert not srv.requests and len(srv.probes) == 2  # no episode ran
        skipped = cli(*base, *model_args(srv), "--no-preflight", "--max-retries", "0",
                      "--out", str(tmp_path / "c"), env={"VLLM_API_KEY": ""})
        assert skipped.returncode == 4 and len(srv.probes) == 2
        assert "401" in skipped.stderr  # the end-of-run summary names the cause
    refused = cli(*base, *model_args(srv), "--out", str(tmp_path / "d"))
    assert refused.returncode == 2 and "connection refused" in refused.stderr
    assert "--base-url" in refused.stderr
    dns = cli(*base, "--agent", "step", "--model", "vllm/m", "--base-url",
              "http://no-such-host.invalid/v1", "--out", str(tmp_path / "e"))
    assert dns.returncode == 2 and "DNS" in dns.stderr


def test_a_killed_run_reads_interrupted_and_resume_closes_it(tmp_path: Path) -> None:
    out = tmp_path / "run"
    slow = Reply(text='{"action": "Finish", "params": {}}', delay_s=30)
    with ScriptedModelServer(lambda _r: slow) as srv:
        proc = subprocess.Popen([WEBMDP, "run", "--site", "mail", *model_args(srv), "--limit",
                                 "2", "--workers", "1", "--out", str(out)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while not srv.requests and time.monotonic() < deadline:
            time.sleep(0.1)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    from webmdp.runner import manifest as mf

    inv = manifest(out)["invocations"][0]
    assert inv["status"] == "running" and inv["pid"] == proc.pid
    assert inv["host"] and inv["pid_started"] > 0
    assert mf.invocation_state(inv) == mf.OWNER_GONE
    time.sleep(2)  # the orphaned worker notices and exits
    with ScriptedModelServer([FINISH] * 4) as srv2:
        res = webmdp("run", "--resume", str(out), "--base-url", srv2.base_url)
    assert res.returncode == 0, res.stderr
    first, second = manifest(out)["invocations"]
    assert first["status"] == "interrupted" and first["note"] == "owner gone"
    assert first["ended"] and second["status"] == "completed"


def test_an_episode_past_its_limit_is_sealed_alone(tmp_path: Path) -> None:
    """Two episodes share a worker and both run past --episode-timeout: each is sealed at
    its next step boundary with its steps kept; neither is restarted, no worker is killed."""
    def paging(req: Request) -> Reply:
        action = "NextPage" if "page: 1" in req.last_text() else "PrevPage"
        return Reply(text=json.dumps({"action": action, "params": {}}), delay_s=0.7)

    out = tmp_path / "run"
    with ScriptedModelServer(paging) as srv:
        res = webmdp("run", "--site", "mail", *model_args(srv), "--task", "mail_0000",
                     "--task", "mail_0001", "--workers", "1", "--slots", "2",
                     "--episode-timeout", "3", "--retries", "0", "--out", str(out))
    assert res.returncode == 4, res.stderr
    got = rows(out)
    assert len(got) == 2
    for row in got:
        assert row["termination"] == "infra_error"
        assert "wall-clock limit" in row["infra_error"] and "sealed after step" in \
            row["infra_error"]
        assert row["gui_steps"] >= 2  # the steps before the seal are kept
    events = [json.loads(x) for x in (out / "events.jsonl").read_text().splitlines()]
    starts = [tuple(e["episode"]) for e in events if e["event"] == "start"]
    assert len(starts) == 2 and len(set(starts)) == 2  # nobody was restarted
