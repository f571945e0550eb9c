"""Visual-only information (WebForge visual complexity): the toolkit's pixel widgets are
deterministic and leak no value into the page's text; the decoder reads them back exactly
from their PNG and from a real screenshot; the dial-only visual templates measure visual 2 / 3;
the pixel agent solves them and the text-only agent reads nothing and guesses."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

from support import oracle_states
from webmdp.agents.pixel import AxTextAgent, PixelAgent, read_widgets
from webmdp.core import World
from webmdp.env.browser import BrowserConfig, BrowserEnv
from webmdp.runner.episode import run_episode
from webmdp.sites import get_site
from webmdp.sites._common import visual as V
from webmdp.sites._common.views import render_page
from webmdp.sites._common.visualtask import VisualPick
from webmdp.tasks import Task
from webmdp.tasks.difficulty import measure
from webmdp.tasks.generate import make_task
from webmdp.tasks.replay import replay
from webmdp.tasks.verifier import verify

SITES = ("shopping", "housing", "accommodation", "food")
DATA_URI = re.compile(r'src="data:image/png;base64,[A-Za-z0-9+/=]+"')


def visual_tasks(site: str, per_template: int = 3, start: int = 20_000) -> Iterator[Task]:
    s = get_site(site)
    for name, tpl in s.dial_templates.items():
        if not isinstance(tpl, VisualPick):
            continue
        for k in range(per_template):
            yield make_task(s, start + k, name, 1 + k % 3)


# -- widgets and decoder (no browser) ----------------------------------------------------------
def test_widgets_are_deterministic_and_cached() -> None:
    assert V.line_chart_png([5, 40, 70]) == V.line_chart_png([5, 40, 70])
    assert V.photo_png("amber", "house") == V.photo_png("amber", "house")
    V.cache_clear()
    uri = V.widget_uri("bar", [1, 2, 3])
    assert V.widget_uri("bar", [1, 2, 3]) is uri and V.cache_info().hits == 1
    assert V.cache_info().maxsize == 512  # bounded


def test_decoder_reads_back_every_drawn_value() -> None:
    rng = random.Random(7)
    for _ in range(60):
        n = rng.randint(2, 10)
        bars, line = ([rng.randint(0, V.CHART.vmax) for _ in range(n)] for _ in range(2))
        cols = rng.randint(1, 8)
        grid = [[rng.randint(0, 4) for _ in range(cols)] for _ in range(rng.randint(1, 5))]
        colour = rng.choice(list(V.PHOTO_COLORS))
        assert read_widgets(V.bar_chart_png(bars)) == {"bar": bars}
        assert read_widgets(V.line_chart_png(line)) == {"line": line}
        assert read_widgets(V.heat_map_png(grid)) == {"heat": grid}
        for shape in ("box", "mug", "house"):
            assert read_widgets(V.photo_png(colour, shape)) == {"photo": colour}


# -- the dial templates -------------------------------------------------------------------------
@pytest.mark.parametrize("site", SITES)
def test_visual_templates_measure_visual_2_or_3_and_their_oracle_solves_them(site: str) -> None:
    s = get_site(site)
    assert not set(s.dial_templates) & set(s.templates)
    for task in visual_tasks(site):
        tpl = s.template(task.template)
        assert isinstance(tpl, VisualPick)
        d = measure(task.model_copy(update={"difficulty": None}))
        assert d == task.difficulty
        assert d.of("visual") == (3 if tpl.photo and tpl.chart else 2), task.template
        world = World.from_dict(task.world)
        final = replay(s, world, task.oracle_actions()).final
        assert all(verify(task.verifier, s.facts(final)).values())


@pytest.mark.parametrize("site", SITES)
def test_no_pixel_value_reaches_the_page_text(site: str) -> None:
    """Every page on each visual task's oracle path renders the same markup, data URIs aside,
    whatever the pixel fields hold; and no photo colour's name is in it."""
    s = get_site(site)
    fields = frozenset().union(*s.pixel_fields.values())
    rng = random.Random(3)
    for task in visual_tasks(site, per_template=2):
        world = World.from_dict(task.world)
        other = World.from_dict(task.world)
        for e in other.entities.values():
            for f in fields & set(e):
                e[f] = rng.choice([c for c in V.PHOTO_COLORS if c != e[f]]) \
                    if isinstance(e[f], str) else [v % 60 + 7 for v in e[f]]
        for state in oracle_states(s, task):
            pages = [DATA_URI.sub('src=""', render_page(site, s.observe(state, w), title="t",
                                                       base="/s/x", version=1))
                     for w in (world, other)]
            assert pages[0] == pages[1], f"{task.template}: a pixel value is in the markup"
            assert not re.search(r"\b(" + "|".join(V.PHOTO_COLORS) + r")\b", pages[0], re.I)


# -- in a real Chromium ------------------------------------------------------------------------
@pytest.mark.browser
@pytest.mark.parametrize("site", ["shopping", *(pytest.param(s, marks=pytest.mark.slow)
                                  for s in ("housing", "accommodation", "food"))])
def test_pixel_agent_solves_and_text_agent_only_guesses(site: str, server, host) -> None:  # type: ignore[no-untyped-def]
    s = get_site(site)
    tasks = [make_task(s, 30_000, name, 3) for name, tpl in s.dial_templates.items()
             if isinstance(tpl, VisualPick)]
    for task in tasks:
        world = World.from_dict(task.world)
        for agent in (PixelAgent(), AxTextAgent()):
            env = BrowserEnv(task, agent=agent.name, server=server, host=host,
                             config=BrowserConfig(observation="both"))
            try:
                trace = run_episode(env, agent)
            finally:
                env.close()
            assert sorted(agent.readings) == sorted([task.target, *task.hard_negatives])
            if agent.name == "pixel":
                assert trace.success, (task.template, agent.readings)
                # read from real screenshots, exactly what the world holds
                for eid, read in agent.readings.items():
                    assert read and read == {f: world.entities[eid][f] for f in read}
            else:  # the accessibility tree holds none of it: a pick at random
                assert all(not r for r in agent.readings.values()), agent.readings


@pytest.mark.parametrize("site", SITES)
def test_semantic_mode_gives_no_pixel_value_as_text_but_counts_it_seen(site: str) -> None:
    from webmdp.env.semantic import PIXELS, SemanticEnv

    s = get_site(site)
    for task in list(visual_tasks(site, per_template=1)):
        env = SemanticEnv(task)
        obs, _ = env.reset(seed=0)
        texts = [obs["text"]]
        for a in task.oracle_actions():
            obs, *_ = env.step(a)
            texts.append(obs["text"])
        hidden = set().union(*s.pixel_fields.values())
        assert any(PIXELS in t for t in texts), task.id
        world = World.from_dict(task.world)
        for ent in world.entities.values():
            for f in hidden & set(ent):
                value = str(ent[f])
                assert not any(f"{f}={value}" in t for t in texts), (task.id, f)
        seen = {(e, f) for st in env.trace.steps for t in st.transitions for e, f in t.revealed}
        assert any(f in hidden for _, f in seen), task.id  # coverage still counts the pixels
