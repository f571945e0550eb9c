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
from pathlib import Path
from typing import Any

from jinja2 import ChoiceLoader, Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup, escape

from webmdp.core.model import Observation
from webmdp.sites._common.visual import widget_size, widget_uri

_COMMON = Path(__file__).parent / "views"
_SITES = Path(__file__).parent.parent


def testid(action: str, params: dict[str, Any]) -> str:
    """Stable ``data-testid`` for a bound action: ``action`` plus its parameter values."""
    parts = [action, *(str(v) for v in params.values())]
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", "-".join(parts)).strip("-")


def act(action: str, quiet: bool = False, **params: Any) -> Markup:
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
    return f"${value:,.2f}"


@cache
def environment(site: str) -> Environment:
    env = Environment(
        loader=ChoiceLoader([FileSystemLoader(_SITES / site / "views"),
                             FileSystemLoader(_COMMON)]),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals.update(act=act, money=money, testid=testid, widget_uri=widget_uri,
                       widget_size=widget_size, slider_scale=slider_scale, drag=drag)
    return env


def render_app(site: str, obs: Observation, **extra: Any) -> str:
    """The inner ``#app`` markup of a surface."""
    tpl = environment(site).get_template(f"{obs.surface}.html")
    return tpl.render(obs=obs, ctx=obs.context, entities=obs.entities, **extra)


def render_page(site: str, obs: Observation, *, title: str, base: str, version: int,
                error: str | None = None) -> str:
    """A full HTML document for ``obs``; ``base`` is the session's URL prefix."""
    app = render_app(site, obs, error=error)
    return environment(site).get_template("page.html").render(
        site=site, title=title, surface=obs.surface, base=base, version=version, app=Markup(app)
    )


def bound_actions(html: str) -> set[str]:
    """Names of the actions a rendered page binds (for conformance checks)."""
    return set(re.findall(r'data-action="([A-Za-z]+)"', html))
