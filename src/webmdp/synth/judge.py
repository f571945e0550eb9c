"""The trajectory judge (WebSTAR 3.1): a model sees the instruction, the episode's full action
sequence, its final answer and the screenshots of the pages it went through (the last
``window`` of them, ending with the page it finished on; all with ``window`` None) and answers
success or failure. The rollout filter's default is the exact verifier; the judge is the
seed's alternative, and :func:`agreement` measures it against the verifier.

A reply without a final ``Verdict: success|failure`` line is ``None`` (unparseable, never
guessed); an endpoint that fails after the client's retries is ``None`` with ``why``
``infra_error``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from webmdp.agents.llm.clients import ChatMessage, ModelClient
from webmdp.errors import ConfigError
from webmdp.synth.annotate import (
    action_text,
    before_shots,
    final_shot,
    load_shot,
    require_screenshots,
)
from webmdp.synth.model_grader import INFRA_ERROR, UNPARSEABLE, ModelChat, call_usage
from webmdp.synth.prompts import judge_messages, parse_verdict
from webmdp.synth.sidefile import Row
from webmdp.tasks.model import Task
from webmdp.trace import EpisodeTrace


@dataclass(frozen=True)
class Verdict:
    """The judge's answer on one episode: ``success`` True / False, or None (``why`` says:
    ``unparseable`` or ``infra_error``)."""

    success: bool | None
    why: str
    text: str | None = None
    usage: dict[str, int] | None = None
    error: str | None = None


def episode_screens(trace: EpisodeTrace, window: int | None = None) -> list[tuple[str, str]]:
    """(caption, screenshot path relative to the trace) of the pages the episode went through,
    in order and without repeats: the page at reset, after each step that saved one; the last
    ``window`` of them when given."""
    shots: list[tuple[str, str]] = []
    seen: set[str] = set()
    befores = before_shots(trace)
    for i, rel in enumerate(befores):
        if rel is not None and rel not in seen:
            seen.add(rel)
            shots.append((f"the page step {i} acted on", rel))
    last = final_shot(trace)
    if last is not None and last not in seen:
        shots.append(("the page the episode ended on", last))
    return shots[-window:] if window else shots


class TrajectoryJudge(ModelChat):
    """Judges whole episodes. ``window``: at most this many screenshots (the last ones);
    None shows them all. ``require_screenshots``: a trace with none raises
    :class:`ConfigError` naming the run option (False: judge from the actions alone)."""

    source = "judge"

    def __init__(self, model_id: str, base_url: str | None = None,
                 window: int | None = None, *, client: ModelClient | None = None,
                 require_screenshots: bool = True, **options: Any):
        if window is not None and window < 1:
            raise ConfigError(f"--judge-window must be at least 1, got {window}")
        super().__init__(model_id, base_url, client=client, **options)
        self.window, self.require = window, require_screenshots

    def messages(self, trace: EpisodeTrace, trace_path: Path, task: Task
                 ) -> list[ChatMessage]:
        if self.require:
            require_screenshots(trace, trace_path)
        shots = [(caption, load_shot(trace_path, rel))
                 for caption, rel in episode_screens(trace, self.window)]
        actions = [action_text(s.action) for s in trace.steps]
        return judge_messages(task.instruction, actions, trace.final_answer, shots)

    def verdict(self, trace: EpisodeTrace, trace_path: Path, task: Task) -> Verdict:
        text, call, error = self.ask(self.messages(trace, trace_path, task))
        if error is not None:
            return Verdict(None, INFRA_ERROR, error=error)
        ok = parse_verdict(text or "")
        return Verdict(ok, "judge" if ok is not None else UNPARSEABLE, text, call_usage(call))

    def row(self, label: str, mode: str, trace: EpisodeTrace, trace_path: Path, task: Task
            ) -> Row:
        """One row per episode: the verdict next to the exact verifier's."""
        v = self.verdict(trace, trace_path, task)
        row: Row = {"task_id": trace.task_id, "agent": label, "mode": mode, "seed": trace.seed,
                    "judge": v.success, "verifier": trace.success, "why": v.why,
                    "model": self.model_id, "source": self.source}
        row.update(v.usage or {})
        if v.error is not None:
            row["error"] = v.error
        return row


def agreement(rows: Iterable[Row]) -> dict[str, Any]:
    """The judge against the verifier over episode rows: ``n`` judged, ``agreement``, the
    confusion counts and how many went unjudged."""
    rows = list(rows)
    judged = [r for r in rows if r.get("judge") is not None]
    both = {(True, True): 0, (True, False): 0, (False, True): 0, (False, False): 0}
    for r in judged:
        both[(bool(r["verifier"]), bool(r["judge"]))] += 1
    n = len(judged)
    agree = both[(True, True)] + both[(False, False)]
    return {"n": n, "unjudged": len(rows) - n,
            "agreement": round(agree / n, 4) if n else None,
            "verifier_pass_judge_pass": both[(True, True)],
            "verifier_pass_judge_fail": both[(True, False)],
            "verifier_fail_judge_pass": both[(False, True)],
            "verifier_fail_judge_fail": both[(False, False)]}
