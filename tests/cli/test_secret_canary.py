"""No secret from any command that calls a model: an endpoint that echoes the Authorization
header and the request URL back (in its replies and in its errors) is called by every
model-calling command with a key and a URL that carries a password and a key parameter; no
byte under the output directory, nor the captured output, holds any of them."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from webmdp.cli.main import app
from webmdp.testing.model_server import Reply, Request, ScriptedModelServer

KEY = "sk-canary-KEY-0123456789"
PASSWORD = "canaryPASSWORD42"
SECRETS = (KEY, PASSWORD)
runner = CliRunner()


def _echo(req: Request) -> Reply:
    """Every reply says what the request carried; every third is an error that does too."""
    seen = f"auth={req.headers.get('authorization')} keyhdr={req.headers.get('x-api-key')}"
    return Reply(f"{seen} Verdict: pass\nValue: x\nExpected value: 7\n"
                 '{"thought": "t", "action": {"name": "Finish", "params": {}}}')


@pytest.fixture(scope="module")
def endpoint() -> Iterator[str]:
    with ScriptedModelServer(_echo) as srv:
        yield srv.base_url.replace("http://", f"http://user:{PASSWORD}@")


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A cross-site run (rubric judge, answers) and a browser run with screenshots (model
    grades and thoughts), made without any model."""
    from webmdp.sites import get_site
    from webmdp.tasks.generate import make_task
    from webmdp.tasks.io import write_tasks

    root = tmp_path_factory.mktemp("canary-runs")
    out = {"cross": root / "cross", "browser": root / "browser", "answers": root / "answers"}
    write_tasks(root / "direct.jsonl",
                [make_task(get_site("shopping"), 20_000, "find_product_extract:direct", 1)])
    res = runner.invoke(app, ["run", "--suite", str(root / "direct.jsonl"), "-a", "oracle",
                              "--mode", "semantic", "--out", str(out["answers"])])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["run", "--suite", "cross-site", "-n", "1", "-a", "oracle",
                              "--mode", "semantic", "--out", str(out["cross"])])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["run", "--site", "shopping", "-n", "1", "-a", "oracle",
                              "--mode", "browser", "--screenshots", "--out",
                              str(out["browser"])])
    assert res.exit_code == 0, res.output
    return out


COMMANDS = {
    "run": lambda url, run, out: ["run", "--site", "mail", "-n", "1", "-a", "step", "--model",
                                  "vllm/canary", "--base-url", url, "--api-key", KEY,
                                  "--mode", "semantic", "--out", str(out)],
    "rubric judge": lambda url, run, out: ["rubric", "judge", str(run["cross"]),
                                           "--judge-model", "vllm/canary",
                                           "--judge-base-url", url, "--max-retries", "0"],
    "report --judge-model": lambda url, run, out: ["report", str(run["cross"]), "--judge-model",
                                                   "vllm/canary", "--judge-base-url", url,
                                                   "--out", str(out)],
    "forge answers": lambda url, run, out: ["forge", "answers", str(run["answers"]),
                                            "--judge-model", "vllm/canary",
                                            "--judge-base-url", url],
    "synth grade": lambda url, run, out: ["synth", "grade", str(run["browser"]), "--grader",
                                          "model", "--model", "vllm/canary", "--base-url", url,
                                          "--max-retries", "0"],
    "synth thoughts": lambda url, run, out: ["synth", "thoughts", str(run["browser"]),
                                             "--thoughts", "model", "--model", "vllm/canary",
                                             "--base-url", url],
}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_no_secret_reaches_a_file_or_the_terminal(command: str, endpoint: str,
                                                  runs: dict[str, Path], tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VLLM_API_KEY", KEY)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    copy = {k: shutil.copytree(v, tmp_path / k) for k, v in runs.items()}
    out = tmp_path / "out"
    res = runner.invoke(app, COMMANDS[command](endpoint, copy, out))
    assert "Traceback" not in res.output, res.output
    assert res.exit_code in (0, 1, 3, 4), res.output  # ran (some steps may stay unjudged)
    leaks = [s for s in SECRETS if s in res.output]
    assert not leaks, (leaks, res.output[-2000:])
    scanned = 0
    for path in tmp_path.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            scanned += 1
            for s in SECRETS:
                assert s.encode() not in data, (command, path, s)
                assert json.dumps(s)[1:-1].encode() not in data
    assert scanned > 0


def test_url_credentials_are_blanked_wherever_they_appear() -> None:
    from webmdp.redact import redact_url, scrub

    url = "https://user:pw@host:8000/v1?key=k1&x=1&api_key=k2&token=k3&sig=k4"
    assert redact_url(url) == ("https://user:***@host:8000/v1?key=***&x=1&api_key=***&"
                               "token=***&sig=***")
    text = json.dumps({"argv": ["--base-url", url], "note": f"calling {url} failed"})
    assert not any(s in scrub(text) for s in ("pw@", "k1", "k2", "k3", "k4"))
    assert scrub("see https://example.com/a?q=1 and a:b@c") == \
        "see https://example.com/a?q=1 and a:b@c"


def test_a_resume_takes_the_credential_url_again(endpoint: str, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The manifest stores the URL with its credential blanked; a resume asks for the URL
    again (flag or environment) and says where it took it from."""
    monkeypatch.setenv("VLLM_API_KEY", KEY)
    monkeypatch.delenv("VLLM_BASE_URL", raising=False)
    out = tmp_path / "run"
    res = runner.invoke(app, ["run", "--site", "mail", "-n", "2", "-a", "step", "--model",
                              "vllm/canary", "--base-url", endpoint, "--mode", "semantic",
                              "--out", str(out), "--limit", "1"])
    assert res.exit_code == 0, res.output
    stored = json.loads((out / "manifest.json").read_text())["settings"]["endpoint"]
    assert stored["base_url"] == endpoint.replace(PASSWORD, "***")
    res = runner.invoke(app, ["run", "--resume", str(out)])
    assert res.exit_code == 2 and "carries a credential" in res.output, res.output
    monkeypatch.setenv("VLLM_BASE_URL", endpoint)
    res = runner.invoke(app, ["run", "--resume", str(out)])
    assert res.exit_code == 0, res.output
    assert "taking the URL from the environment" in " ".join(res.output.split())
    assert PASSWORD not in res.output
    assert PASSWORD not in (out / "manifest.json").read_text()
