"""The model step grader (WebSTAR 3.2): a model critic scores every GUI step 0-10 from the
instruction, the earlier actions with their thoughts, the last ``window`` screenshots marked
with their actions (:mod:`webmdp.synth.annotate`) and a zoomed crop around the proposed action's
target, following the eight-stage prompt of :mod:`webmdp.synth.prompts`.

Rows have the exact grader's format (:func:`webmdp.synth.exact.grade_row`, source ``model``).
The grade is the reply's last ``Expected value: <int>`` (0-10); a reply without one is
recorded ungraded (``why`` = ``unparseable``), never guessed; a request that still fails after
the client's retries is ungraded with ``why`` = ``infra_error``, so a later run can retry
exactly those steps (:func:`retry_steps`). With ``samples`` = k every step is asked k times
(rows carry ``sample``), for the consistency figures; k > 1 samples at temperature 1 unless a
temperature is given.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from webmdp.agents.llm.clients import ChatMessage, ModelClient, client_config, make_client
from webmdp.errors import ConfigError, ModelEndpointError
from webmdp.synth.annotate import EpisodeScreens, action_text
from webmdp.synth.exact import Graded, grade_row
from webmdp.synth.prompts import PriorStep, critic_messages, parse_expected_value
from webmdp.synth.sidefile import Row
from webmdp.tasks.model import Task
from webmdp.trace import EpisodeTrace, ModelCall

UNPARSEABLE = "unparseable"
INFRA_ERROR = "infra_error"


def prior_steps(trace: EpisodeTrace, index: int) -> list[PriorStep]:
    """The steps before ``index`` as the prompts list them: action and the agent's thought."""
    return [PriorStep(j, action_text(s.action), s.notes.thought if s.notes else None)
            for j, s in enumerate(trace.steps[:index])]


def call_usage(call: ModelCall | None) -> dict[str, int]:
    """``prompt_tokens`` / ``completion_tokens`` of a call, where the endpoint reported them."""
    if call is None:
        return {}
    return {k: v for k, v in (("prompt_tokens", call.prompt_tokens),
                              ("completion_tokens", call.completion_tokens)) if v is not None}


class ModelChat:
    """A model endpoint for the synth tools: ``provider/model``, an optional base URL and the
    client options (``timeout_s``, ``max_retries``, ``backoff_s``, ``concurrency``,
    ``temperature``, ``max_tokens``, ``api_key``). The client is made on first use."""

    def __init__(self, model_id: str, base_url: str | None = None, *,
                 client: ModelClient | None = None, **options: Any):
        self.model_id = model_id
        self.config = client.config if client is not None else client_config(
            model_id, base_url=base_url, **options)
        self._client = client

    @property
    def client(self) -> ModelClient:
        if self._client is None:
            self._client = make_client(self.config)
        return self._client

    def ask(self, messages: list[ChatMessage], temperature: float | None = None
            ) -> tuple[str | None, ModelCall | None, str | None]:
        """(reply text, its call record, None) or (None, None, the endpoint error's line)."""
        try:
            reply = self.client.chat(messages, purpose="judge", temperature=temperature)
        except ModelEndpointError as exc:
            return None, None, str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return reply.text, reply.call, None

    def map(self, jobs: list[Any], fn: Any) -> list[Any]:
        """``fn`` over ``jobs`` with as many threads as the endpoint allows, results in order
        (the client's per-endpoint semaphore is the real limit)."""
        if len(jobs) <= 1 or self.config.concurrency <= 1:
            return [fn(j) for j in jobs]
        with ThreadPoolExecutor(max_workers=self.config.concurrency,
                                thread_name_prefix="synth-model") as pool:
            return list(pool.map(fn, jobs))


class ModelGrader(ModelChat):
    """Grades the steps of stored browser traces with a model critic (see the module doc).

    ``window``: screenshots shown (the current one and up to ``window - 1`` before it);
    ``samples``: requests per step; ``keep_text``: store the critic's answer in the row
    (``critique``), as WebSTAR keeps its rationale."""

    source = "model"

    def __init__(self, model_id: str, base_url: str | None = None, window: int = 3,
                 samples: int = 1, *, client: ModelClient | None = None,
                 keep_text: bool = True, **options: Any):
        if window < 1:
            raise ConfigError(f"--window must be at least 1, got {window}")
        if samples < 1:
            raise ConfigError(f"--samples must be at least 1, got {samples}")
        super().__init__(model_id, base_url, client=client, **options)
        self.window, self.samples, self.keep_text = window, samples, keep_text
        self.temperature: float | None = options.get("temperature")
        if self.temperature is None and samples > 1:
            self.temperature = 1.0

    def requests(self, trace: EpisodeTrace, trace_path: Path, instruction: str,
                 steps: Collection[int] | None = None) -> dict[int, list[ChatMessage]]:
        """The critic's messages for each step to grade (all steps by default)."""
        screens = EpisodeScreens(trace, trace_path)
        out: dict[int, list[ChatMessage]] = {}
        for i, step in enumerate(trace.steps):
            if steps is not None and i not in steps:
                continue
            out[i] = critic_messages(instruction, prior_steps(trace, i), i,
                                     action_text(step.action), screens.window(i, self.window),
                                     screens.zoom(i))
        return out

    def rows(self, label: str, mode: str, trace: EpisodeTrace, trace_path: Path, task: Task,
             steps: Collection[int] | None = None) -> list[Row]:
        """One row per step (per step and sample with ``samples`` > 1), in step order.
        ``steps``: only these step indices (to retry the ungraded ones)."""
        requests = self.requests(trace, trace_path, task.instruction, steps)
        jobs = [(i, s) for i in sorted(requests) for s in range(self.samples)]

        def run(job: tuple[int, int]) -> Row:
            i, s = job
            text, call, error = self.ask(requests[i], self.temperature)
            grade = parse_expected_value(text) if text is not None else None
            why = INFRA_ERROR if error is not None else (
                self.source if grade is not None else UNPARSEABLE)
            row = grade_row(label, mode, trace, i, Graded(grade, why), self.source)
            row["model"] = self.model_id
            if self.samples > 1:
                row["sample"] = s
            row.update(call_usage(call))
            if error is not None:
                row["error"] = error
            elif self.keep_text:
                row["critique"] = text
            return row

        return self.map(jobs, run)


def retry_steps(rows: Iterable[Row]) -> dict[tuple[str, str, str], set[int]]:
    """Steps whose stored model rows failed on the endpoint, by (agent, mode, task_id): what a
    resumed ``webmdp synth grade --grader model`` asks again (pass them as ``steps``)."""
    out: dict[tuple[str, str, str], set[int]] = {}
    for r in rows:
        if r.get("grade") is None and r.get("why") == INFRA_ERROR:
            out.setdefault((str(r["agent"]), str(r["mode"]), str(r["task_id"])),
                           set()).add(int(r["step"]))
    return out
