"""The model step grader against the scripted model server, on a real browser run with
screenshots (the ``recorded_run`` fixture the synth tests share, tests/synth/conftest.py)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from webmdp.errors import ConfigError
from webmdp.synth import prompts
from webmdp.synth.episodes import Episode, episodes
from webmdp.synth.model_grader import ModelGrader, retry_steps
from webmdp.testing.model_server import (
    SYNTH_MARKERS,
    Reply,
    ScriptedModelServer,
    synth_prompt,
    synth_responder,
)

pytestmark = pytest.mark.browser
FAST = {"max_retries": 0, "backoff_s": 0.01, "timeout_s": 10.0}


@pytest.fixture(scope="module")
def eps(recorded_run: Path) -> list[Episode]:
    return list(episodes(recorded_run))


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_markers_match_the_prompts() -> None:
    assert SYNTH_MARKERS == {"grade": prompts.CRITIC_MARKER, "thought": prompts.THOUGHT_MARKER,
                             "judge": prompts.JUDGE_MARKER}
    assert prompts.CRITIC_SYSTEM.startswith(prompts.CRITIC_MARKER)


def test_grades_are_parsed_from_the_replies(eps: list[Episode]) -> None:
    ep = eps[0]
    with ScriptedModelServer(synth_responder(lambda p: p.step % 11)) as srv:
        rows = ModelGrader("openai/critic", base_url=srv.base_url, window=2,
                           **FAST).rows(ep.label, ep.mode, ep.trace, ep.path, ep.task)
        reqs = sorted(srv.requests, key=lambda r: synth_prompt(r).step)  # type: ignore[union-attr]
    assert [r["step"] for r in rows] == list(range(len(ep.trace.steps)))
    assert [r["grade"] for r in rows] == [i % 11 for i in range(len(rows))]
    assert all(r["source"] == "model" and r["why"] == "model" and "sample" not in r
               and r["prompt_tokens"] > 0 and r["completion_tokens"] > 0
               and r["critique"].endswith(f"Expected value: {r['grade']}") for r in rows)
    assert {"task_id", "agent", "mode", "seed", "step", "grade", "source"} <= rows[0].keys()
    # window 2 + the crop: step 0 sees its screen and the zoom, later steps one screen more
    assert len(reqs[0].images()) == 2 and all(len(r.images()) == 3 for r in reqs[1:])
    text = "\n".join(reqs[1].texts())
    assert ep.task.instruction in text and "PROPOSED ACTION (step 1):" in text


def test_unparseable_and_out_of_range_replies_are_ungraded(eps: list[Episode]) -> None:
    ep = eps[0]
    answers = {0: "I think it is fine.", 1: "Expected value: 11", 2: "Expected value: 7.5"}
    with ScriptedModelServer(synth_responder(lambda p: answers.get(p.step, 6))) as srv:
        rows = ModelGrader("openai/critic", base_url=srv.base_url, **FAST).rows(
            ep.label, ep.mode, ep.trace, ep.path, ep.task)
    assert [(r["grade"], r["why"]) for r in rows[:3]] == [(None, "unparseable")] * 3
    assert all(r["grade"] == 6 for r in rows[3:])


def test_endpoint_down_gives_infra_error_rows_to_retry(eps: list[Episode]) -> None:
    ep = eps[0]
    grader = ModelGrader("openai/critic", base_url=f"http://127.0.0.1:{closed_port()}/v1",
                         **FAST)
    rows = grader.rows(ep.label, ep.mode, ep.trace, ep.path, ep.task)
    assert rows and all(r["grade"] is None and r["why"] == "infra_error" and r["error"]
                        for r in rows)
    todo = retry_steps(rows)
    assert todo == {(ep.label, ep.mode, ep.trace.task_id): set(range(len(ep.trace.steps)))}
    # a 500 on one step only: that step is the one to retry
    with ScriptedModelServer(synth_responder(
            lambda p: Reply(status=500) if p.step == 1 else 9)) as srv:
        rows = ModelGrader("openai/critic", base_url=srv.base_url, **FAST).rows(
            ep.label, ep.mode, ep.trace, ep.path, ep.task)
        again = ModelGrader("openai/critic", base_url=srv.base_url, **FAST).rows(
            ep.label, ep.mode, ep.trace, ep.path, ep.task,
            steps=retry_steps(rows)[(ep.label, ep.mode, ep.trace.task_id)])
    assert [r["step"] for r in rows if r["why"] == "infra_error"] == [1]
    assert [(r["step"], r["why"]) for r in again] == [(1, "infra_error")]


def test_samples_give_k_rows_per_step(eps: list[Episode]) -> None:
    ep = eps[-1]
    with ScriptedModelServer(synth_responder(7)) as srv:
        grader = ModelGrader("openai/critic", base_url=srv.base_url, samples=3, **FAST)
        rows = grader.rows(ep.label, ep.mode, ep.trace, ep.path, ep.task)
        temps = {r.body.get("temperature") for r in srv.requests}
    n = len(ep.trace.steps)
    assert len(rows) == 3 * n
    assert sorted((r["step"], r["sample"]) for r in rows) == [
        (i, s) for i in range(n) for s in range(3)]
    assert all(r["grade"] == 7 for r in rows) and temps == {1.0}


def test_traces_without_screenshots_name_the_run_option(semantic_run: Path) -> None:
    ep = next(iter(episodes(semantic_run)))
    grader = ModelGrader("openai/critic", base_url="http://127.0.0.1:9/v1", **FAST)
    with pytest.raises(ConfigError) as err:
        grader.rows(ep.label, ep.mode, ep.trace, ep.path, ep.task)
    msg = str(err.value)
    assert "\n" not in msg and "webmdp run --mode browser --screenshots" in msg


def test_expected_value_parsing() -> None:
    p = prompts.parse_expected_value
    assert p("Expected value: 3\n...\nExpected value: 8") == 8
    assert p("**Expected value:** 10") == 10
    assert p("expected value = 0") == 0
    assert p("Expected value: -1") is None and p("no score") is None and p("") is None
