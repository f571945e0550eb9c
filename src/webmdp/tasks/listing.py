"""Read a list surface's order after a navigation prefix (stage 1 of E.3)."""

from __future__ import annotations

from webmdp.core.model import World
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.tasks.replay import replay


def ranked_after(site: Site, world: World, prefix: list[Action]) -> list[str]:
    """Entity ids on screen, in display order, after replaying ``prefix``."""
    result = replay(site, world, prefix)
    if result.error:
        raise ValueError(f"navigation prefix invalid: {result.error[1]}")
    return [e.id for e in site.observe(result.final, world).entities]
