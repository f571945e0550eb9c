"""WebSTEP's site names and ours, and how an imported site's declared MDP compares with ours.

The published bundles name sites after the real applications (``gmail``, ``airbnb``,
``github``); webmdp keeps short ids (``mail``, ``accommodation``, ``repo``). An imported task
takes our id when we implement that site, keeping the bundle's name in
``world["webstep_site"]``. Its world is WebSTEP's (entities we never generated), so its oracle
cannot be replayed on our MDP; what can be checked is the vocabulary: which of the actions and
surfaces the bundles recorded our site declares, with the same skill category and surface
kind. :func:`conformance` records that under ``world["conformance"]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from webmdp.core.site import Site
from webmdp.errors import ConfigError, InvalidAction
from webmdp.sites import get_site, site_names

WEBSTEP_SITES: dict[str, str] = {
    # names seen in the published bundles
    "gmail": "mail", "airbnb": "accommodation", "github": "repo",
    # the applications the paper's sites are modelled after
    "amazon": "shopping", "doordash": "food", "zillow": "housing", "stackoverflow": "qa",
    "linkedin": "jobs", "slack": "chat", "gcal": "calendar", "google_calendar": "calendar",
    # the paper's domain names (Table 4), normalised
    "team_chat": "chat", "food_delivery": "food", "coding_qa": "qa", "coding_q&a": "qa",
    "code_repo": "repo", "code_repository": "repo", "job_network": "jobs",
}


def our_site(webstep_name: str) -> str | None:
    """Our id for a WebSTEP site name when we implement that site, else None."""
    key = webstep_name.strip().lower().replace(" ", "_").replace("-", "_")
    ours = WEBSTEP_SITES.get(key, key)
    return ours if ours in site_names() else None


def conformance(spec: Mapping[str, Any], site_id: str) -> dict[str, Any]:
    """How the actions and surfaces a task's bundles declare compare with our site's:
    ``same`` (declared by ours with the same category / kind), ``differ`` (name -> theirs and
    ours) and ``ours_lacks``."""
    try:
        site: Site = get_site(site_id)
    except ConfigError:  # pragma: no cover - our_site only names registered sites
        return {}
    actions: dict[str, Any] = {"same": [], "differ": {}, "ours_lacks": []}
    for name, decl in sorted((spec.get("actions") or {}).items()):
        try:
            ours = site.action_spec(name).category.value
        except InvalidAction:
            actions["ours_lacks"].append(name)
            continue
        theirs = decl.get("category") if isinstance(decl, Mapping) else None
        if theirs in (None, ours):
            actions["same"].append(name)
        else:
            actions["differ"][name] = {"webstep": theirs, "ours": ours}
    surfaces: dict[str, Any] = {"same": [], "differ": {}, "ours_lacks": []}
    for name, kind in sorted((spec.get("surfaces") or {}).items()):
        try:
            mine = site.surface_kind(name).value
        except KeyError:
            surfaces["ours_lacks"].append(name)
            continue
        if kind == mine:
            surfaces["same"].append(name)
        else:
            surfaces["differ"][name] = {"webstep": kind, "ours": mine}
    return {"site": site_id, "actions": actions, "surfaces": surfaces}


def conformance_line(task_id: str, webstep_name: str, check: Mapping[str, Any]) -> str:
    """One line for the import summary."""
    def part(what: str, c: Mapping[str, Any]) -> str:
        total = len(c["same"]) + len(c["differ"]) + len(c["ours_lacks"])
        text = f"{len(c['same'])} of {total} {what} match"
        if c["differ"]:
            text += f" ({len(c['differ'])} differ: {', '.join(c['differ'])})"
        if c["ours_lacks"]:
            text += f" (ours lacks {', '.join(c['ours_lacks'])})"
        return text

    return (f"{task_id}: WebSTEP site {webstep_name!r} is our {check['site']!r}; "
            f"{part('actions', check['actions'])}; {part('surfaces', check['surfaces'])}")
