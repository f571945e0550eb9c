"""`webmdp run` at scale, semantic mode: worker processes, the manifest, resume, refusals,
seeds, selection, storage failures and the episode timeout (real processes throughout)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from webmdp.runner.procs import run_processes
from webmdp.testing.model_server import Reply, ScriptedModelServer

WEBMDP = str(Path(sys.executable).parent / "webmdp")


def webmdp(*args: str, timeout: float = 240) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "200"}
    return subprocess.run([WEBMDP, *args], capture_output=True, text=True, timeout=timeout,
                          env=env)


def rows(run: Path) -> list[dict]:
    return [json.loads(x) for x in (run / "results.jsonl").read_text().splitlines()]


def verdicts(run: Path) -> dict[tuple[str, str], tuple[bool, str]]:
    return {(r["agent"], r["task_id"]): (r["success"], r["termination"]) for r in rows(run)}


def test_two_workers_two_agents_then_idempotent_resume(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ("run", "--site", "shopping,mail", "--agent", "oracle", "--agent", "greedy",
            "--limit", "24", "--workers", "2", "--out", str(out))
    first = webmdp(*args)
    assert first.returncode == 0, first.stderr
    assert "48 episodes run (0 resumed)" in first.stderr
    got = verdicts(out)
    assert len(got) == 48 and len(rows(out)) == 48  # every episode exactly once
    assert all(ok for (agent, _), (ok, _) in got.items() if agent == "oracle")
    # the same episodes as the in-process runner
    inline = tmp_path / "inline"
    assert webmdp(*args[:-4], "--workers", "0", "--out", str(inline)).returncode == 0
    assert verdicts(inline) == got
    # manifest: identity, versions, task-set hash, the invocation
    m = json.loads((out / "manifest.json").read_text())
    assert m["identity"]["mode"] == "semantic"
    assert [a["name"] for a in m["identity"]["agents"]] == ["greedy", "oracle"]
    assert m["task_set"]["count"] == 24 and len(m["task_set"]["hash"]) == 64
    assert {"python", "webmdp", "pydantic", "playwright"} <= set(m["packages"])
    inv = m["invocations"][0]
    assert inv["status"] == "completed" and inv["episodes"] == 48 and inv["ended"]
    table = pq.read_table(out / "episodes.parquet").to_pylist()
    assert {(r["agent"], r["task_id"]) for r in table} == set(got)
    # the same command again is idempotent
    again = webmdp(*args)
    assert again.returncode == 0 and "0 episodes run (48 resumed)" in again.stderr
    assert len(rows(out)) == 48
    # --resume DIR takes the stored configuration
    resumed = webmdp("run", "--resume", str(out))
    assert resumed.returncode == 0 and "0 episodes run (48 resumed)" in resumed.stderr
    assert len(json.loads((out / "manifest.json").read_text())["invocations"]) == 3


def test_resume_runs_what_is_missing_and_refuses_another_run(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert webmdp("run", "--site", "mail", "--agent", "oracle", "--limit", "10", "--out",
                  str(out)).returncode == 0
    gone = sorted((out / "episodes" / "oracle" / "semantic").glob("*.json"))[:3]
    for p in gone:
        p.unlink()
    res = webmdp("run", "--resume", str(out), "--workers", "2")
    assert res.returncode == 0 and "3 episodes run (7 resumed)" in res.stderr
    assert len(rows(out)) == 10  # the tables are rebuilt from the traces
    # another agent, task set or mode in the same directory is refused, naming the difference
    for extra, needle in ((("--agent", "greedy"), "agents"), (("--limit", "5"), "task set"),
                          (("--step-budget", "7"), "step_budget")):
        res = webmdp("run", "--resume", str(out), *extra)
        assert res.returncode == 2, res.stderr
        assert "different run" in res.stderr and needle in res.stderr
        assert "--force" in res.stderr
    forced = webmdp("run", "--resume", str(out), "--agent", "greedy", "--force")
    assert forced.returncode == 0 and "10 episodes run" in forced.stderr
    nothing = webmdp("run", "--resume", str(tmp_path / "nope"))
    assert nothing.returncode == 2 and "no run directory" in nothing.stderr


def test_seeds_selection_and_labels(tmp_path: Path) -> None:
    out = tmp_path / "run"
    res = webmdp("run", "--site", "shopping", "--agent", "random", "--seeds", "0,1",
                 "--hard-negatives", "3", "--access-level", "detail,filter", "--limit", "6",
                 "--workers", "2", "--out", str(out))
    assert res.returncode == 0, res.stderr
    tasks = [json.loads(x) for x in (out / "tasks.jsonl").read_text().splitlines()]
    assert len(tasks) == 6
    assert all(t["complexity"]["hard_negative_count"] == 3 for t in tasks)
    assert all(t["complexity"]["access_level"] in ("detail", "filter") for t in tasks)
    assert sorted({r["agent"] for r in rows(out)}) == ["random", "random@s1"]
    assert len(rows(out)) == 12
    bad = webmdp("run", "--access-level", "nowhere")
    assert bad.returncode == 2 and "unknown access level 'nowhere'" in bad.stderr


def test_unwritable_run_directory_fails_loudly_before_running(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    res = webmdp("run", "--site", "mail", "--limit", "2", "--out", str(blocker / "run"))
    assert res.returncode == 2 and "cannot be created" in res.stderr
    # a trace that cannot be written stops the run with the cause; nothing counts as done
    out = tmp_path / "run"
    (out / "episodes" / "oracle").mkdir(parents=True)
    (out / "episodes" / "oracle" / "semantic").write_text("in the way")
    res = webmdp("run", "--site", "mail", "--limit", "4", "--workers", "2", "--out", str(out))
    assert res.returncode == 2
    assert "run stopped" in res.stderr and "semantic" in res.stderr
    m = json.loads((out / "manifest.json").read_text())
    assert m["invocations"][-1]["status"] == "failed"
    assert not run_processes(out)


def test_too_little_disk_space_is_refused(tmp_path: Path) -> None:
    from support import site_tasks
    from webmdp.runner.run import RunPlan, execute_run
    from webmdp.runner.spec import AgentSpec, RunSettings
    from webmdp.runner.store import StoreError

    plan = RunPlan(tmp_path, site_tasks("mail")[:2], [AgentSpec("oracle")], "semantic",
                   RunSettings(), min_free_mb=2**40)
    with pytest.raises(StoreError, match="MB free"):
        execute_run(plan)
    assert not (tmp_path / "episodes").exists()


def test_episode_stuck_past_its_time_limit_is_killed_retried_then_recorded(tmp_path: Path
                                                                         ) -> None:
    """A model that never answers in time: the agent's thread never reaches a step boundary,
    so the worker is killed as a last resort after --episode-timeout (plus its grace), the
    episode retried, and after the last attempt stored as an infra error with its cause (exit
    4: every episode of the run is one); no worker is left behind."""
    slow = Reply(text='{"action": "Finish", "params": {}}', delay_s=30)
    with ScriptedModelServer(lambda _req: slow) as srv:
        out = tmp_path / "run"
        res = webmdp("run", "--site", "mail", "--agent", "step", "--model",
                     "vllm/scripted-model", "--base-url", srv.base_url, "--api-key", "x",
                     "--task", "mail_0000", "--workers", "1", "--episode-timeout", "1",
                     "--retries", "1", "--out", str(out))
    assert res.returncode == 4, res.stderr
    (row,) = rows(out)
    assert row["termination"] == "infra_error"
    assert "wall-clock limit" in row["infra_error"] and "after 2 attempts" in row["infra_error"]
    assert "agent stuck" in row["infra_error"]
    events = [json.loads(x) for x in (out / "events.jsonl").read_text().splitlines()]
    assert [e["attempt"] for e in events if e["event"] == "attempt_failed"] == [0, 1]
    assert not run_processes(out)


def test_an_agent_named_by_module_path_runs_in_the_workers(tmp_path: Path) -> None:
    out = tmp_path / "run"
    res = webmdp("run", "--site", "mail", "--agent", "webmdp.agents.builtin:OracleAgent",
                 "--limit", "4", "--workers", "2", "--out", str(out))
    assert res.returncode == 0, res.stderr
    assert [r["success"] for r in rows(out)] == [True] * 4
    bad = webmdp("run", "--site", "mail", "--agent", "nowhere.mod:Agent", "--limit", "1",
                 "--workers", "0", "--out", str(tmp_path / "bad"))
    assert bad.returncode == 2 and "cannot load agent nowhere.mod:Agent" in bad.stderr
