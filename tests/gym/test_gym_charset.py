"""The Text spaces' charset covers every character the worlds put in an observation."""

from __future__ import annotations

import string

import pytest

pytest.importorskip("gymnasium")

import webmdp.gym as wgym
from support import site_tasks
from webmdp.env.semantic import SemanticEnv
from webmdp.sites import site_names

ORACLE_EVERY = 3
"""Oracle trajectories of every third task (all of them take about three times as long)."""


def test_charset_holds_printable_ascii_and_the_worlds_glyphs() -> None:
    chars = set(wgym.charset())
    assert set(string.printable) <= chars and " " in chars and wgym.REPLACEMENT in chars
    # literal (the food menu's plate, beyond the basic plane), \\u escapes (chat reactions, en
    # dashes), HTML entities
    assert {"\u00e9", "\u2013", "\u201c", "\u25c9", "\u2764", "\u2605", "\U0001f37d"} <= chars
    assert len(chars) == len(wgym.charset())


@pytest.mark.parametrize("site", site_names())
def test_observations_of_every_task_are_in_the_space(site: str) -> None:
    chars = frozenset(wgym.charset())
    space = wgym.WebMDPEnv(f"{site}-v1").observation_space
    longest = 0
    for i, task in enumerate(site_tasks(site)):
        env = SemanticEnv(task)
        obs, _ = env.reset()
        texts = [obs["text"], task.instruction, *(str(v) for v in task.params.values())]
        if i % ORACLE_EVERY == 0:
            texts += [env.step(a)[0]["text"] for a in task.oracle_actions()]
        for text in texts:
            foreign = set(text) - chars
            assert not foreign, (task.id, sorted(foreign), text[:200])
            longest = max(longest, len(text))
        assert space.contains(obs["text"])
    assert longest < wgym.OBS_MAX_LENGTH // 2, longest


def test_fit_keeps_the_space_even_for_foreign_or_long_text() -> None:
    env = wgym.WebMDPEnv("shopping-v1")
    fitted, clipped = wgym._fit("caf\u00e9 \u4e2d" + "x" * wgym.OBS_MAX_LENGTH)
    assert clipped and fitted.startswith("caf\u00e9 " + wgym.REPLACEMENT)
    assert env.observation_space.contains(fitted)
    assert wgym._fit("Surface: Home") == ("Surface: Home", False)
