"""The example site plugin (examples/site-plugin, package webmdp-library), installed by
`make setup` beside webmdp, checked end to end as a user would: every command finds it through
its entry point, in this process and in every process a command starts."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

import httpx
import pytest

SITE = "library"
BIN = Path(sys.executable).parent
WEBMDP = str(BIN / "webmdp")
ENV = {**os.environ, "COLUMNS": "200"}


def webmdp(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([WEBMDP, *args], capture_output=True, text=True, env=ENV,
                          timeout=timeout, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def test_the_plugin_is_installed_through_its_entry_point() -> None:
    eps = [ep for ep in metadata.entry_points(group="webmdp.sites") if ep.name == SITE]
    assert len(eps) == 1, "make setup installs examples/site-plugin (pip install -e)"
    assert eps[0].value == "webmdp_library.site:LibrarySite"
    assert eps[0].dist is not None and eps[0].dist.name == "webmdp-library"


def test_sites_list_shows_it_beside_the_ten_builtins() -> None:
    rows = json.loads(webmdp("sites", "list", "--json").stdout)
    builtin = [r for r in rows if r["builtin"]]
    assert len(builtin) == 10 and all(r["tasks"] == 180 and r["error"] is None for r in builtin)
    (lib,) = [r for r in rows if r["site"] == SITE]
    assert (lib["package"], lib["version"], lib["tasks"], lib["templates"]) == \
        ("webmdp-library", "0.1.0", 30, 3)
    table = webmdp("sites", "list").stdout
    assert re.search(r"library\s+webmdp-library\s+0\.1\.0\s+30\s+3\s+Riverside", table)


def test_tasks_generate_and_the_conformance_checker(tmp_path: Path) -> None:
    out = tmp_path / "library.jsonl"
    webmdp("tasks", "generate", "--site", SITE, "--out", str(out))
    tasks = [json.loads(line) for line in out.read_text().splitlines()]
    assert [t["id"] for t in tasks] == [f"library_{i:04d}" for i in range(30)]
    assert Counter(t["template"] for t in tasks) == {
        "borrow_shortest_at_branch": 10, "hold_by_language": 10, "save_best_rated": 10}
    assert Counter(len(t["hard_negatives"]) for t in tasks) == {0: 8, 1: 8, 2: 7, 3: 7}
    again = tmp_path / "again.jsonl"
    webmdp("tasks", "generate", "--site", SITE, "--out", str(again))
    assert again.read_bytes() == out.read_bytes()  # deterministic, byte for byte
    done = webmdp("check", "--site", SITE)
    said = " ".join((done.stdout + done.stderr).split())
    assert "library: ok" in said
    # the baselines line: what greedy managed, and why it solves none without hard negatives
    assert "baselines: greedy: opened a result in" in said
    assert "note: greedy solves no task without hard negatives" in said


def test_validate_replays_its_oracles_in_chromium() -> None:
    done = webmdp("validate", "--site", SITE, "--limit", "3", "--workers", "1")  # a template each
    said = done.stdout + done.stderr
    assert "level 3 (GUI replay): ok" in said and "3 oracles replayed" in said


@pytest.fixture(scope="module")
def semantic_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("lib") / "semantic"
    webmdp("run", "--site", SITE, "--agent", "oracle", "--agent", "card_reader", "--workers",
           "2", "--out", str(out))
    return out


def _episodes(run: Path) -> list[dict]:
    return [json.loads(line) for line in (run / "results.jsonl").read_text().splitlines()]


def test_run_in_semantic_mode_with_two_workers(semantic_run: Path) -> None:
    """The plugin's site and its agent (card_reader, entry-point group webmdp.agents) in the
    run's spawned worker processes."""
    rows = _episodes(semantic_run)
    assert len(rows) == 60 and {r["site"] for r in rows} == {SITE}
    oracle = [r for r in rows if r["agent"] == "oracle"]
    assert len(oracle) == 30 and all(r["success"] for r in oracle)
    reader = [r["success"] for r in rows if r["agent"] == "card_reader"]
    assert len(reader) == 30 and 0 < sum(reader) < 30  # a baseline the hard negatives catch


def test_run_in_browser_mode_with_two_workers(tmp_path: Path) -> None:
    out = tmp_path / "browser"
    webmdp("run", "--site", SITE, "--agent", "oracle", "--mode", "browser", "--limit", "3",
           "--workers", "2", "--out", str(out))
    rows = _episodes(out)
    assert len(rows) == 3 and all(r["success"] for r in rows)
    assert len({r["template"] for r in rows}) == 3


def test_ray_workers_find_the_plugin(tmp_path: Path) -> None:
    # Ray comes with the dev extra `make setup` installs
    out = tmp_path / "ray"
    webmdp("run", "--site", SITE, "--agent", "card_reader", "--backend", "ray", "--workers",
           "2", "--limit", "3", "--out", str(out), timeout=600)
    rows = _episodes(out)
    assert len(rows) == 3 and all(r["infra_error"] is None for r in rows)
    assert json.loads((out / "manifest.json").read_text())["settings"]["backend"] == "ray"


def test_report_and_view(semantic_run: Path) -> None:
    webmdp("report", str(semantic_run))
    report = (semantic_run / "report" / "report.md").read_text()
    assert "library" in report and "oracle" in report
    proc = subprocess.Popen([WEBMDP, "view", str(semantic_run), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    try:
        assert proc.stdout is not None
        m = re.fullmatch(r"webmdp viewer: (http://127\.0\.0\.1:\d+/)\n", proc.stdout.readline())
        assert m is not None
        page = httpx.get(m.group(1), timeout=20)
        assert page.status_code == 200 and "library_0000" in page.text
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=15)


def test_the_sites_own_views_and_static_files_are_served() -> None:
    from fastapi.testclient import TestClient

    from webmdp.server.app import create_app

    client = TestClient(create_app("tok"), base_url="http://127.0.0.1")
    css = client.get("/static/library.css")
    assert css.status_code == 200 and ".lib-header" in css.text
    assert client.get("/static/nosuchsite.css").status_code == 404


def test_gymnasium_make() -> None:
    import gymnasium

    import webmdp.gym  # noqa: F401 - registers the ids
    from webmdp import Action
    from webmdp.env.registry import resolve_task

    task = resolve_task("library-v1", index=4)
    env = gymnasium.make("webmdp/library-v1", task_id=task.id)
    _, info = env.reset(seed=0)
    assert info["task_id"] == task.id
    reward, terminated = 0.0, False
    for action in [*task.oracle_actions(), Action("Finish", {"answer": "done"})]:
        _, reward, terminated, _, _ = env.step(json.dumps(action.to_dict()))
    assert terminated and reward == 1.0
    env.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def served() -> Iterator[str]:
    port = _free_port()
    proc = subprocess.Popen([WEBMDP, "rl", "serve", "--site", SITE, "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env=ENV)
    try:
        assert proc.stderr is not None
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            line = proc.stderr.readline()
            if line.startswith("ready:") or not line:
                break
        assert line.startswith("ready:"), line
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=20)


def test_rl_serve_and_the_trl_class(served: str) -> None:
    from webmdp import Action
    from webmdp.rl.client import WebMDPClient
    from webmdp.rl.openenv import WebMDPAction
    from webmdp.rl.splits import TRAIN, Catalog
    from webmdp.rl.trl import environment, method_name

    task = Catalog(SITE).tasks(TRAIN)[0]
    finish = Action("Finish", {"answer": task.answer or "done"})
    with WebMDPClient(base_url=served).sync() as client:
        client.reset(task_id=task.id)
        for action in [*task.oracle_actions(), finish]:
            result = client.step(WebMDPAction(name=action.name, params=dict(action.params)))
    assert result.done and result.reward == 1.0

    env = environment(SITE)()
    env.reset(task_id=task.id)
    for action in [*task.oracle_actions(), finish]:
        getattr(env, method_name(action.name))(**action.params)
    assert env.get_reward() == 1.0 and env.success is True


def test_a_site_package_without_its_pages_is_refused_before_the_first_browser_episode(
        tmp_path: Path) -> None:
    """A site package installed without its package data (no views/): a browser run says so
    in one line before any episode (it waited through the server's retries and printed its
    tracebacks); a semantic run, which needs no pages, still runs."""
    import shutil

    src = Path(__file__).resolve().parents[2] / "examples" / "site-plugin" / "src"
    pkg = tmp_path / "nopages_lib"
    shutil.copytree(src / "webmdp_library", pkg,
                    ignore=shutil.ignore_patterns("views", "static", "__pycache__"))
    for py in pkg.glob("*.py"):
        py.write_text(py.read_text().replace("webmdp_library", "nopages_lib")
                      .replace('name = "library"', 'name = "nopages"'))
    site = {"webmdp.sites": {"nopages": "nopages_lib.site:LibrarySite"}}
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "WEBMDP_PLUGINS": json.dumps(site)}
    webmdp = str(Path(sys.executable).parent / "webmdp")
    browser = subprocess.run([webmdp, "run", "--site", "nopages", "--agent", "oracle",
                              "--mode", "browser", "--limit", "1", "--out", str(tmp_path / "b")],
                             env=env, capture_output=True, text=True, timeout=300)
    said = (browser.stdout + browser.stderr).strip().splitlines()
    assert browser.returncode == 2, said
    assert said[-1].startswith("error: site 'nopages' has no views/ folder in its package "
                               "nopages_lib"), said
    assert "Traceback" not in browser.stderr
    assert not (tmp_path / "b" / "results.jsonl").exists() or \
        not (tmp_path / "b" / "results.jsonl").read_text().strip()
    semantic = subprocess.run([webmdp, "run", "--site", "nopages", "--agent", "oracle",
                               "--mode", "semantic", "--limit", "1", "--out", str(tmp_path / "s")],
                              env=env, capture_output=True, text=True, timeout=300)
    assert semantic.returncode == 0, semantic.stderr[-2000:]
