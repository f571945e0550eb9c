"""No secret from any command that calls a model: an endpoint that echoes the Authorization
header, the credential it received and the key it issued (in every encoded form: percent-encoded,
base64 standard and URL-safe at each byte alignment inside a longer string, upper- and
lower-cased) back, in its replies and (model ``*-error``) in its errors, is called by every
model-calling command with a key and a URL that carries a password; no byte under the output
directory, nor the captured output, holds any of them in any of those forms."""

from __future__ import annotations

import base64
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote, quote_plus

import pytest
from typer.testing import CliRunner

from support import shared_dir
from webmdp.cli.main import app
from webmdp.testing.model_server import Reply, Request, ScriptedModelServer

KEY = "sk-canary:KEY/0123+456789"  # reserved characters: percent-encoding changes it
PASSWORD = "canaryPASSWORD42"
USERINFO = f"user:{PASSWORD}"  # what an HTTP client sends, base64-encoded, as Basic auth
SECRETS = (KEY, PASSWORD, USERINFO)
URLSAFE = str.maketrans("+/", "-_")
runner = CliRunner()


def encoded(secret: str) -> list[str]:
    """The forms an endpoint echoes ``secret`` in: upper- and lower-cased, percent-encoded, and
    base64 (both alphabets) of a longer string holding it at byte offsets 0, 1 and 2."""
    forms = [secret.upper(), secret.lower(), quote(secret, safe=""), quote_plus(secret)]
    for k in range(3):
        blob = b"<" * k + secret.encode() + b">tail"
        forms += [base64.b64encode(blob).decode(), base64.urlsafe_b64encode(blob).decode()]
    return forms


def leak_markers(secret: str) -> set[str]:
    """What must not survive of ``secret``: itself, its cased, percent- and JSON-escaped forms,
    and at each byte alignment the base64 characters that depend on it alone."""
    raw = secret.encode()
    out = {secret, secret.upper(), secret.lower(), quote(secret, safe=""), quote_plus(secret),
           json.dumps(secret)[1:-1]}
    for k in range(3):
        whole = base64.b64encode(b"\0" * k + raw + b"\0\0").decode()
        core = whole[(8 * k + 5) // 6:8 * (k + len(raw)) // 6]
        out |= {core, core.translate(URLSAFE)}
    return out


MARKERS = {m: s for s in SECRETS for m in leak_markers(s)}


def leaks(data: str | bytes) -> list[str]:
    text = data if isinstance(data, str) else data.decode("latin-1")
    return sorted({MARKERS[m] for m in MARKERS if m in text})


def _echo(req: Request) -> Reply:
    """Every reply says what the request carried, and the key, in every encoded form; a model
    named ``*-error`` gets the same text as an error (which clients quote in their messages)."""
    auth = req.headers.get("authorization") or ""
    if auth.startswith("Basic "):  # user:password, and the password
        got = base64.b64decode(auth.removeprefix("Basic ")).decode()
        received = [got, got.partition(":")[2]]
    else:
        received = [auth.removeprefix("Bearer ")]
    forms = " ".join(f for s in {KEY, *received} if s for f in encoded(s))
    seen = (f"auth={auth} keyhdr={req.headers.get('x-api-key')} got={' '.join(received)} "
            f"echo: {forms}")
    if req.model.endswith("-error"):
        return Reply(status=400, error=seen)
    return Reply(f"{seen} Verdict: pass\nValue: x\nExpected value: 7\n"
                 '{"thought": "t", "action": {"name": "Finish", "params": {}}}')


@pytest.fixture(scope="module")
def endpoint() -> Iterator[str]:
    with ScriptedModelServer(_echo) as srv:
        yield srv.base_url.replace("http://", f"http://user:{PASSWORD}@")


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A cross-site run (rubric judge, answers) and a browser run with screenshots (model
    grades and thoughts), made without any model, once per session (every test copies what
    it uses)."""
    root = shared_dir(tmp_path_factory, "cli-canary-runs", _make_runs)
    return _run_paths(root)


def _run_paths(root: Path) -> dict[str, Path]:
    return {"cross": root / "cross", "browser": root / "browser", "answers": root / "answers",
            "tasks": root / "tasks"}


def _make_runs(root: Path) -> None:
    from webmdp.sites import get_site
    from webmdp.tasks.generate import make_task
    from webmdp.tasks.io import write_tasks

    out = _run_paths(root)
    write_tasks(out["tasks"] / "direct.jsonl",
                [make_task(get_site("shopping"), 20_000, "find_product_extract:direct", 1)])
    res = runner.invoke(app, ["run", "--suite", str(out["tasks"] / "direct.jsonl"), "-a",
                              "oracle", "--mode", "semantic", "--out", str(out["answers"])])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["run", "--suite", "cross-site", "-n", "1", "-a", "oracle",
                              "--mode", "semantic", "--out", str(out["cross"])])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["run", "--site", "shopping", "-n", "1", "-a", "oracle",
                              "--mode", "browser", "--screenshots", "--out",
                              str(out["browser"])])
    assert res.exit_code == 0, res.output


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
    "synth rollouts --filter judge": lambda url, run, out: [
        "synth", "rollouts", "--tasks", str(run["tasks"] / "direct.jsonl"), "-a", "oracle",
        "--n", "1", "--out", str(out), "--judge-model", "vllm/canary-error", "--judge-base-url",
        url,
        "--filter", "judge", "--mode", "browser", "--screenshots"],
    "forge --draft-model": lambda url, run, out: [
        "forge", "--out", str(out), "--per-cell", "1", "--site", "shopping", "--no-browser",
        "--draft-model", "vllm/canary", "--draft-base-url", url],
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
    assert not leaks(res.output), (leaks(res.output), res.output[-2000:])
    scanned = 0
    for path in tmp_path.rglob("*"):
        if path.is_file():
            scanned += 1
            assert not leaks(path.read_bytes()), (command, path, leaks(path.read_bytes()))
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


QUERY_CREDENTIALS = {"access_token": "canary-access-token-T1", "apikey": "canary-apikey-T2",
                     "auth_token": "canary-auth-token-T3", "password": "canary-password-T4",
                     "signature": "canary-signature-T5", "X-Amz-Signature": "canary-amzsig-T6",
                     "X-Amz-Credential": "canary-amzcred-T7", "client_secret": "canary-cs-T8"}


def test_a_credential_query_parameter_reaches_no_file_and_not_the_terminal(
        endpoint: str, runs: dict[str, Path], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A ``--base-url`` whose query carries credentials (the endpoint then fails: its errors
    quote the URL): the preflight's failure, the run's manifest, traces and events, and the
    model grades keep none of the values."""
    monkeypatch.setenv("VLLM_API_KEY", KEY)
    plain = endpoint.replace(f"{USERINFO}@", "")
    url = plain + "?" + "&".join(f"{k}={v}" for k, v in QUERY_CREDENTIALS.items())
    values = list(QUERY_CREDENTIALS.values())
    base = ["run", "--site", "mail", "-n", "1", "-a", "step", "--model", "vllm/canary",
            "--base-url", url, "--mode", "semantic", "--retries", "0"]
    res = runner.invoke(app, [*base, "--out", str(tmp_path / "refused")])
    assert res.exit_code == 2 and "preflight failed" in res.output, res.output
    outputs = [res.output]
    res = runner.invoke(app, [*base, "--no-preflight", "--out", str(tmp_path / "run")])
    assert res.exit_code == 4, res.output  # every episode an infra error, quoting the URL
    outputs.append(res.output)
    browser = shutil.copytree(runs["browser"], tmp_path / "browser")
    res = runner.invoke(app, ["synth", "grade", str(browser), "--grader", "model", "--model",
                              "vllm/canary", "--base-url", url, "--max-retries", "0"])
    assert "Traceback" not in res.output, res.output
    outputs.append(res.output)
    assert (browser / "synth" / "grades-model.jsonl").is_file()
    assert "access_token=***" in (tmp_path / "run" / "manifest.json").read_text()
    for text in outputs:
        assert not [v for v in values if v in text], text
    for path in tmp_path.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            assert not [v for v in values if v.encode() in data], path


def test_the_preflight_says_which_credential_the_endpoint_gets(
        endpoint: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``user:pass@`` in the URL the endpoint gets HTTP Basic auth and not the API key
    (the URL's credential takes the Authorization header): the preflight line says so."""
    monkeypatch.delenv("VLLM_API_KEY", raising=False)
    plain = endpoint.replace(f"{USERINFO}@", "")
    said = {}
    for name, url, key in (("both", endpoint, KEY), ("userinfo", endpoint, None),
                           ("key", plain, KEY), ("none", plain, None)):
        args = ["run", "--site", "mail", "-n", "1", "-a", "step", "--model", "vllm/canary",
                "--base-url", url, "--mode", "semantic", "--out", str(tmp_path / name)]
        res = runner.invoke(app, args + (["--api-key", key] if key else []))
        assert res.exit_code == 0, res.output
        flat = " ".join(res.output.split())  # the console wraps its lines
        said[name] = flat.partition("credential: ")[2]
        assert not leaks(res.output)
    basic = "HTTP Basic auth from the user:pass in the URL"
    assert said["both"].startswith(f"{basic}; the API key is not sent")
    assert said["userinfo"].startswith(basic) and "API key" not in said["userinfo"][:80]
    assert said["key"].startswith("the API key") and "Basic" not in said["key"][:40]
    assert said["none"].startswith("none (no API key; give --api-key or set VLLM_API_KEY")
