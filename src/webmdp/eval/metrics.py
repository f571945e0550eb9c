"""Per-episode process metrics computed from a semantic trace (WebSTEP 4.1, 4.2, 4.4, C.3, C.4).

Everything here is a pure function of an :class:`EpisodeTrace` and its :class:`Task`; the site
is consulted only for declared data (surface kinds, action categories). A site this project
does not implement (a task imported from published WebSTEP bundles) declares that data in the
task itself, under ``task.world["site_spec"]`` (:class:`DeclaredSite`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from pydantic import BaseModel, Field

from webmdp.core.spec import ActionSpec, SkillCategory, SurfaceKind
from webmdp.errors import InvalidAction
from webmdp.sites import get_site
from webmdp.tasks.model import AccessLevel, InfoConstraint, Task
from webmdp.trace import EpisodeTrace, Mode, SemanticTransition, Termination

COMMIT = SkillCategory.COMMIT.value
SITE_SPEC_KEY = "site_spec"
"""Key of ``Task.world`` under which a task of a site this project does not implement declares
``{"surfaces": {surface: kind}, "actions": {action: {"skill": str, "category": str}}}``."""


class SiteData(Protocol):
    """The declared data the metrics read: a registered :class:`~webmdp.core.site.Site` or a
    :class:`DeclaredSite`."""

    def action_spec(self, name: str) -> ActionSpec: ...

    def surface_kind(self, surface: str) -> SurfaceKind: ...


@dataclass(frozen=True)
class DeclaredSite:
    """Surface kinds and action categories a task declares for a site we do not implement.

    Commit actions change application state, as :func:`~webmdp.core.spec.declare_action`
    assumes by default. Unknown names raise like a registered site does."""

    name: str
    surfaces: Mapping[str, SurfaceKind]
    actions: Mapping[str, ActionSpec]

    @classmethod
    def of(cls, task: Task) -> DeclaredSite | None:
        """The spec under ``task.world["site_spec"]``, or None when the task declares none."""
        spec = task.world.get(SITE_SPEC_KEY)
        if not isinstance(spec, dict):
            return None
        kinds = {k.value for k in SurfaceKind}
        categories = {c.value for c in SkillCategory}
        surfaces = {str(name): SurfaceKind(kind)
                    for name, kind in (spec.get("surfaces") or {}).items() if kind in kinds}
        actions: dict[str, ActionSpec] = {}
        for name, decl in (spec.get("actions") or {}).items():
            cat = decl.get("category") if isinstance(decl, dict) else None
            if isinstance(cat, str) and cat in categories:
                category = SkillCategory(cat)
                actions[name] = ActionSpec(name, str(decl.get("skill") or ""), category,
                                           changes_state=category is SkillCategory.COMMIT)
        return cls(task.site, surfaces, actions)

    def action_spec(self, name: str) -> ActionSpec:
        try:
            return self.actions[name]
        except KeyError:
            raise InvalidAction(f"action '{name}' has no declared category on site "
                                f"{self.name}") from None

    def surface_kind(self, surface: str) -> SurfaceKind:
        return self.surfaces[surface]


def site_data(task: Task) -> SiteData:
    """The site its task declares (:class:`DeclaredSite`, an imported task: the actions and
    surfaces of the MDP it was recorded on, even when we implement a site of that name), else
    its registered site; an unknown site that declares nothing is a :class:`ConfigError`."""
    declared = DeclaredSite.of(task)
    return declared if declared is not None else get_site(task.site)


class EpisodeMetrics(BaseModel):
    """One row of the metrics table: an episode's process metrics plus its task's complexity."""

    task_id: str
    agent: str
    mode: Mode
    site: str
    template: str
    seed: int
    termination: Termination
    infra_error: bool = Field(description="excluded from aggregates, counted separately")
    terminal_success: bool = Field(description="verifier result: all conditions true (strict)")
    safe_pass: bool = Field(description="terminal success under the safe-pass policy (C.3)")
    commit_step: int | None = Field(description="index in the valid trace of the first commit")
    detail_visits: list[str] = Field(description="entities visited on detail surfaces, in order")
    visits_before_commit: list[str] = Field(description="V_c of WebSTEP 4.1")
    exploration_success: bool
    execution_success: bool | None = Field(description="terminal success if explored, else None")
    constraint_count: int
    coverage_trajectory: list[float] = Field(description="COV_t after each valid transition")
    coverage_at_commit: float
    coverage_final: float
    gui_steps: int = Field(description="GUI steps on the site: noise steps left out")
    noise_steps: int = Field(0, description="steps whose input only met real-web noise "
                             "(GUIStep.noise: closing a banner, a click the pop-up caught)")
    semantic_steps: int = Field(description="valid transitions that changed the state")
    gui_semantic_ratio: float
    invalid_steps: int
    hard_negative_count: int
    oracle_length: int
    access_level: AccessLevel
    oracle_skills: list[str] = Field(description="S*: categories in the oracle trajectory")
    agent_skills: list[str] = Field(description="S: categories of the agent's valid transitions")
    skills_invoked: dict[str, bool] = Field(description="k in S for every k in S*")


def valid_transitions(trace: EpisodeTrace) -> list[SemanticTransition]:
    """The accepted transitions of the semantic trace, in order."""
    return [t for t in trace.transitions() if t.error is None]


def category_of(t: SemanticTransition, site: SiteData) -> str:
    """The transition's skill category; falls back to the site's action spec when unrecorded."""
    if t.category:
        return t.category
    try:
        return site.action_spec(t.action).category.value
    except InvalidAction:
        return ""


def commit_index(valid: Sequence[SemanticTransition], site: SiteData) -> int | None:
    """Index of the first valid transition of category commit that changes application state."""
    for i, t in enumerate(valid):
        if t.changes_state and category_of(t, site) == COMMIT:
            return i
    return None


def _kind(site: SiteData, surface: str) -> SurfaceKind:
    try:
        return site.surface_kind(surface)
    except KeyError:
        return SurfaceKind.OTHER


def detail_visits(
    valid: Sequence[SemanticTransition], site: SiteData, initial_surface: str = ""
) -> list[tuple[int, str]]:
    """``(transition index, entity)`` for each detail visit: a transition ending on a detail
    surface with a focus, where the focus changed or the previous surface was not a detail."""
    out: list[tuple[int, str]] = []
    prev_detail, prev_focus = _kind(site, initial_surface) == SurfaceKind.DETAIL, None
    for i, t in enumerate(valid):
        is_detail = _kind(site, t.surface_after) == SurfaceKind.DETAIL
        if is_detail and t.focus_after is not None and (
            not prev_detail or t.focus_after != prev_focus
        ):
            out.append((i, t.focus_after))
        prev_detail, prev_focus = is_detail, t.focus_after
    return out


def coverage(constraints: Sequence[InfoConstraint], seen: set[tuple[str, str]]) -> float:
    """Eq. 2 of C.4: the fraction of constraints whose (entity, field) was seen; 1.0 if none."""
    if not constraints:
        return 1.0
    return sum((c.entity, c.field) in seen for c in constraints) / len(constraints)


def coverage_trajectory(
    constraints: Sequence[InfoConstraint],
    initial: Iterable[tuple[str, str]],
    valid: Sequence[SemanticTransition],
) -> tuple[list[float], set[tuple[str, str]]]:
    """COV_t after each valid transition t (reset reveals included) and the final seen set."""
    seen: set[tuple[str, str]] = {(e, f) for e, f in initial}
    traj: list[float] = []
    for t in valid:
        seen.update((e, f) for e, f in t.revealed)
        traj.append(coverage(constraints, seen))
    return traj, seen


def oracle_categories(task: Task, site: SiteData) -> list[str]:
    """S*: distinct skill categories of the oracle trajectory, in first-use order; an oracle
    action without a declared category (possible for imported tasks only) is left out."""
    cats: list[str] = []
    for a in task.oracle:
        try:
            cats.append(site.action_spec(a.name).category.value)
        except InvalidAction:
            continue
    return list(dict.fromkeys(cats))


def episode_metrics(trace: EpisodeTrace, task: Task) -> EpisodeMetrics:
    """Process metrics of one episode.

    * exploration success (4.1): ``V_c`` = entities visited on detail surfaces before the first
      commit (all visits when there is none); success iff ``V_c`` is non-empty and ends at
      ``task.target``. Execution success is terminal success given exploration success.
    * safe pass (C.3): terminal success, OR all of: no valid state-changing commit was made, the
      last detail-visited entity is the target, and every information constraint about the target
      is satisfied at the end of the episode.
    * coverage (C.4, eq. 2): ``COV_t`` counts constraints whose (entity, field) was revealed at
      reset or by valid transitions ``0..t``; reported at the commit step (final if no commit).
    * noise steps (ours): GUI steps whose input met only real-web noise (``GUIStep.noise``)
      are counted apart and left out of ``gui_steps`` and the GUI/semantic ratio; they cause
      no transition, so exploration, coverage and skills never see them.
    """
    site = site_data(task)
    valid = valid_transitions(trace)
    commit = commit_index(valid, site)
    visits = detail_visits(valid, site, trace.initial_surface)
    entities = [e for _, e in visits]
    before = [e for i, e in visits if commit is None or i < commit]
    explored = bool(before) and before[-1] == task.target

    constraints = task.info_constraints
    traj, seen = coverage_trajectory(constraints, trace.initial_revealed, valid)
    final = traj[-1] if traj else coverage(constraints, seen)
    at_commit = traj[commit] if commit is not None else final

    target_info = [c for c in constraints if c.entity == task.target]
    safe = trace.success or (
        commit is None
        and bool(entities)
        and entities[-1] == task.target
        and coverage(target_info, seen) == 1.0
    )

    semantic = sum(t.changed for t in valid)
    invalid = sum(
        s.error is not None or any(t.error is not None for t in s.transitions) for s in trace.steps
    )
    noise = sum(s.noise is not None and not s.transitions for s in trace.steps)
    gui = len(trace.steps) - noise
    oracle_cats = oracle_categories(task, site)
    agent_cats = list(dict.fromkeys(c for t in valid if (c := category_of(t, site))))
    cx = task.complexity
    return EpisodeMetrics(
        task_id=trace.task_id, agent=trace.agent, mode=trace.mode, site=trace.site,
        template=task.template, seed=trace.seed, termination=trace.termination,
        infra_error=trace.termination == "infra_error",
        terminal_success=trace.success, safe_pass=safe, commit_step=commit,
        detail_visits=entities, visits_before_commit=before, exploration_success=explored,
        execution_success=trace.success if explored else None,
        constraint_count=len(constraints), coverage_trajectory=traj,
        coverage_at_commit=at_commit, coverage_final=final,
        gui_steps=gui, noise_steps=noise, semantic_steps=semantic,
        gui_semantic_ratio=gui / max(semantic, 1), invalid_steps=invalid,
        hard_negative_count=cx.hard_negative_count, oracle_length=cx.oracle_length,
        access_level=cx.access_level, oracle_skills=oracle_cats, agent_skills=agent_cats,
        skills_invoked={k: k in agent_cats for k in oracle_cats},
    )
