"""Thought augmentation: exact thoughts from the MDP (no model) and model thoughts against the
scripted model server, which never change the action."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from test_model_grader import FAST

from webmdp.core.registry import get_site
from webmdp.synth.episodes import episodes
from webmdp.synth.exact import ExactGrader
from webmdp.synth.prompts import parse_thought
from webmdp.synth.thoughts import ExactThoughts, ModelThoughts, words
from webmdp.testing.model_server import ScriptedModelServer, SynthPrompt, synth_responder
from webmdp.trace import EpisodeTrace


def test_exact_thoughts_for_every_oracle_step_name_its_action(semantic_run: Path) -> None:
    maker = ExactThoughts()
    for ep in episodes(semantic_run):
        rows = maker.rows(ep.label, ep.mode, ep.trace, ep.task)
        assert [r["step"] for r in rows] == list(range(len(ep.trace.steps)))
        assert all(r["thought"] and r["source"] == "exact" for r in rows)
        assert rows[0]["thought"].startswith("My task: " + ep.task.instruction.rstrip("."))
        for r, step in zip(rows, ep.trace.steps, strict=True):
            a = step.action
            assert f"Next action: {words(a['name'])}" in r["thought"], r["thought"]
            assert all(str(v) in r["thought"] for v in (a.get("params") or {}).values())
            assert r["action"] == a
        commits = [r for r, s in zip(rows, ep.trace.steps, strict=True)
                   if s.action["name"] == "OpenProduct"
                   and s.action["params"]["product_id"] == ep.task.target]
        assert commits and ep.task.target in commits[0]["thought"]
        assert "done" in rows[-1]["thought"]  # the finish says what the agent believes
        for c in ep.task.verifier:  # never the verifier's words
            assert not c.description or all(c.description not in r["thought"] for r in rows)


def test_exact_thoughts_on_browser_steps_say_the_gui_action(recorded_run: Path) -> None:
    maker = ExactThoughts()
    ep = next(e for e in episodes(recorded_run) if e.label == "oracle")
    thoughts = maker.thoughts(ep.trace, ep.task)
    site = get_site(ep.task.site)
    assert site is not None and len(thoughts) == len(ep.trace.steps)
    assert thoughts[0].startswith("My task: ")
    typed = next(i for i, s in enumerate(ep.trace.steps) if s.action["kind"] == "type")
    assert "I type" in thoughts[typed]
    clicks = [i for i, s in enumerate(ep.trace.steps) if s.action["kind"] == "click"]
    assert clicks and all("I click" in thoughts[i] for i in clicks)
    # no coordinates or pixel amounts: the target states them in its grammar's frame
    assert not any(re.search(r"\(\d+, \d+\)|\d+px", t) for t in thoughts), thoughts


def _hindsight_twin(trace: EpisodeTrace, i: int) -> EpisodeTrace:
    """The trace cut after step ``i``, whose step ``i`` has another outcome: refused, no
    change, another page after it, nothing revealed."""
    step = trace.steps[i]
    moved = [t.model_copy(update={"error": "refused by the site", "surface_after": "Elsewhere",
                                  "changed": False, "revealed": []})
             for t in step.transitions]
    steps = [*trace.steps[:i], step.model_copy(update={"transitions": moved,
                                                       "error": "refused by the site"})]
    return trace.model_copy(update={"steps": steps, "success": False})


@pytest.mark.parametrize("which", ["semantic", "browser"])
def test_the_same_pre_state_and_action_give_the_same_thought(
        which: str, request: pytest.FixtureRequest) -> None:
    """Whatever the step's outcome, grade, or what came after it: the thought of step i is
    fixed by what existed before it."""
    run = request.getfixturevalue("semantic_run" if which == "semantic" else "recorded_run")
    ep = next(e for e in episodes(run) if e.label == "oracle")
    maker = ExactThoughts()
    grader = ExactGrader()
    original = maker.thoughts(ep.trace, ep.task)
    grades = [g.grade for g in grader.grades(ep.trace, ep.task)]
    regraded = 0
    for i in range(len(ep.trace.steps) - 1):
        twin = _hindsight_twin(ep.trace, i)
        regraded += grader.grades(twin, ep.task)[i].grade != grades[i]
        assert maker.thoughts(twin, ep.task)[i] == original[i], i
    assert regraded > 0  # the twins' steps are graded otherwise, their thoughts are not


@pytest.mark.browser
def test_model_thoughts_never_change_the_action(recorded_run: Path) -> None:
    run = recorded_run
    ep = next(iter(episodes(run)))
    before = ep.path.read_bytes()

    def thought(p: SynthPrompt) -> str:  # the model tries to sneak another action in
        return f"Thought: I look at step {p.step} and decide.\nAction: click(point='1 1')"

    with ScriptedModelServer(synth_responder(thought=thought)) as srv:
        rows = ModelThoughts("openai/writer", base_url=srv.base_url, **FAST).rows(
            ep.label, ep.mode, ep.trace, ep.path, ep.task)
        assert all(len(r.images()) == 1 for r in srv.requests)
    assert [r["action"] for r in rows] == [s.action for s in ep.trace.steps]
    assert all(r["thought"] == f"I look at step {r['step']} and decide." for r in rows)
    assert all("Action" not in r["thought"] and r["why"] == "model" for r in rows)
    assert ep.path.read_bytes() == before  # the trace is never rewritten
    with ScriptedModelServer(synth_responder(thought=lambda p: "Action: scroll")) as srv:
        empty = ModelThoughts("openai/writer", base_url=srv.base_url, **FAST).rows(
            ep.label, ep.mode, ep.trace, ep.path, ep.task, steps={0})
    assert [(r["thought"], r["why"]) for r in empty] == [(None, "unparseable")]
    json.dumps(rows)  # rows are JSON as they stand


def test_parse_thought() -> None:
    assert parse_thought("Thought: a\n b \nAction: click(1, 2)") == "a b"
    assert parse_thought("plain text") == "plain text"
    assert parse_thought("  ") is None
