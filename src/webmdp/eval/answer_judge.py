"""A model comparator for final answers, measured against the exact one.

WebForge compares a Direct or Mixed task's final answer with the expected value; ours does it
exactly, after normalisation (:func:`webmdp.tasks.answers.matches`: numbers, dates, case,
punctuation). Free text can say the right thing in words normalisation does not map ("twelve
dollars fifty", "the blue one"), which is where a model comparator helps, and where it can
also be wrong. :class:`AnswerJudge` asks a model whether each answer states the expected value;
every verdict is stored beside the exact one in ``RUN/answers/judge.jsonl`` (prompt and reply
included), and :func:`answer_agreement` gives the confusion matrix (exact in rows, the model
in columns), the agreement and Cohen's kappa. The exact verdict stays the one a run's success
uses: the model's is never trusted blind.

A reply without a final ``Verdict: same|different`` line leaves the answer unjudged (None,
never a fail), as does an endpoint that fails after its retries.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from webmdp.agents.llm.clients import ChatMessage, ModelClient
from webmdp.redact import scrubbed_line
from webmdp.synth.agreement import verdict_agreement
from webmdp.synth.episodes import Episode
from webmdp.synth.model_grader import ModelChat
from webmdp.tasks.answers import matches

SYSTEM = ("You compare a web agent's final answer with the expected answer of its task. Say "
          "whether the agent's answer states the expected value (other words, units or "
          "formats are fine; a different value, or several values where one was asked, is "
          "not). Explain briefly, then end with one line: `Verdict: same` or "
          "`Verdict: different`.")
_VERDICT = re.compile(r"verdict:\s*\**\s*(same|different)\b", re.IGNORECASE)


def parse_answer_verdict(text: str | None) -> int | None:
    """1 (same), 0 (different) from the last verdict line; None when there is none."""
    found = _VERDICT.findall(text or "")
    return None if not found else int(found[-1].lower() == "same")


class AnswerJudge(ModelChat):
    """Compares each answered episode's final answer with its task's expected one."""

    source = "answer-judge"

    def __init__(self, model_id: str, base_url: str | None = None, *,
                 client: ModelClient | None = None, **options: Any):
        super().__init__(model_id, base_url, client=client, **options)

    def judge(self, eps: list[Episode]) -> list[dict[str, Any]]:
        """One stored row per episode (in order)."""

        def one(ep: Episode) -> dict[str, Any]:
            expected, given = ep.task.answer, ep.trace.final_answer
            prompt = (f"TASK: {ep.task.instruction}\nEXPECTED ANSWER: {expected}\n"
                      f"AGENT'S FINAL ANSWER: {given if given is not None else '(none)'}")
            text, _call, error = self.ask([ChatMessage.text("system", SYSTEM),
                                           ChatMessage.text("user", prompt)])
            verdict = parse_answer_verdict(text)
            return {"agent": ep.label, "mode": ep.mode, "task_id": ep.task.id,
                    "judge": self.model_id, "expected": expected, "given": given,
                    "exact": int(matches(expected, given)), "verdict": verdict,
                    "why": "judged" if verdict is not None else (
                        "infra_error" if error else "unparseable"),
                    "prompt": prompt, "reply": text if text is not None else error}

        return self.map(eps, one)


def answered(eps: Iterable[Episode]) -> list[Episode]:
    """The episodes whose task expects a final answer (Direct and Mixed)."""
    return [e for e in eps if e.task.answer is not None]


def judge_answers(run: Path, judge: AnswerJudge, eps: list[Episode]) -> Path:
    """Judge ``eps``, appending a row each to ``RUN/answers/judge.jsonl``."""
    out = run / "answers"
    out.mkdir(parents=True, exist_ok=True)
    path = out / "judge.jsonl"
    rows = judge.judge(eps)
    with path.open("a", encoding="utf-8") as f:
        for r in rows:
            f.write(scrubbed_line(r))
    return path


def answer_agreement(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The exact comparison (rows) against the model's (columns), over the judged answers."""
    judged = [r for r in rows if r["verdict"] is not None]
    return {**verdict_agreement(rows),
            "model_only": [r["task_id"] for r in judged if r["verdict"] and not r["exact"]],
            "exact_only": [r["task_id"] for r in judged if r["exact"] and not r["verdict"]]}
