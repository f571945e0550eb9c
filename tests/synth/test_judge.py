"""The trajectory judge against the scripted model server on a real browser run."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_model_grader import FAST, closed_port

from webmdp.errors import ConfigError
from webmdp.synth.episodes import Episode, episodes
from webmdp.synth.judge import TrajectoryJudge, agreement, episode_screens
from webmdp.synth.prompts import parse_verdict
from webmdp.testing.model_server import ScriptedModelServer, SynthPrompt, synth_responder

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def eps(recorded_run: Path) -> list[Episode]:
    return list(episodes(recorded_run))


def test_judge_parses_success_and_failure(eps: list[Episode]) -> None:
    # the scripted judge agrees with the verifier on oracle runs and says success otherwise
    def verdict(p: SynthPrompt) -> bool:
        return "ACTIONS" in "\n".join(p.request.texts()) and seen[-1] == "oracle"

    seen: list[str] = []
    with ScriptedModelServer(synth_responder(verdict=verdict)) as srv:
        judge = TrajectoryJudge("openai/judge", base_url=srv.base_url, window=2, **FAST)
        rows = []
        for ep in eps:
            seen.append(ep.label)
            rows.append(judge.row(ep.label, ep.mode, ep.trace, ep.path, ep.task))
        n_images = [len(r.images()) for r in srv.requests]
    assert [r["judge"] for r in rows] == [ep.label == "oracle" for ep in eps]
    assert all(r["why"] == "judge" and r["prompt_tokens"] > 0 for r in rows)
    assert n_images and all(n <= 2 for n in n_images)
    stats = agreement(rows)
    assert stats["n"] == len(eps) and stats["unjudged"] == 0
    expected = sum(ep.trace.success == (ep.label == "oracle") for ep in eps) / len(eps)
    assert stats["agreement"] == pytest.approx(expected)


def test_unparseable_and_down_are_none(eps: list[Episode]) -> None:
    ep = eps[0]
    with ScriptedModelServer(synth_responder(verdict=lambda p: "It looks fine.")) as srv:
        v = TrajectoryJudge("anthropic/judge", base_url=srv.root_url, **FAST).verdict(
            ep.trace, ep.path, ep.task)
    assert v.success is None and v.why == "unparseable"
    down = TrajectoryJudge("openai/judge", base_url=f"http://127.0.0.1:{closed_port()}/v1",
                           **FAST).verdict(ep.trace, ep.path, ep.task)
    assert down.success is None and down.why == "infra_error" and down.error


def test_screens_end_on_the_final_page_and_respect_the_window(eps: list[Episode]) -> None:
    ep = eps[0]
    shots = episode_screens(ep.trace)
    assert shots[0][1] == ep.trace.initial_screenshot
    last = [s.screenshot for s in ep.trace.steps if s.screenshot][-1]
    assert shots[-1][1] == last and all((ep.path.parent / rel).is_file() for _, rel in shots)
    assert episode_screens(ep.trace, 3) == shots[-3:]


def test_no_screenshots_is_a_one_line_error(semantic_run: Path) -> None:
    ep = next(iter(episodes(semantic_run)))
    with pytest.raises(ConfigError, match="--screenshots"):
        TrajectoryJudge("openai/judge", base_url="http://127.0.0.1:9/v1").verdict(
            ep.trace, Path(ep.path), ep.task)


def test_verdict_parsing() -> None:
    assert parse_verdict("Verdict: failure\nno wait\nVerdict: success") is True
    assert parse_verdict("**Verdict:** Failure") is False
    assert parse_verdict("success!") is None
