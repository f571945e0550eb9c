"""The pre-action view of a step: what a step reward model may see (WebSTAR App. F: "the
assistant has not yet executed the proposed action").

A :class:`PreActionView` holds the instruction, the history (earlier actions and facts about
earlier steps), the page the step acted on (surface, url, screenshot), the proposed action and
the element it targets: the semantic action bound to it with its name, params and the skill,
category and commit flag the site's :class:`~webmdp.core.spec.ActionSpec` declares. Nothing the
step's own execution produced (the surface after, whether anything changed, what it revealed,
its error) has a field here, and every model is ``extra="forbid"``, so such a value cannot be
smuggled in under another key and reach a feature or a prompt (STYLE.md, "Pre-action views as
types"). :func:`pre_action_views` builds the views of a trace.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from webmdp.core.registry import get_site
from webmdp.core.spec import ActionSpec
from webmdp.errors import WebMDPError
from webmdp.synth.annotate import action_text, before_shots
from webmdp.synth.replay import is_finish
from webmdp.trace import EpisodeTrace, GUIStep, SemanticTransition

HISTORY_MAX = 12
"""Earlier actions a view keeps (the latest ones); the count of all is kept apart."""


class _Frozen(BaseModel):
    """Immutable and closed: an unknown key is an error, not silently carried along."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class ProposedAction(_Frozen):
    """The action the agent proposes, as it proposed it (``raw``) and as text."""

    text: str
    kind: str
    name: str | None = None
    params: dict[str, Any] | None = None
    finish: bool = False
    raw: dict[str, Any]


class TargetElement(_Frozen):
    """The semantic action bound to the element the action targets, and the surface it is on.

    ``skill``, ``category`` and ``commits`` come from the site's ActionSpec, never from the
    transition: a rejected transition records them empty, which would leak the outcome."""

    action: str
    params: dict[str, Any]
    skill: str = ""
    category: str = ""
    commits: bool = False
    surface: str


class PageView(_Frozen):
    """The page the step acted on: its surface, url and screenshot (absolute path or None)."""

    surface: str | None = None
    url: str | None = None
    screenshot: str | None = None


class PreActionView(_Frozen):
    """Everything a StepRM sees about one step, all of it known before the step runs."""

    step: int
    instruction: str
    action: ProposedAction
    target: TargetElement | None = None
    page: PageView
    history: list[str]
    n_history: int
    history_commits: int

    @classmethod
    def of_row(cls, row: dict[str, Any]) -> PreActionView:
        """The view inside a data-set row or step example (its step key, grade and label are
        left out; a post-action key inside the view's parts is refused)."""
        return cls.model_validate({k: row[k] for k in cls.model_fields if k in row})


def spec_of(site: str, name: str) -> ActionSpec | None:
    """The site's declaration of an action (None for an unknown site or action): what the
    element's binding says before anything runs."""
    try:
        return get_site(site).action_spec(name)
    except (WebMDPError, KeyError, ValueError):
        return None


def target_of(site: str, t: SemanticTransition) -> TargetElement:
    """The element's semantic action from the step's first transition, keeping only what the
    binding says (name, params, surface before); skill, category and commit from the spec."""
    spec = spec_of(t.site or site, t.action)
    return TargetElement(
        action=t.action, params=dict(t.params), surface=t.surface_before,
        skill=spec.skill if spec else "", category=spec.category.value if spec else "",
        commits=bool(spec and spec.changes_state))


def proposed(step: GUIStep) -> ProposedAction:
    """The step's action as proposed (no execution error: that is an outcome)."""
    a = step.action
    kind = "semantic" if "name" in a else str(a.get("kind", "?"))
    params = a.get("params")
    return ProposedAction(text=action_text(a), kind=kind, name=a.get("name"),
                          params=params if isinstance(params, dict) else None,
                          finish=is_finish(step), raw=dict(a))


def _commits(step: GUIStep) -> int:
    """Commits an earlier step made (a fact of the history by the time a later step runs)."""
    return sum(1 for tr in step.transitions if tr.changes_state)


def pre_action_views(trace: EpisodeTrace, instruction: str,
                     trace_path: Path | None = None) -> list[PreActionView]:
    """One view per GUI step. The page is the step's first transition's surface before, else
    the last surface an earlier step left; the url is the one an earlier step recorded (a
    browser step records the url *after* it), the screenshot the latest before the step."""
    shots = before_shots(trace)
    surface, url = trace.initial_surface, None
    history: list[str] = []
    commits = 0
    out: list[PreActionView] = []
    for i, step in enumerate(trace.steps):
        t = step.transitions[0] if step.transitions else None
        shot = shots[i] if i < len(shots) else None
        out.append(PreActionView(
            step=i, instruction=instruction, action=proposed(step),
            target=None if t is None else target_of(trace.site, t),
            page=PageView(surface=t.surface_before if t is not None else surface, url=url,
                          screenshot=(str((trace_path.parent / shot).resolve())
                                      if shot and trace_path is not None else None)),
            history=history[-HISTORY_MAX:], n_history=len(history), history_commits=commits))
        history.append(action_text(step.action))
        commits += _commits(step)
        if step.transitions:
            surface = step.transitions[-1].surface_after
        url = step.url or url
    return out
