"""Import published WebSTEP episode bundles into a run directory (docs/import-webstep.md).

A bundle (``<task>/<agent>.json`` in the WebSTEP repository's ``data/``) records one agent's
episode on one task: the GUI ``turns`` with the MDP state before each, the semantic
``mdp_trajectory``, the ``oracle_trajectory``, the ``judge`` conditions, the final state and the
authors' ``process_metrics`` and ``skill_labels``. Each bundle becomes a :class:`Task` (shared by
the bundles of one task id), an :class:`EpisodeTrace` in mode ``browser`` and a
:class:`RecordedValues` row holding the values the bundle records and we recompute
(:mod:`webmdp.eval.disagreements` compares them). The trace's ``success`` is the recorded
``outcome``; ``verifier`` is the judge's conditions checked on the recorded final state.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from webmdp.core.spec import SurfaceKind
from webmdp.errors import ConfigError
from webmdp.eval.importers.webstep_sites import conformance, conformance_line, our_site
from webmdp.eval.metrics import SITE_SPEC_KEY
from webmdp.paths import name_problem, template_problem, under
from webmdp.redact import write_scrubbed
from webmdp.runner.store import summary_row
from webmdp.tasks.io import read_tasks
from webmdp.tasks.model import (
    AccessLevel,
    ActionModel,
    Complexity,
    Condition,
    InfoConstraint,
    Task,
)
from webmdp.tasks.verifier import verify
from webmdp.trace import EpisodeTrace, GUIStep, SemanticTransition, StepNotes

SOURCE = "webstep"
MODE = "browser"
MAX_TURNS = 50
"""WebSTEP's episode budget in GUI turns (C.3): an episode that used it all was truncated."""
RECORDED_VERSION = 1
REQUIRED_KEYS = ("task_id", "agent", "site", "instruction", "template", "outcome",
                 "mdp_trajectory", "mdp_state_final", "oracle_trajectory", "turns", "judge")
"""Keys without which a bundle is skipped; the others (``init_state``, ``difficulty``,
``process_metrics``, ``skill_labels``) only enrich the import."""
DERIVED_STATE_KEYS = frozenset({"visible_ids", "total_results"})
"""Top-level state keys left out of state digests: derived from query, filters, sort, page and
the world, and recorded in summarised form in most turns."""

_CATEGORY_SKILLS = {
    "navigate": "folder_navigation pagination backtrack_navigation temporal_navigation "
                "view_switching search_return back_navigation navigate_to_issues "
                "navigate_to_prs tab_navigation channel_navigation dm_navigation "
                "scroll_navigation search_result_navigation",
    "search": "search_refinement search_query query_formulation repo_search "
              "job_query_formulation people_query_formulation search_clear",
    "filter": "filter_application calendar_filtering department_filtering category_filtering "
              "brand_filtering price_filtering attribute_filtering sort_usage "
              "property_type_filtering beds_filtering amenity_filtering cuisine_filtering "
              "dietary_filtering baths_filtering sqft_filtering type_filtering tag_filtering "
              "acceptance_filtering date_filtering vote_filtering answer_sort_usage filter_reset "
              "language_filtering stars_filtering license_filtering topic_filtering "
              "repo_attribute_filtering repo_sort_usage issue_state_filtering "
              "issue_label_filtering issue_author_filtering issue_sort_usage pr_filtering "
              "pr_sort_usage location_filtering job_type_filtering remote_filtering "
              "salary_filtering experience_filtering filter_clearing",
    "inspect": "thread_inspection message_expansion event_inspection information_extraction "
               "comparison conflict_detection product_inspection review_inspection "
               "listing_inspection amenity_expansion restaurant_inspection menu_item_inspection "
               "property_inspection agent_inspection question_inspection user_inspection "
               "tag_inspection repo_inspection issue_inspection pr_inspection job_inspection "
               "profile_inspection job_comparison profile_comparison member_inspection "
               "thread_close member_close",
    "commit": "compose_setup compose_field_entry email_management bulk_management send_commit "
              "event_creation event_editing field_entry commit_timing option_selection "
              "cart_management checkout_flow booking_initiation booking_confirmation "
              "booking_cancellation checkout_cancellation customization_selection "
              "save_management tour_scheduling agent_contact saved_homes_review voting "
              "answer_posting commenting answer_acceptance bookmarking issue_creation "
              "issue_commenting issue_assignment issue_labeling issue_state_change "
              "star_management job_application connection_request messaging job_save_action "
              "conversation_management feed_interaction send_channel_message send_thread_reply "
              "send_dm message_reaction message_pin message_edit message_delete channel_mute",
}
SKILL_CATEGORY = {s: c for c, names in _CATEGORY_SKILLS.items() for s in names.split()}
"""Fine-grained skill -> category, WebSTEP Tables 7-8 (all ten sites)."""
FAMILY_CATEGORY = {"inspection": "inspect", "commit": "commit", "navigation": "navigate",
                   "refinement": "filter"}
"""A ``skill_labels`` family -> category, for skills Tables 7-8 do not list. ``configuration``
(search or folder choice) and ``waste`` (an unproductive step) name no category."""
_NAME_WORDS = (("search", {"Search", "Query"}), ("filter", {"Filter", "Filters", "Sort"}),
               ("inspect", {"View", "Open", "Expand", "Show", "Inspect", "Preview"}),
               ("navigate", {"Close", "Back", "Go", "Switch", "Next", "Prev", "Previous", "Page",
                             "Navigate", "Return", "Home", "Tab"}))
"""Category by a word of the action's name, for actions without a usable label; any other
action is a commit (Table 6: "all other state-changing operations")."""
_SURFACES = {
    SurfaceKind.CARD: "ThreadList WeekView DayView MonthView ChannelView SearchResults "
                      "RestaurantList QuestionList RepoList IssueList PullRequestList JobList "
                      "ConnectionList",
    SurfaceKind.DETAIL: "ThreadView EventDetail ProductDetail RestaurantDetail MenuItemDetail "
                        "ListingDetail PropertyDetail QuestionDetail RepoDetail IssueDetail "
                        "PRDetail JobDetail ProfileView",
    SurfaceKind.COMMIT: "ComposeModal EventEditor DirectMessageView Checkout OrderConfirmation "
                        "OrderStatus Reservations SavedHomes Messaging",
}
SURFACE_KINDS = {s: k for k, names in _SURFACES.items() for s in names.split()}
"""Surface -> kind, WebSTEP Table 5; a surface listed as detail (or card) and commit is detail
(or card), the kind the process metrics read."""
_MORE = re.compile(r"^…?\s*\+\d+ more$")
_CONSTRAINT = (re.compile(r"^Must see (?P<who>.+?)'s (?P<field>\w+) at (?P<level>card|detail) "
                          r"level$"),
               re.compile(r"^Must inspect (?:(?P<who>.+?)'s )?(?P<field>\w+) \(detail page "
                          r"required\)$"))
_JUDGE_OPS: dict[str, Literal["eq", "contains", "not_contains"]] = {
    "equals": "eq", "contains": "contains", "not_contains": "not_contains"}


class BundleError(ValueError):
    """A bundle that cannot be imported: unreadable, not JSON, or missing required keys."""


class RecordedValues(BaseModel):
    """One row of ``RUN/recorded.jsonl``: what a bundle records that we also compute."""

    version: int = RECORDED_VERSION
    task_id: str
    agent: str
    mode: str = MODE
    bundle: str = Field(description="the bundle file as given to the importer")
    bundle_sha256: str
    fields: dict[str, Any] = Field(description="field -> recorded value (outcome, commit_step, "
                                               "coverage_at_commit, visited entities, ...)")
    other: dict[str, Any] = Field(default_factory=dict,
                                  description="recorded process metrics we do not recompute")


@dataclass(frozen=True)
class ImportSummary:
    """What an import did: episodes written, bundles skipped (file, reason), and warnings about
    bundles that were imported but do not agree with themselves."""

    run_dir: Path
    imported: list[tuple[str, str, str]] = field(default_factory=list)
    """(agent, task id, bundle file) per episode written."""
    skipped: list[tuple[str, str]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    conformance: list[str] = field(default_factory=list)
    """Per task of a site we implement: how its declared actions and surfaces compare with
    ours (:func:`~webmdp.eval.importers.webstep_sites.conformance`)."""


# -- reading -----------------------------------------------------------------------------------
def bundle_files(paths: Iterable[str | Path]) -> tuple[list[Path], list[tuple[str, str]]]:
    """Bundle files of ``paths`` (files, or directories searched recursively for ``*.json``),
    sorted and deduplicated, and the paths that name nothing."""
    files: set[Path] = set()
    missing: list[tuple[str, str]] = []
    for p in map(Path, paths):
        if p.is_dir():
            files.update(f for f in p.rglob("*.json") if f.is_file())
        elif p.is_file():
            files.add(p)
        else:
            missing.append((str(p), "no such file or directory"))
    return sorted(files), missing


def read_bundle(path: Path) -> tuple[dict[str, Any], str]:
    """The bundle's JSON object and the sha256 of its bytes; :class:`BundleError` says why not."""
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise BundleError(f"unreadable: {e.strerror or e}") from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise BundleError("not UTF-8 text") from None
    except json.JSONDecodeError as e:
        raise BundleError(f"invalid JSON at line {e.lineno} column {e.colno}: {e.msg} "
                          "(truncated or corrupt file?)") from None
    if not isinstance(data, dict):
        raise BundleError(f"expected a JSON object, found {type(data).__name__}")
    missing = [k for k in REQUIRED_KEYS if k not in data]
    if missing:
        raise BundleError(f"missing required key(s): {', '.join(missing)}")
    for key, typ in (("turns", list), ("mdp_trajectory", list), ("oracle_trajectory", list),
                     ("mdp_state_final", dict), ("judge", dict)):
        if not isinstance(data[key], typ):
            raise BundleError(f"'{key}' should be a {typ.__name__}, found "
                              f"{type(data[key]).__name__}")
    for key in ("task_id", "agent"):  # each names a file or a directory
        why = name_problem(data[key])
        if why is not None:
            raise BundleError(f"'{key}': {why}")
    for key in ("site", "instruction", "template", "outcome"):
        if not isinstance(data[key], str):
            raise BundleError(f"'{key}' should be a string, found {type(data[key]).__name__}")
    for key, check in (("site", name_problem), ("template", template_problem)):
        why = check(data[key])  # each becomes a task's name, as the ids do
        if why is not None:
            raise BundleError(f"'{key}': {why}")
    for i, t in enumerate(data["turns"]):
        if not isinstance(t, dict) or not isinstance(t.get("state") or {}, dict):
            raise BundleError(f"turns[{i}] is not an object with a 'state' object")
    for key, name in (("mdp_trajectory", "action"), ("oracle_trajectory", "type")):
        for i, m in enumerate(data[key]):
            if not (isinstance(m, dict) and isinstance(m.get(name), str)
                    and isinstance(m.get("payload") or {}, dict)):
                raise BundleError(f"{key}[{i}] is not an object with a string '{name}' and "
                                  "an object 'payload'")
    return data, hashlib.sha256(raw).hexdigest()


# -- states ------------------------------------------------------------------------------------
def canonical_state(state: Mapping[str, Any]) -> dict[str, Any]:
    """The state as digested: without :data:`DERIVED_STATE_KEYS` and timestamps (``*_at``)."""
    def strip(v: Any) -> Any:
        if isinstance(v, dict):
            return {k: strip(x) for k, x in v.items() if not str(k).endswith("_at")}
        if isinstance(v, list):
            return [strip(x) for x in v]
        return v
    return {k: strip(v) for k, v in state.items()
            if k not in DERIVED_STATE_KEYS and not k.endswith("_at")}


def state_digest(state: Mapping[str, Any]) -> str:
    """First 16 hex digits of the sha256 of the canonical JSON of :func:`canonical_state`."""
    text = json.dumps(canonical_state(state), sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def flatten(state: Any, prefix: str = "") -> dict[str, Any]:
    """Dotted paths to every value (``reservations.0.listing_id``), lists kept at their own path
    too: the facts judge conditions are checked against."""
    out: dict[str, Any] = {}
    if isinstance(state, dict):
        for k, v in state.items():
            out.update(flatten(v, f"{prefix}{k}."))
        return out
    if isinstance(state, list):
        out[prefix[:-1]] = state
        for i, v in enumerate(state):
            out.update(flatten(v, f"{prefix}{i}."))
        return out
    if prefix:
        out[prefix[:-1]] = state
    return out


def visible_entities(state: Mapping[str, Any]) -> list[str] | None:
    """Ids on the results list, or None when the bundle recorded only a summary of it
    (``"[59 items]"`` or ``[..., "… +56 more"]``)."""
    ids = state.get("visible_ids")
    if not isinstance(ids, list) or any(isinstance(x, str) and _MORE.match(x) for x in ids):
        return None
    return [str(x) for x in ids]


def focus_of(state: Mapping[str, Any]) -> str | None:
    """The entity the surface is about: the first ``*_id`` value of ``surface_params``."""
    params = state.get("surface_params")
    if isinstance(params, dict):
        for k, v in params.items():
            if str(k).endswith("_id") and isinstance(v, str):
                return v
    return None


def surface_kind(surface: str, state: Mapping[str, Any]) -> SurfaceKind:
    """Table 5's kind; for a surface it does not list, a guess from the name and parameters."""
    if surface in SURFACE_KINDS:
        return SURFACE_KINDS[surface]
    if surface.endswith("Detail") or (surface.endswith("View") and focus_of(state)):
        return SurfaceKind.DETAIL
    if any(w in surface for w in ("List", "Results", "Search", "Inbox", "Feed")):
        return SurfaceKind.CARD
    if any(w in surface for w in ("Checkout", "Confirm", "Compose", "Editor", "Modal", "Cart")):
        return SurfaceKind.COMMIT
    return SurfaceKind.OTHER


def reveals(state: Mapping[str, Any], kinds: Mapping[str, str],
            constraints: Sequence[InfoConstraint]) -> set[tuple[str, str]]:
    """Constraint pairs the state shows: every constrained field of the entity a detail surface
    is about; card-level fields of the entities a card surface lists (none when the list was
    recorded only as a summary)."""
    kind = kinds.get(str(state.get("surface", "")), SurfaceKind.OTHER.value)
    if kind == SurfaceKind.DETAIL.value:
        focus = focus_of(state)
        return {(c.entity, c.field) for c in constraints if c.entity == focus}
    if kind == SurfaceKind.CARD.value:
        shown = set(visible_entities(state) or ())
        return {(c.entity, c.field) for c in constraints if c.level == "card" and c.entity in shown}
    return set()


# -- categories --------------------------------------------------------------------------------
def name_category(action: str) -> str:
    """Category by the words of a CamelCase action name (:data:`_NAME_WORDS`), else commit."""
    words = set(re.findall(r"[A-Z][a-z]*|[a-z]+", action))
    for category, cue in _NAME_WORDS:
        if words & cue:
            return category
    return "commit"


def label_category(action: str, label: Mapping[str, Any] | None) -> tuple[str, str]:
    """(skill, category) of one labelled transition: the label's skill through Tables 7-8,
    else its family, else the action's name. A ``waste`` label (an action type outside their
    skill taxonomy, e.g. Accommodation's ``SetBookingField``) gives neither."""
    skills = (label or {}).get("skills") or [{}]
    first = skills[0] if isinstance(skills[0], dict) else {}
    skill = str(first.get("skill") or "")
    family = str(first.get("family") or "")
    if "waste" in (skill, family):
        return "", ""
    category = SKILL_CATEGORY.get(skill) or FAMILY_CATEGORY.get(family) or name_category(action)
    return skill, category


def _labels(bundle: Mapping[str, Any]) -> list[Mapping[str, Any] | None]:
    """The skill label of each ``mdp_trajectory`` entry (by 1-based ``step`` and same action)."""
    by_step = {lab.get("step"): lab for lab in bundle.get("skill_labels") or []
               if isinstance(lab, dict)}
    out: list[Mapping[str, Any] | None] = []
    for i, m in enumerate(bundle["mdp_trajectory"]):
        lab = by_step.get(i + 1)
        out.append(lab if lab is not None and lab.get("action") == m.get("action") else None)
    return out


# -- the task ----------------------------------------------------------------------------------
def _obj(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _entity_param(params: Mapping[str, Any]) -> str | None:
    for k, v in params.items():
        if str(k).endswith("_id") and isinstance(v, str):
            return v
    return None


def _constraints(texts: Sequence[Any], target: str) -> tuple[list[InfoConstraint], list[str]]:
    out, unparsed = [], []
    for text in texts:
        m = next((m for r in _CONSTRAINT if (m := r.match(str(text)))), None)
        if m is None or not target:
            unparsed.append(str(text))
            continue
        who = m.group("who") or "target"
        entity = target if who == "target" else who
        level = m.groupdict().get("level") or "detail"
        out.append(InfoConstraint(entity=entity, field=m.group("field"),
                                  level="card" if level == "card" else "detail",
                                  description=str(text)))
    return out, unparsed


def _conditions(judge: Mapping[str, Any]) -> tuple[list[Condition], list[Any]]:
    out, unparsed = [], []
    for c in judge.get("local_storage") or []:
        op = next((k for k in _JUDGE_OPS if isinstance(c, dict) and k in c), None)
        if op is None or not isinstance(c.get("path"), str):
            unparsed.append(c)
            continue
        out.append(Condition(fact=c["path"], op=_JUDGE_OPS[op], value=c[op],
                             description=str(c.get("description") or "")))
    answer = judge.get("agent_output") or {}
    for key, want in (answer.items() if isinstance(answer, dict) else ()):
        values = want if isinstance(want, list) else [want]
        if all(isinstance(v, str) for v in values):
            out += [Condition(fact="final_answer", op="contains", value=v,
                              description=f"agent_output.{key} mentions {v!r}") for v in values]
        else:
            unparsed.append({key: want})
    return out, unparsed


def build_task(bundles: Sequence[Mapping[str, Any]]) -> Task:
    """The Task of the bundles of one task id; task-level fields come from the first, the
    declared surfaces and actions (:data:`~webmdp.eval.metrics.SITE_SPEC_KEY`) from all."""
    b = bundles[0]
    oracle = [ActionModel(name=o["type"], params=dict(o.get("payload") or {}))
              for o in b["oracle_trajectory"]]
    actions = _declared_actions(bundles, oracle)
    inspected = [e for a in oracle if actions.get(a.name, {}).get("category") == "inspect"
                 and (e := _entity_param(a.params))]
    with_ids = [e for a in oracle if (e := _entity_param(a.params))]
    target = (inspected or with_ids or [""])[-1]
    hard_negatives = list(dict.fromkeys(e for e in inspected if e != target))
    metrics = _obj(b.get("process_metrics"))
    scan = _obj(metrics.get("scan"))
    constraints, unparsed_constraints = _constraints(metrics.get("constraints") or [], target)
    verifier, unparsed_judge = _conditions(b["judge"])
    recorded_hn = scan.get("hard_negative_count")
    hn_count = recorded_hn if isinstance(recorded_hn, int) else len(hard_negatives)
    cats = {actions.get(a.name, {}).get("category") for a in oracle}
    access: AccessLevel = "detail" if hn_count else (
        "filter" if cats & {"search", "filter"} else "card")
    digits = re.findall(r"\d+", b["task_id"])
    ours = our_site(str(b["site"]))
    world = {
        "source": SOURCE,
        "webstep_site": str(b["site"]),
        SITE_SPEC_KEY: {"surfaces": _declared_surfaces(bundles), "actions": actions},
        "difficulty": b.get("difficulty"),
        "init_state": b.get("init_state"),
        "judge": b["judge"],
        "scan": scan,
        "derived": {
            "target": "entity of the oracle's last inspect action",
            "hard_negatives": "entities the oracle inspects before the target (E.3)",
            "hard_negative_count": "process_metrics.scan.hard_negative_count"
                                   if isinstance(recorded_hn, int) else "len(hard_negatives)",
            "access_level": "detail with hard negatives, else filter when the oracle searches "
                            "or filters, else card (as our templates)",
            "info_constraints": "process_metrics.constraints",
            "verifier": "judge.local_storage (and judge.agent_output)"},
        "unknown": ["seed", "params", "fillers", "companions", "world entities"],
        "unparsed": {"constraints": unparsed_constraints, "judge": unparsed_judge},
    }
    if ours is not None:
        world["conformance"] = conformance(world[SITE_SPEC_KEY], ours)
    return Task(id=b["task_id"], site=ours or str(b["site"]), template=str(b["template"]),
                index=int(digits[-1]) if digits else 0, seed=0,
                instruction=str(b["instruction"]), params={}, target=target,
                hard_negatives=hard_negatives, fillers=[], verifier=verifier, oracle=oracle,
                info_constraints=constraints,
                complexity=Complexity(hard_negative_count=hn_count, oracle_length=len(oracle),
                                      access_level=access),
                world=world)


def _declared_actions(bundles: Sequence[Mapping[str, Any]], oracle: Sequence[ActionModel]
                      ) -> dict[str, dict[str, str]]:
    """Skill and category per action name: the first label of the name in any bundle, else
    the name's category (:func:`name_category`)."""
    out: dict[str, dict[str, str]] = {}
    for b in bundles:
        for m, lab in zip(b["mdp_trajectory"], _labels(b), strict=True):
            name = str(m.get("action"))
            if lab is not None and name not in out:
                skill, cat = label_category(name, lab)
                out[name] = {"skill": skill, "category": cat}
    for name in [str(m.get("action")) for b in bundles for m in b["mdp_trajectory"]] + [
            a.name for a in oracle]:
        out.setdefault(name, {"skill": "", "category": name_category(name)})
    return dict(sorted(out.items()))


def _declared_surfaces(bundles: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    out: dict[str, str] = {}
    for b in bundles:
        states = [t.get("state") or {} for t in b["turns"]]
        states += [b["mdp_state_final"], b.get("init_state") or {}]
        for s in states:
            name = s.get("surface") if isinstance(s, dict) else None
            if isinstance(name, str) and name not in out:
                out[name] = surface_kind(name, s).value
    return dict(sorted(out.items()))


def task_fields(bundle: Mapping[str, Any]) -> dict[str, Any]:
    """The task-level fields of a bundle; bundles of one task id should agree on them."""
    metrics = _obj(bundle.get("process_metrics"))
    return {k: bundle.get(k) for k in ("site", "instruction", "template", "difficulty",
                                       "oracle_trajectory", "judge", "init_state")} | {
        "constraints": metrics.get("constraints"), "scan": metrics.get("scan")}


# -- the trace ---------------------------------------------------------------------------------
_POINTER = {"left_click": "click", "click": "click", "middle_click": "click",
            "right_click": "right_click", "double_click": "double_click",
            "left_double": "double_click", "triple_click": "triple_click", "mouse_move": "move",
            "move": "move", "hover": "move"}
INVALID_KIND = "invalid"
"""``action.kind`` of a turn that recorded no action and no final answer (as our envs write)."""


def _point(value: Any) -> dict[str, float]:
    if isinstance(value, list | tuple) and len(value) == 2 and all(
            isinstance(v, int | float) and not isinstance(v, bool) for v in value):
        return {"x": float(value[0]), "y": float(value[1])}
    return {}


def gui_action(raw: Any, final_response: Any = None) -> tuple[dict[str, Any], str | None]:
    """One recorded turn action as a ``GUIAction`` dict of ours (kinds click, type, key,
    scroll, wait, drag, go_back, finish, ...) and the step's error; an action kind we do not
    have keeps its name. A turn without an action is ``finish`` when it gives a final answer,
    else an invalid step."""
    if not isinstance(raw, dict):
        if isinstance(final_response, str) and final_response:
            return {"kind": "finish", "answer": final_response}, None
        return {"kind": INVALID_KIND}, "the turn recorded no action"
    name = str(raw.get("action") or raw.get("type") or "unknown")
    at = _point(raw.get("coordinate"))
    if name in _POINTER and at:
        return {"kind": _POINTER[name], **at} | (
            {"button": "middle"} if name == "middle_click" else {}), None
    if name in ("type", "form_input"):
        text = str(raw.get("text") if name == "type" else raw.get("value") or "")
        text += "\n" if raw.get("press_enter") else ""
        replace = name == "form_input" or bool(raw.get("delete_existing_text"))
        return {"kind": "type", **at, "text": text} | ({"replace": True} if replace else {}), None
    if name in ("key", "hotkey", "keypress"):
        keys = raw.get("keys") if raw.get("keys") is not None else raw.get("key")
        chord = "+".join(map(str, keys)) if isinstance(keys, list) else str(keys or "")
        return {"kind": "key", "key": chord}, None
    if name == "scroll":
        out: dict[str, Any] = {"kind": "scroll", **at}
        if isinstance(raw.get("pixels"), int | float):
            out["dy"] = -float(raw["pixels"])  # their sign: positive scrolls up
        elif isinstance(raw.get("direction"), str):
            out |= {"direction": raw["direction"], "amount": raw.get("amount", 3)}
        return out, None
    if name == "wait":
        return {"kind": "wait", "seconds": raw.get("time", raw.get("seconds"))}, None
    if name in ("drag", "left_click_drag"):
        start, end = _point(raw.get("start_coordinate")), at
        if start and end:
            return {"kind": "drag", **start, "x2": end["x"], "y2": end["y"]}, None
    if name in ("go_back", "back", "navigate_back"):
        return {"kind": "go_back"}, None
    if name in ("finish", "done", "terminate", "answer"):
        return {"kind": "finish", "answer": raw.get("text") or final_response}, None
    return {"kind": name, **at}, None


def _tokens(value: Any) -> set[str]:
    return {str(v) for v in flatten(value).values()
            if not isinstance(v, list) and v not in (None, "")}


def _new_tokens(before: Mapping[str, Any], after: Mapping[str, Any]
                ) -> tuple[set[str], set[str]]:
    """New values, and parts of the paths, of what changed or appeared from ``before`` to
    ``after`` (flattened states); a removed path shows nothing."""
    values: set[str] = set()
    parts: set[str] = set()
    for path, v in after.items():
        if path not in before or before[path] != v:
            parts.update(path.split("."))
            if v is not None and not isinstance(v, list):
                values.add(str(v))
    return values, parts


def frozen_keys(turn_states: Sequence[Mapping[str, Any]], final: Mapping[str, Any]
                ) -> set[str]:
    """Top-level keys no turn state updates yet the final state changes (e.g. mail's
    per-thread flags): the bundle records their changes only at the end of the episode."""
    if len(turn_states) < 2:
        return set()
    last = turn_states[-1]
    return {k for k, v in final.items() if v != last.get(k)
            and all(s.get(k) == last.get(k) for s in turn_states)}


def _fresh_only(turn_states: Sequence[Mapping[str, Any]], final: Mapping[str, Any]
                ) -> dict[str, Any]:
    """``final`` with the :func:`frozen_keys` set to the last turn's value: such a change cannot
    be placed in a turn, so it is no evidence for the last one."""
    frozen = frozen_keys(turn_states, final)
    return {k: turn_states[-1].get(k) if k in frozen else v for k, v in final.items()}


def _dispatch_bonus(raw: Any) -> int:
    """Prior (tenths) that a GUI action dispatched a semantic action (clicks, Enter) or not."""
    if not isinstance(raw, dict):
        return 0
    name = raw.get("action")
    if name in _POINTER or name == "form_input" or (name == "type" and raw.get("press_enter")):
        return 1
    if name in ("key", "hotkey") and "Enter" in (raw.get("keys") or []):
        return 1
    return {"scroll": -5, "wait": -10}.get(str(name), 0)


def align(actions: Sequence[Mapping[str, Any]], turns: Sequence[Mapping[str, Any]],
          final: Mapping[str, Any], turn_to_mdp: Sequence[Any] | None = None) -> list[int]:
    """The turn that caused each ``mdp_trajectory`` action: the monotone assignment with the
    most evidence (docs/import-webstep.md), in tenths: the element the turn acted on names the
    action (``_resolved_test_id``: +20, another action: -20); the recorded state changed across
    the turn (+10), to a parameter's value (+10) or where a parameter names (+5); the bundle's
    ``turn_to_mdp`` agrees (+10); the GUI action can dispatch (+1; scroll -5, wait -10); a turn
    without an action cannot (-100). A turn that changed the state but is given no action costs
    10; a second, different action on the same turn 20 (one click, one action; a repeat logged
    twice is free). Ties go to the later turn."""
    n, k_count = len(turns), len(actions)
    if n == 0 or k_count == 0:
        return [0] * k_count if n else []
    recorded = [canonical_state(t.get("state") or {}) for t in turns]
    flat = [flatten(s) for s in recorded]
    flat.append(flatten(_fresh_only(recorded, canonical_state(final))))
    acting = [isinstance(t.get("action"), dict) for t in turns]
    changed = [flat[i] != flat[i + 1] for i in range(n)]
    news = [_new_tokens(flat[i], flat[i + 1]) for i in range(n)]
    prefix = [0]  # prefix[i]: cost of the changed acting turns before turn i
    for i in range(n):
        prefix.append(prefix[-1] + 10 * (changed[i] and acting[i]))

    def evidence(k: int, i: int) -> int:
        name, raw = str(actions[k].get("action")), turns[i].get("action")
        s = 0 if acting[i] else -100
        tid = raw.get("_resolved_test_id") if isinstance(raw, dict) else None
        if isinstance(tid, str) and tid:
            s += 20 if tid == name or tid.startswith(name + "-") else -20
        shown = _tokens(actions[k].get("payload") or {})
        s += 10 * changed[i] + (10 if shown & news[i][0] else 5 if shown & news[i][1] else 0)
        if turn_to_mdp is not None and i < len(turn_to_mdp) and turn_to_mdp[i] == k:
            s += 10
        return s + _dispatch_bonus(raw)

    def same(k: int) -> bool:
        a, b = actions[k], actions[k - 1]
        return (a.get("action"), a.get("payload")) == (b.get("action"), b.get("payload"))

    score = [evidence(0, i) - prefix[i] for i in range(n)]
    back: list[list[int]] = [list(range(n))]
    for k in range(1, k_count):
        row, ptr = [0] * n, [0] * n
        best, arg = 0, -1  # max over j < i of score[j] + prefix[j + 1], at the latest j
        pile = 0 if same(k) else -20
        for i in range(n):
            stay = score[i] + pile
            move = best - prefix[i]
            row[i], ptr[i] = (move, arg) if arg >= 0 and move > stay else (stay, i)
            row[i] += evidence(k, i)
            if arg < 0 or score[i] + prefix[i + 1] >= best:
                best, arg = score[i] + prefix[i + 1], i
        score = row
        back.append(ptr)
    last = max(range(n), key=lambda i: (score[i] - (prefix[n] - prefix[i + 1]), i))
    owner = [last]
    for k in range(k_count - 1, 0, -1):
        owner.append(back[k][owner[-1]])
    return owner[::-1]


def build_trace(bundle: Mapping[str, Any], task: Task) -> tuple[EpisodeTrace, list[str]]:
    """The episode of one bundle against its Task, and warnings where the bundle disagrees
    with itself (a state change no recorded action explains, a label of another payload)."""
    turns, mdp, final = bundle["turns"], bundle["mdp_trajectory"], bundle["mdp_state_final"]
    spec = task.world[SITE_SPEC_KEY]
    kinds, declared = spec["surfaces"], spec["actions"]
    where = f"{bundle['task_id']}/{bundle['agent']}"
    ttm = bundle.get("turn_to_mdp") if isinstance(bundle.get("turn_to_mdp"), list) else None
    owner = align(mdp, turns, final, ttm)
    states = [t.get("state") or {} for t in turns] + [final]
    judged = {c.fact.split(".")[0] for c in task.verifier if c.fact != "final_answer"}
    unseen = judged & frozen_keys(states[:-1], final) if turns else judged  # no states: unseen
    first_state = states[0] if turns else _obj(bundle.get("init_state")) or final
    init = first_state if mdp else final  # no transition: the final state is the initial one
    seen = reveals(init, kinds, task.info_constraints)
    warnings: list[str] = []
    by_turn: dict[int, list[SemanticTransition]] = {}
    before, prev_move = init, None
    for k, (m, label) in enumerate(zip(mdp, _labels(bundle), strict=True)):
        name, params = str(m.get("action")), dict(m.get("payload") or {})
        i = owner[k] if turns else k
        first = k == 0 or owner[k - 1] != i if turns else True
        if turns and first:
            before = states[i]
        after = final if k == len(mdp) - 1 or not turns else states[i + 1]
        key = state_digest(after)
        changed = (key != state_digest(before) if first else
                   state_digest(states[i]) != state_digest(after) and prev_move != (name, params))
        skill, category = (label_category(name, label) if label is not None else (
            declared.get(name, {}).get("skill", ""),
            declared.get(name, {}).get("category", name_category(name))))
        if label is not None and (label.get("payload") or {}) != params:
            warnings.append(f"{where}: skill label of step {k + 1} records {name} "
                            f"{label.get('payload')}, mdp_trajectory {params}")
        new = reveals(after, kinds, task.info_constraints) - seen
        seen |= new
        by_turn.setdefault(i, []).append(SemanticTransition(
            action=name, params=params, skill=skill, category=category,
            surface_before=str(before.get("surface", "")),
            surface_after=str(after.get("surface", "")), focus_after=focus_of(after),
            changed=changed, revealed=sorted(new),
            changes_state=category == "commit" and (not judged or bool(unseen) or any(
                before.get(j) != after.get(j) for j in judged)),
            state_key=key))
        before, prev_move = after, (name, params)
    warnings += [f"{where}: turn {i} changed the recorded state but no mdp_trajectory action "
                 "is attributed to it" for i in _unexplained(turns, states, by_turn)]
    answers = [t["final_response"] for t in turns if isinstance(t.get("final_response"), str)
               and t["final_response"]]
    finished = bool(turns) and turns[-1].get("action") is None and bool(
        turns[-1].get("final_response"))
    truncated = not finished and len(turns) >= MAX_TURNS
    facts = flatten(final) | ({"final_answer": answers[-1]} if answers else {})
    trace = EpisodeTrace(
        task_id=task.id, site=task.site, template=task.template, agent=str(bundle["agent"]),
        mode=MODE, seed=task.seed, initial_surface=str(first_state.get("surface", "")),
        initial_revealed=sorted(reveals(init, kinds, task.info_constraints)),
        steps=_steps(turns, by_turn, len(mdp)),
        terminated=not truncated, truncated=truncated,
        termination="budget" if truncated else "finished",
        final_answer=answers[-1] if answers else None, final_facts=facts,
        verifier=verify(task.verifier, facts), success=bundle["outcome"] == "success")
    return trace, warnings


def _unexplained(turns: Sequence[Mapping[str, Any]], states: Sequence[Mapping[str, Any]],
                 by_turn: Mapping[int, Any]) -> list[int]:
    """Turns (but the last, whose after state is the final one) that acted and changed the
    recorded state without any transition attributed to them."""
    return [i for i, t in enumerate(turns[:-1]) if isinstance(t.get("action"), dict)
            and i not in by_turn and state_digest(states[i]) != state_digest(states[i + 1])]


def _steps(turns: Sequence[Mapping[str, Any]], by_turn: Mapping[int, list[SemanticTransition]],
           n_actions: int) -> list[GUIStep]:
    if not turns:  # no GUI record: one step per semantic action, kind unknown
        return [GUIStep(index=k, action={"kind": "unrecorded"}, transitions=by_turn.get(k, []))
                for k in range(n_actions)]
    out = []
    for i, t in enumerate(turns):
        action, error = gui_action(t.get("action"), t.get("final_response"))
        message = t.get("message")
        out.append(GUIStep(
            index=i, action=action, transitions=by_turn.get(i, []), error=error,
            raw_output=None if t.get("action") is None else json.dumps(
                t["action"], sort_keys=True, ensure_ascii=False),
            notes=StepNotes(thought=message) if isinstance(message, str) and message else None))
    return out


def recorded_values(bundle: Mapping[str, Any], source: str, sha256: str) -> RecordedValues:
    """The values a bundle records that we recompute, and the rest of its process metrics."""
    metrics = _obj(bundle.get("process_metrics"))
    ours = ("commit_step", "coverage_at_commit", "visited_entities", "visited_entities_at_commit",
            "total_steps", "constraint_count")
    return RecordedValues(
        task_id=bundle["task_id"], agent=bundle["agent"], bundle=source, bundle_sha256=sha256,
        fields={"outcome": bundle["outcome"]} | {k: metrics[k] for k in ours if k in metrics},
        other={k: v for k, v in metrics.items() if k not in ours and k not in (
            "task_id", "template", "difficulty", "constraints", "scan")})


# -- writing the run ---------------------------------------------------------------------------
def import_webstep(paths: Iterable[str | Path], out: str | Path) -> ImportSummary:
    """Import the bundles under ``paths`` into the run directory ``out``.

    Writes ``tasks.jsonl``, ``episodes/<agent>/browser/<task_id>.json``, ``results.jsonl`` and
    ``recorded.jsonl``, merging with what the run holds (an episode or task of the same id is
    replaced), so importing the same bundles twice leaves byte-identical files. A bundle that
    cannot be read or mapped is skipped and named with the reason."""
    files, missing = bundle_files(paths)
    summary = ImportSummary(run_dir=Path(out), skipped=list(missing))
    groups: dict[str, list[tuple[Path, dict[str, Any], str]]] = {}
    taken: dict[tuple[str, str], Path] = {}
    for f in files:
        try:
            bundle, sha = read_bundle(f)
        except BundleError as e:
            summary.skipped.append((str(f), str(e)))
            continue
        key = (bundle["agent"], bundle["task_id"])
        if key in taken:  # which one is meant cannot be guessed: nothing is written
            raise ConfigError(f"{f}: agent {key[0]!r} on task {key[1]!r} is also the episode "
                              f"of {taken[key]}; give each episode a file of its own")
        taken[key] = f
        groups.setdefault(bundle["task_id"], []).append((f, bundle, sha))
    root = Path(out)
    existing = {t.id: t for t in read_tasks(root / "tasks.jsonl")} \
        if (root / "tasks.jsonl").is_file() else {}
    tasks: dict[str, Task] = {}
    episodes: list[tuple[EpisodeTrace, RecordedValues, str]] = []
    for task_id in sorted(groups):
        group = groups[task_id]
        task = _group_task(group, existing.get(task_id), summary)
        if task is None:
            continue
        tasks[task_id] = task
        for f, bundle, sha in group:
            try:
                trace, warnings = build_trace(bundle, task)
            except (ValueError, TypeError, KeyError, AttributeError) as e:
                summary.skipped.append((str(f), f"cannot map the episode: {e}"))
                continue
            summary.warnings.extend(warnings)
            episodes.append((trace, recorded_values(bundle, str(f), sha), str(f)))
    if tasks:
        merged = {**existing, **tasks}
        root.mkdir(parents=True, exist_ok=True)
        _write(root / "tasks.jsonl", "".join(merged[i].model_dump_json() + "\n" for i in [
            *existing, *sorted(set(tasks) - set(existing))]))
    rows, recorded = [], []
    for trace, rec, source in episodes:
        path = under(root, "episodes", trace.agent, MODE, f"{trace.task_id}.json")
        path.parent.mkdir(parents=True, exist_ok=True)
        _write(path, trace.model_dump_json(indent=1))
        rows.append(summary_row(trace, path.relative_to(root)))
        recorded.append(json.loads(rec.model_dump_json()))
        summary.imported.append((trace.agent, trace.task_id, source))
    if rows:
        _merge_jsonl(root / "results.jsonl", rows)
        _merge_jsonl(root / "recorded.jsonl", recorded)
    return summary


def _group_task(group: Sequence[tuple[Path, dict[str, Any], str]], existing: Task | None,
                summary: ImportSummary) -> Task | None:
    """The task of one id's bundles (None: skipped), its declared spec merged with an earlier
    import's; bundles that disagree on task-level fields are named in the warnings."""
    first_file, first, _ = group[0]
    for f, b, _ in group[1:]:
        diff = [k for k, v in task_fields(b).items() if v != task_fields(first)[k]]
        if diff:
            summary.warnings.append(f"{f}: task-level field(s) {', '.join(diff)} differ from "
                                    f"{first_file} (the task keeps {first_file}'s)")
    if existing is not None and existing.world.get("source") != SOURCE:
        for f, _, _ in group:
            summary.skipped.append((str(f), f"task id {first['task_id']} is already in the run "
                                            "as a task of ours"))
        return None
    try:
        task = build_task([b for _, b, _ in group])
    except (ValueError, TypeError, KeyError, AttributeError) as e:
        for f, _, _ in group:
            summary.skipped.append((str(f), f"cannot map the task: {e}"))
        return None
    if existing is not None:
        old, new = existing.world.get(SITE_SPEC_KEY) or {}, task.world[SITE_SPEC_KEY]
        for part in ("surfaces", "actions"):
            new[part] = dict(sorted(({**new[part], **(old.get(part) or {})}).items()))
        if "conformance" in task.world:
            task.world["conformance"] = conformance(new, task.site)
    if "conformance" in task.world:
        summary.conformance.append(conformance_line(task.id, task.world["webstep_site"],
                                                    task.world["conformance"]))
    return task


def _write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically, through the scrubbing writer: a bundle recorded
    elsewhere may carry credentials (a URL's password or token) that a run never writes."""
    tmp = path.with_name(path.name + ".tmp")
    write_scrubbed(tmp, text)
    tmp.replace(path)


def _merge_jsonl(path: Path, rows: Sequence[Mapping[str, Any]]) -> None:
    """Rewrite ``path`` with ``rows`` replacing those of the same (agent, mode, task_id) in
    place and the others appended; lines that are not JSON objects are kept as they are."""
    def key(row: Mapping[str, Any]) -> tuple[Any, Any, Any]:
        return row.get("agent"), row.get("mode"), row.get("task_id")

    fresh = {key(r): r for r in rows}
    lines: list[str] = []
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                old = json.loads(line)
            except json.JSONDecodeError:
                lines.append(line)
                continue
            k = key(old) if isinstance(old, dict) else None
            if k in fresh:
                lines.append(json.dumps(fresh.pop(k)))
            else:
                lines.append(line)
    lines += [json.dumps(r) for r in rows if key(r) in fresh]
    _write(path, "".join(line + "\n" for line in lines))
