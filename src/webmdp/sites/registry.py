"""The site registry lives in :mod:`webmdp.core.registry` (below the sites, so that tasks
can find a task's site without importing the sites); this module keeps its old name."""

from webmdp.core.registry import get_site, register_site, site_names

__all__ = ["get_site", "register_site", "site_names"]
