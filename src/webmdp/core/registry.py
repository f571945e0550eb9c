"""The site registry (a :class:`webmdp.plugins.Registry`, group ``webmdp.sites``): webmdp's ten
sites are registered here in code, installed packages add theirs through entry points. Sites
are imported only when asked for, so every layer below them can name a site.

``site_names()`` is the benchmark: webmdp's own sites, what ``--site all`` and the cross-site
MDP mean on every machine whatever else is installed (published figures stay comparable).
``site_names(plugins=True)`` adds the installed plugin sites, which a user selects by name.
"""

from __future__ import annotations

import importlib
import warnings
from functools import cache

from webmdp.core.site import Site
from webmdp.errors import unknown_choice
from webmdp.plugins import PluginError, Registry

_BUILTIN: dict[str, str] = {
    "shopping": "webmdp.sites.shopping.site:ShoppingSite",
    "mail": "webmdp.sites.mail.site:MailSite",
    "accommodation": "webmdp.sites.accommodation.site:AccommodationSite",
    "housing": "webmdp.sites.housing.site:HousingSite",
    "food": "webmdp.sites.food.site:FoodSite",
    "chat": "webmdp.sites.chat.site:ChatSite",
    "qa": "webmdp.sites.qa.site:QASite",
    "calendar": "webmdp.sites.calendar.site:CalendarSite",
    "repo": "webmdp.sites.repo.site:RepoSite",
    "jobs": "webmdp.sites.jobs.site:JobsSite",
}


def _is_site_class(value: object) -> None:
    if not (isinstance(value, type) and issubclass(value, Site)):
        raise PluginError(f"a site entry point must name a webmdp.core.Site subclass, "
                          f"not {value!r}")


SITES: Registry[type[Site]] = Registry("site", "webmdp.sites", _BUILTIN, pattern=r"[a-z_]+",
                                       check=_is_site_class)
"""Every site: built-in, from entry points, or registered at run time."""

_COMPOSITES: dict[str, str] = {"cross-site": "webmdp.sites.cross.site:CrossSite"}
"""MDPs made of the sites above (not sites of their own: :func:`site_names` leaves them out,
so "every site" still means the single sites)."""


def register_site(name: str, entry_point: str) -> None:
    """Register a site class by ``"module:attr"`` without importing it, in this process and
    in every process it starts (runner workers, ``rl serve``). An installed package declares
    an entry point in group ``webmdp.sites`` instead (docs/extending.md)."""
    SITES.register(name, entry_point)
    get_site.cache_clear()


def site_names(*, plugins: bool = False) -> list[str]:
    """webmdp's own sites (the benchmark; ``--site all``), with ``plugins`` every registered
    site, plugins included."""
    entries = SITES.entries()
    return sorted(n for n, e in entries.items() if plugins or e.builtin)


def usable_sites() -> list[Site]:
    """Every site that loads: webmdp's own, then the installed plugins'. A plugin that cannot
    be loaded (its module missing, another plugin API) is left out with a warning that says
    why, so listing environments or building Gymnasium's spaces does not fail on it;
    naming it (``get_site``) still raises."""
    out = []
    for name in site_names(plugins=True):
        try:
            out.append(get_site(name))
        except PluginError as exc:
            warnings.warn(f"{exc} (left out)", RuntimeWarning, stacklevel=2)
    return out


@cache
def get_site(name: str) -> Site:
    """The (stateless, shared) site instance for ``name``."""
    if name in _COMPOSITES:
        module, attr = _COMPOSITES[name].split(":")
        return getattr(importlib.import_module(module), attr)()  # type: ignore[no-any-return]
    if name not in SITES:
        raise unknown_choice("site", name, site_names(plugins=True))
    site = SITES.load(name)()
    if site.name != name:
        raise PluginError(f"site '{name}' from package {SITES.entry(name).package} names "
                          f"itself '{site.name}': the class's name must be the registered one")
    return site
