"""Matchers: does one agent step fulfil one gold step? (planning paper, 4.1 and Table 2)

Against our own oracle the gold steps are typed semantic actions and matching is exact
(DESIGN.md: exact before judged). Gold written as free text (the paper's human WebArena
annotations) is compared as normalised text, or by an LLM judge that runs only when one is
configured and is asked only what the exact and normalised comparisons cannot settle.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from webmdp.core.spec import Action
from webmdp.errors import ConfigError, unknown_choice

if TYPE_CHECKING:  # the clients pull in the agents package; the judge imports them when made
    from webmdp.agents.llm.clients import ModelClient
    from webmdp.trace import ModelCall

GoldStep = Action | str
"""A typed semantic action (our oracle) or a free-text step (human annotation)."""

DEFAULT_THRESHOLD = 0.5
"""Minimum judge score for a match. The paper names a predefined threshold on a 0-1 similarity
score without giving its value; its prompt asks for 0 or 1, so any threshold in (0, 1] gives the
same verdicts on compliant answers, and 0.5 settles a graded answer by the nearer end."""


@dataclass(frozen=True)
class AgentStep:
    """One agent step as matchers see it: the semantic actions it accomplished (accepted
    transitions) and, in browser mode, the GUI action that caused them, as text. ``valid`` is
    false for a rejected or unparseable step, which fulfils no gold step."""

    index: int
    actions: tuple[Action, ...] = ()
    gui: str = ""
    valid: bool = True

    @property
    def text(self) -> str:
        """The step as one line, e.g. ``click(element=12) -> AddToCart(product_id=PRD-1)``."""
        effect = "; ".join(render_action(a) for a in self.actions)
        if self.gui and effect:
            return f"{self.gui} -> {effect}"
        return self.gui or effect or "(no action)"

    def renderings(self) -> tuple[str, ...]:
        """Every text the step may be recognised by: the whole line, the GUI action, each
        semantic action."""
        parts = [self.text, self.gui, *(render_action(a) for a in self.actions)]
        return tuple(dict.fromkeys(p for p in parts if p))


def _value(v: Any) -> str:
    return v if isinstance(v, str) else json.dumps(v, sort_keys=True, ensure_ascii=False)


def render_action(action: Action) -> str:
    """Canonical text of a typed action: ``AddToCart(product_id=PRD-1)``, parameters sorted."""
    args = ", ".join(f"{k}={_value(action.params[k])}" for k in sorted(action.params))
    return f"{action.name}({args})"


def render_step_action(action: Mapping[str, Any]) -> str:
    """Canonical text of a step's ``action`` dict: a semantic ``{"name", "params"}`` as
    :func:`render_action`, a GUI action as ``click(element=12)`` / ``type(text=hello)``."""
    if "name" in action:
        return render_action(Action(str(action["name"]), dict(action.get("params") or {})))
    kind = str(action.get("kind", "?"))
    args = ", ".join(f"{k}={_value(action[k])}" for k in sorted(action) if k != "kind")
    return f"{kind}({args})"


def normalize(text: str) -> str:
    """Case, whitespace and punctuation removed (Table 2, note 1: casing, extra or missing
    spaces and punctuation are ignored): ``"Add to cart"`` and ``AddToCart()`` are equal."""
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def gold_text(gold: GoldStep) -> str:
    return render_action(gold) if isinstance(gold, Action) else gold.strip()


class Matcher(Protocol):
    """Decides whether one agent step fulfils one gold step."""

    @property
    def name(self) -> str:
        """What ran, with its arguments, for results files."""
        ...

    def matches(self, step: AgentStep, gold: GoldStep) -> bool: ...


@dataclass(frozen=True)
class ExactMatcher:
    """Typed gold: some accepted action of the step has the gold's name and parameters.
    Text gold: the gold text equals one of the step's renderings verbatim."""

    name: str = "exact"

    def matches(self, step: AgentStep, gold: GoldStep) -> bool:
        if isinstance(gold, Action):
            return any(a.name == gold.name and a.params == gold.params for a in step.actions)
        return gold.strip() in step.renderings()


@dataclass(frozen=True)
class NormalizedMatcher:
    """The gold (a typed gold rendered canonically) equals one of the step's renderings after
    :func:`normalize`."""

    name: str = "normalized"

    def matches(self, step: AgentStep, gold: GoldStep) -> bool:
        if ExactMatcher().matches(step, gold):
            return True
        key = normalize(gold_text(gold))
        return any(normalize(r) == key for r in step.renderings())


JUDGE_SYSTEM = """\
You will be provided with two actions:
1. Human-Recorded Action: the human's action description.
2. Agent-Recorded Action: the agent's action description, which may include metadata like IDs.
Your task is to determine whether the Human-Recorded Action and the Agent-Recorded Action are \
semantically equivalent.

Evaluation Criteria:
Semantic Equivalence means both actions express the same intent. Your output must be a single \
numerical value: 1 if both actions are semantically identical, 0 if they are not.
Note:
1. Minor textual variations such as differences in casing ('Design' vs 'design'), extra/missing \
spaces, or punctuation should be ignored as long as the core identity and meaning are preserved.
2. Any substantive mismatch in meaning or details (e.g., different dates) must result in a 0.

Evaluation Steps:
1. Read the Human-Recorded Action and the Agent-Recorded Action carefully.
2. Rate the output as 1 (same) or 0 (different) according to the criteria above.

Example:
Human-Recorded Action: search for flights.
Agent-Recorded Action: find flights.
Output: 1"""
"""The semantic-equivalence prompt of the planning paper, Table 2 (task definition, criteria,
chain-of-thought steps)."""

_NUMBER_RE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(?!\.?\d)(?!\w)")


def parse_score(reply: str) -> float | None:
    """The judge's score: the last number in [0, 1] in its reply (a reasoning judge may think
    aloud first); None when there is none."""
    scores = [v for v in map(float, _NUMBER_RE.findall(reply)) if 0.0 <= v <= 1.0]
    return scores[-1] if scores else None


@dataclass
class LLMJudgeMatcher:
    """The paper's semantic judge (4.1, Table 2): a model scores the pair 0 (different) to 1
    (identical) and the pair matches when the score reaches ``threshold``.

    Exact and normalised equality are decided without the model, an invalid step never
    matches, and verdicts are cached per (step text, gold text), so each distinct pair is
    asked once. A reply without a number counts as no match and is kept in ``unparsed``;
    an endpoint failure raises :class:`~webmdp.errors.ModelEndpointError`."""

    client: ModelClient
    threshold: float = DEFAULT_THRESHOLD
    scores: dict[tuple[str, str], float | None] = field(default_factory=dict)
    calls: list[ModelCall] = field(default_factory=list)
    unparsed: list[tuple[str, str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not 0.0 <= self.threshold <= 1.0:
            raise ConfigError(f"judge threshold must be in [0, 1], got {self.threshold}")

    @classmethod
    def from_model(cls, model_id: str, *, threshold: float = DEFAULT_THRESHOLD,
                   **client_options: Any) -> LLMJudgeMatcher:
        """A judge on ``provider/model`` (e.g. ``openai/gpt-4o-mini``); options as for
        :func:`~webmdp.agents.llm.clients.client_config` (``base_url``, ``api_key``, ...)."""
        from webmdp.agents.llm.clients import client_config, make_client

        return cls(make_client(client_config(model_id, **client_options)), threshold=threshold)

    @property
    def name(self) -> str:
        cfg = self.client.config
        return f"llm-judge({cfg.provider}/{cfg.model}, threshold={self.threshold:g})"

    def matches(self, step: AgentStep, gold: GoldStep) -> bool:
        if not step.valid:
            return False
        if NormalizedMatcher().matches(step, gold):
            return True
        score = self.score(step.text, gold_text(gold))
        return score is not None and score >= self.threshold

    def score(self, agent_text: str, human_text: str) -> float | None:
        """The judge's cached score for one pair; asks the model on a cache miss."""
        key = (agent_text, human_text)
        if key not in self.scores:
            self.scores[key] = self._ask(agent_text, human_text)
        return self.scores[key]

    def _ask(self, agent_text: str, human_text: str) -> float | None:
        from webmdp.agents.llm.clients import ChatMessage

        user = (f"Human-Recorded Action: {human_text}\nAgent-Recorded Action: {agent_text}\n"
                "Output:")
        reply = self.client.chat([ChatMessage.text("system", JUDGE_SYSTEM),
                                  ChatMessage.text("user", user)],
                                 purpose="judge", temperature=0.0)
        self.calls.append(reply.call)
        score = parse_score(reply.text)
        if score is None:
            self.unparsed.append((agent_text, human_text, reply.text))
        return score


MATCHERS: tuple[str, ...] = ("exact", "normalized", "llm-judge")


def make_matcher(name: str, *, judge_model: str | None = None,
                 threshold: float = DEFAULT_THRESHOLD, **client_options: Any) -> Matcher:
    """A matcher by name; ``llm-judge`` needs ``judge_model`` (``provider/model``)."""
    if name == "exact":
        return ExactMatcher()
    if name == "normalized":
        return NormalizedMatcher()
    if name == "llm-judge":
        if not judge_model:
            raise ConfigError("matcher llm-judge needs a judge model (provider/model)")
        return LLMJudgeMatcher.from_model(judge_model, threshold=threshold, **client_options)
    raise unknown_choice("matcher", name, list(MATCHERS))


__all__ = [
    "DEFAULT_THRESHOLD", "JUDGE_SYSTEM", "MATCHERS", "AgentStep", "ExactMatcher", "GoldStep",
    "LLMJudgeMatcher", "Matcher", "NormalizedMatcher", "gold_text", "make_matcher", "normalize",
    "parse_score", "render_action", "render_step_action",
]
