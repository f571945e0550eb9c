"""Server-side views: a site's Jinja templates render an :class:`Observation` and nothing else.

Binding convention (the dispatch script in ``static/webmdp.js`` reads it):

* ``{{ act("OpenProduct", product_id=e.id) }}`` on any element emits ``data-action``,
  ``data-params`` (JSON) and a stable ``data-testid``; clicking it dispatches the action.
* ``<form {{ act("Search") }}>``: submitting dispatches the action with the form's named inputs
  as parameters (``data-type="float"`` / ``"int"`` inputs are converted, empty ones omitted).
* ``<input {{ act("SetSubject", quiet=True) }} name="subject">``: a field-entry action, sent
  on ``change`` without re-rendering (typing is not a semantic action until it is committed).
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from jinja2 import ChoiceLoader, Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup, escape

from webmdp.core.model import Observation
from webmdp.errors import ConfigError
from webmdp.sites._common.visual import widget_size, widget_uri

_COMMON = Path(__file__).parent / "views"


def testid(action: str, params: dict[str, Any]) -> str:
    """Stable ``data-testid`` for a bound action: ``action`` plus its parameter values."""
    parts = [action, *(str(v) for v in params.values())]
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", "-".join(parts)).strip("-")


def act(action: str, quiet: bool = False, **params: Any) -> Markup:
    """The attributes that bind an element to a semantic action: ``<a href="#" {{ act(
    "OpenBook", book_id=b.id) }}>``. A click (a form's submit, for a form; its fields fill the
    parameters it leaves out) sends ``action`` with ``params`` to the MDP; the conformance
    check finds every available action bound this way. ``quiet``: a step the agent's screen
    does not announce (a hover preview)."""
    attrs = (f'data-action="{escape(action)}" data-params="{escape(json.dumps(params))}" '
             f'data-testid="{escape(testid(action, params))}"')
    if quiet:
        attrs += " data-quiet"
    return Markup(attrs)


def drag(action: str, **params: Any) -> Markup:
    """Makes an element draggable (static/gestures.js): dropped on a ``kit.drop_zone`` for
    ``action`` it dispatches ``action`` with ``params``; a click on it is still a click."""
    return Markup(f'data-drag="{escape(action)}" data-drag-params="{escape(json.dumps(params))}" '
                  'draggable="false"')


_STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000)


def slider_scale(lo: float, hi: float, *, notches: int = 100) -> tuple[int, int, int]:
    """A range slider's (low end, high end, step): the smallest step in :data:`_STEPS` that
    gives at most ``notches`` values between the world's bounds, ends rounded out to it (so a
    knob lands on round values and one step is a few pixels wide)."""
    span = max(hi - lo, 1)
    step = next((s for s in _STEPS if span / s <= notches), _STEPS[-1])
    low, high = int(lo // step * step), int(-(-hi // step) * step)
    return low, max(high, low + step), step


def money(value: float) -> str:
    """A price as the pages show it: ``$1,234.50``."""
    return f"${value:,.2f}"


def site_folder(site: str, kind: str) -> Path | None:
    """A site's ``views`` or ``static`` folder, found through its package
    (:meth:`Site.package`, :mod:`importlib.resources`), so a site installed from another
    package has its pages; None when it has none. ``cross`` is the cross-site start page's."""
    from webmdp.core.registry import SITES, get_site

    if site in (_CROSS_VIEWS, CROSS):  # the composite MDP's start page and switcher
        package = "webmdp.sites.cross"
    elif site in SITES:
        package = get_site(site).package()
    else:
        return None
    folder = resources.files(package) / kind
    return Path(str(folder)) if folder.is_dir() else None


@cache
def environment(site: str) -> Environment:
    folder = site_folder(site, "views")
    if folder is None:
        raise ConfigError(f"site {site!r} has no views/ folder beside its site module "
                          "(docs/extending.md)")
    env = Environment(
        loader=ChoiceLoader([FileSystemLoader(folder), FileSystemLoader(_COMMON)]),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals.update(act=act, money=money, testid=testid, widget_uri=widget_uri,
                       widget_size=widget_size, slider_scale=slider_scale, drag=drag)
    return env


CROSS = "cross-site"
"""The composite MDP's name (``webmdp.sites.cross``): its pages are a member site's page under
a site switcher, or the start page."""
_CROSS_VIEWS = "cross"
_BOUND_NAME = re.compile(r'(data-(?:action|drag|drop-for)=")([A-Za-z]+)"')


def render_app(site: str, obs: Observation, **extra: Any) -> str:
    """The inner ``#app`` markup of a surface."""
    if site == CROSS:
        return _render_cross(obs, **extra)
    env = environment(site)
    html = env.get_template(f"{obs.surface}.html").render(obs=obs, ctx=obs.context,
                                                          entities=obs.entities, **extra)
    question = obs.context.get("confirm_dialog")
    if question:  # a confirmation dialog over the page (webmdp.core.dialog): the page is
        # drawn but inert, as under a site's own modal (no bound actions, drags or drops)
        html = _BOUND_ATTR.sub(r"data-inert-\1=", html)
        html += env.get_template("confirm_dialog.html").render(question=question)
    return html


_BOUND_ATTR = re.compile(r"data-(action|drag|drop-for)=")


def _render_cross(obs: Observation, **extra: Any) -> str:
    """A cross-site page: the start page, or the open member's own page (its actions renamed
    ``site.Action``, as the composite MDP names them) under the site switcher."""
    env = environment(_CROSS_VIEWS)
    member = obs.context.get("_site")
    if not member:
        return env.get_template("Home.html").render(obs=obs, ctx=obs.context, **extra)
    lead = f"{member}."
    inner = Observation(
        surface=obs.context["_surface"], kind=obs.kind, entities=obs.entities,
        available=tuple(type(a)(a.name[len(lead):], a.params) for a in obs.available
                        if a.name.startswith(lead)),
        context=obs.context)
    html = _BOUND_NAME.sub(lambda m: f'{m.group(1)}{lead}{m.group(2)}"',
                           render_app(member, inner, **extra))
    switcher = env.get_template("switcher.html").render(obs=obs, ctx=obs.context,
                                                        current=member)
    return switcher + html


def stylesheet(site: str, obs: Observation) -> str:
    """The site stylesheet a page of ``obs`` uses (a cross-site page: the open member's)."""
    if site == CROSS:
        return str(obs.context.get("_site") or _CROSS_VIEWS)
    return site


def render_page(site: str, obs: Observation, *, title: str, base: str, version: int,
                error: str | None = None) -> str:
    """A full HTML document for ``obs``; ``base`` is the session's URL prefix."""
    app = render_app(site, obs, error=error)
    members = (obs.context.get("_sites") or obs.context.get("sites") or []) if site == CROSS \
        else []  # a cross-site page preloads its other sites' stylesheets (a fast swap)
    return environment(site).get_template("page.html").render(
        site=site, title=title, surface=obs.surface, base=base, version=version, app=Markup(app),
        stylesheet=stylesheet(site, obs),
        preload=[str(name) for name, _ in members if name != stylesheet(site, obs)],
    )


def bound_actions(html: str) -> set[str]:
    """Names of the actions a rendered page binds (for conformance checks)."""
    return set(re.findall(r'data-action="([A-Za-z]+(?:\.[A-Za-z]+)?)"', html))
