"""Covered points E = E_act U E_perc of a task (CAP §3.4), read off its oracle and the site's
card (:mod:`webmdp.cap.cards`).

* Execution points: each card item with an action type whose actions the oracle takes (the
  date-range picker a booking's dates go through, the brand checkboxes a filter uses).
* Perception points: each piece of information the task needs that its oracle looks at (its
  info constraints, less hard negatives ranked below the target), typed by what shows it
  where the oracle first sees it: a visual-only widget's type when the site draws that field
  in pixels there, else the first perception item the card lists for that surface.
"""

from __future__ import annotations

from webmdp.cap.cards import SiteCard, site_card
from webmdp.core.registry import get_site
from webmdp.core.site import Site
from webmdp.tasks.model import CoveredPoint, Task
from webmdp.tasks.outputs import first_shown

_VISUAL_FIRST = ("PT27", "PT28", "PT31", "PT29", "PT13", "PT06", "PT05", "PT11")


def covered_points(site_name: str, task: Task) -> list[CoveredPoint]:
    """The covered points of a single-site task (ids are ``site:...``, unique per task)."""
    card = site_card(site_name)
    site = get_site(site_name)
    taken = [a.name for a in task.oracle]
    out: list[CoveredPoint] = []
    for item in card.execution:
        if item.type_id is None:
            continue
        used = sorted(set(item.actions) & set(taken))
        if not used:
            continue
        pid = f"{site_name}:{item.type_id}:{'+'.join(used)}"
        if any(p.id == pid for p in out):
            continue
        out.append(CoveredPoint(id=pid, kind="action", type_id=item.type_id, site=site_name,
                                description=f"{item.component} ({', '.join(used)})",
                                actions=used))
    first_seen = first_shown(task)
    for ic in task.info_constraints:
        surface = first_seen.get((ic.entity, ic.field))
        if surface is None:  # a hard negative ranked below the target: the oracle never looks
            continue
        type_id = _perception_type(card, site, surface, ic.field)
        out.append(CoveredPoint(id=f"{site_name}:{ic.entity}.{ic.field}", kind="perception",
                                type_id=type_id, site=site_name, description=ic.description,
                                entity=ic.entity, field=ic.field))
    return out


def _perception_type(card: SiteCard, site: Site, surface: str, field: str) -> str | None:
    here = sorted({p.type_id for p in card.perception if surface in p.surfaces})
    if field in site.pixel_fields.get(surface, frozenset()):
        visual = [t for t in _VISUAL_FIRST if t in here]
        if visual:
            return visual[0]
    return here[0] if here else None
