"""Operation codes and answers (WebForge §D.5): the gold code of a correct commit, one
deceptive code per set of mistakes, decoding a returned code, normalised answer comparison,
and no answer, code or verifier parameter anywhere on a page but its visible content."""

from __future__ import annotations

import itertools
import re
from html.parser import HTMLParser
from pathlib import Path

import httpx
import pytest

from support import site_tasks
from webmdp.core.model import World
from webmdp.core.spec import Action
from webmdp.env.browser import BrowserConfig, BrowserEnv
from webmdp.env.chromium import BrowserHost
from webmdp.env.semantic import SemanticEnv
from webmdp.runner.local import RunConfig, run_tasks
from webmdp.server.runner import ServerHandle
from webmdp.sites import get_site, site_names
from webmdp.tasks.answers import matches, normalise
from webmdp.tasks.codes import CODE, Coder, explain, find_code, gold_code, task_secret


def _accommodation():  # type: ignore[no-untyped-def]
    return site_tasks("accommodation")[0]  # book: listing, check-in, check-out, guests, status


def test_the_oracle_commit_shows_the_gold_code_and_a_wrong_one_its_mistakes() -> None:
    task = _accommodation()
    env = SemanticEnv(task)
    env.reset(seed=0)
    obs = None
    for a in task.oracle_actions():
        obs, *_ = env.step(a)
    assert obs is not None and find_code(obs["text"]) == gold_code(task)
    assert CODE.fullmatch(gold_code(task)) and gold_code(task).startswith("ACC-")
    # the same booking with 2 guests: a deceptive code in the same format, naming guests
    env = SemanticEnv(task)
    env.reset(seed=0)
    *head, book, confirm = task.oracle_actions()
    for a in head:
        env.step(a)
    env.step(Action(book.name, {**book.params, "guests": 2}))
    obs, *_ = env.step(confirm)
    code = find_code(obs["text"])
    assert code is not None and code != gold_code(task) and CODE.fullmatch(code)
    meaning = explain(task, code)
    assert meaning.known and not meaning.gold
    assert [c.fact for c in meaning.failing] == ["booking.guests"]
    assert "guests" in meaning.describe()


def test_every_set_of_mistakes_has_its_own_code() -> None:
    task = _accommodation()
    coder = Coder.of(task)
    n = len(coder.conditions)
    codes = {coder.deceptive(c) for k in range(1, n + 1)
             for c in itertools.combinations(range(n), k)}
    assert len(codes) == 2 ** n - 1 and gold_code(task) not in codes
    for combo in [(0,), (1, 3), tuple(range(n))]:
        meaning = explain(task, coder.deceptive(combo))
        assert [coder.conditions.index(c) for c in meaning.failing] == list(combo)
    assert not explain(task, "ACC-AAAA-AAAA").known
    # deterministic, and bound to the task: another task's secret gives other codes
    other = site_tasks("accommodation")[1]
    assert Coder.of(task).deceptive((0,)) == coder.deceptive((0,))
    assert Coder.of(other).deceptive((0,)) != coder.deceptive((0,))


def test_built_in_agents_return_the_code_and_the_report_decodes_it(tmp_path: Path) -> None:
    tasks = site_tasks("food")[::60]
    traces = run_tasks(tasks, tmp_path / "run", RunConfig(agent="oracle"))
    assert all(t.final_answer == gold_code(task) for t, task in zip(traces, tasks, strict=True))
    assert all(task.answer_type == "operation_code" for task in tasks)


@pytest.mark.parametrize(("expected", "given"), [
    (1234.5, "$1,234.50"), ("1234.5", "1,234.50 USD"), ("2026-05-16", "May 16, 2026"),
    ("2026-05-16", "05/16/2026"), ("2026-05-16", "16th May 2026"),
    ("Grand Estate", "grand estate."), (3, "3"), ("Portland", "The answer: Portland"),
])
def test_answers_match_after_normalisation(expected: object, given: str) -> None:
    assert matches(expected, given.split(": ")[-1]) or matches(expected, given)


def test_answers_that_differ_do_not_match() -> None:
    assert not matches(1234.5, "$1,234.00")
    assert not matches("2026-05-16", "2026-05-17")
    assert not matches("Portland", "Seattle") and not matches("x", None)
    assert normalise("  Hello   World! ") == "hello world"


# -- nothing leaks ---------------------------------------------------------------------------
_CONTROL = {"data-action", "data-params", "data-testid", "value"}
_PRESENTED = {"placeholder", "aria-label", "alt", "title"}
"""Attributes a user or the accessibility tree is shown: visible content."""


class _Split(HTMLParser):
    """A page's visible text, apart from its attribute values and script / style text."""

    def __init__(self) -> None:
        super().__init__()
        self.visible: list[str] = []
        self.hidden: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._skip += tag in ("script", "style")
        # a control's own action and parameters are what the page offers (every slot, every
        # option), from observe(s).available: not hidden information
        self.hidden += [v for k, v in attrs if v and k not in _CONTROL | _PRESENTED]
        self.visible += [v for k, v in attrs if v and k in _PRESENTED]

    def handle_endtag(self, tag: str) -> None:
        self._skip -= tag in ("script", "style") and self._skip > 0

    def handle_data(self, data: str) -> None:
        (self.hidden if self._skip else self.visible).append(data)


def _pages(server: ServerHandle, task):  # type: ignore[no-untyped-def]
    """Every page on the task's oracle path, as the server sends it (with codes on)."""
    created = server.control("POST", "/control/sessions", json={
        "site": task.site, "world": task.world, "codes": Coder.of(task).to_json()})
    sid = created["session_id"]
    pages = [httpx.get(server.url + created["url"]).text]
    for a in task.oracle_actions():
        r = httpx.post(f"{server.url}/s/{sid}/dispatch", json={"action": a.name,
                                                               "params": a.params})
        pages.append(r.json()["html"])
        pages.append(httpx.get(f"{server.url}/s/{sid}/x").text)
    return pages


@pytest.mark.parametrize("site", site_names())
def test_no_answer_code_or_parameter_outside_visible_content(server: ServerHandle,
                                                             site: str) -> None:
    for task in site_tasks(site)[::90]:
        gold, secret = gold_code(task), task_secret(task).hex()
        ids = {e["id"] for e in task.world["entities"]}
        values = {str(c.value) for c in task.verifier
                  if isinstance(c.value, (str, int, float)) and not isinstance(c.value, bool)
                  and str(c.value) not in ids and len(str(c.value)) >= 4}
        pages = _pages(server, task)
        for i, html in enumerate(pages):
            assert secret not in html and '"conditions"' not in html, (task.id, i)
            split = _Split()
            split.feed(html)
            visible, hidden = " ".join(split.visible), " ".join(split.hidden)
            assert gold not in hidden, (task.id, i)
            for v in values:  # a verifier value may be shown, never only hidden
                if v in hidden:
                    assert v in visible, (task.id, i, v)
        # the gold code appears only once the final commit is made, and then visibly
        assert all(gold not in html for html in pages[:-2]), task.id
        final = _Split()
        final.feed(pages[-1])
        assert gold in " ".join(final.visible), task.id
        assert re.search(r'data-testid="confirmation-code"', pages[-1])


def test_the_browser_oracle_reads_the_code_off_the_page(server: ServerHandle,
                                                        host: BrowserHost) -> None:
    from webmdp.agents.builtin import OracleAgent
    from webmdp.runner.episode import run_episode

    task = site_tasks("shopping")[120]  # checkout: PlaceOrder is the last commit
    env = BrowserEnv(task, agent="oracle", server=server, host=host,
                     config=BrowserConfig(observation="axtree"))
    try:
        trace = run_episode(env, OracleAgent())
    finally:
        env.close()
    assert trace.success and trace.final_answer == gold_code(task)


def test_direct_and_mixed_answers_are_judged(tmp_path: Path) -> None:
    from webmdp.tasks.generate import make_task

    shop = get_site("shopping")
    direct = make_task(shop, 10_500, "report_product_price", 1)
    mixed = make_task(shop, 10_501, "add_and_report_price", 1)
    assert (direct.answer_type, mixed.answer_type) == ("direct", "mixed")
    assert direct.verifier == [] and direct.answer is not None and direct.domain == "D4"
    oracle = run_tasks([direct, mixed], tmp_path / "o", RunConfig(agent="oracle"))
    assert all(t.success for t in oracle)
    assert oracle[0].final_answer == direct.answer
    assert oracle[1].final_answer == f"{mixed.answer}; {gold_code(mixed)}"
    # the greedy agent adds the right product but never says its price: the mixed task fails
    # on the answer alone
    greedy = run_tasks([direct, mixed], tmp_path / "g", RunConfig(agent="greedy"))
    assert not any(t.success for t in greedy)
    assert greedy[1].verifier["the final answer states the expected value"] is False


def test_the_analysis_template_reports_a_charts_answer_at_level_3(tmp_path: Path) -> None:
    """Shopping's Info Retrieval/Analysis (D4) at level 3: compare the look-alikes' photos
    and price charts, report the price of the biggest drop. It sits in the ``analysis``
    segment only, appended after ``commits``, so no earlier dial name moves."""
    from webmdp.tasks import dial
    from webmdp.tasks.generate import make_task

    shop = get_site("shopping")
    name = "report_biggest_price_drop"
    assert [g.name for g in dial.segments(shop) if name in g.templates] == ["analysis"]
    assert dial.segments(shop)[-1].name == "analysis"
    task = make_task(shop, 10_502, name, 2)
    assert (task.domain, task.answer_type, task.verifier) == ("D4", "direct", [])
    assert task.difficulty is not None and task.difficulty.level == 3
    world = World.from_dict(task.world)
    prices = {e: world.entities[e]["price"] for e in (task.target, *task.hard_negatives)}
    assert task.answer == f"{prices[task.target]:.2f}"
    assert not any(matches(task.answer, f"{prices[n]:.2f}") for n in task.hard_negatives
                   if prices[n] != prices[task.target])
    (oracle,) = run_tasks([task], tmp_path / "o", RunConfig(agent="oracle"))
    assert oracle.success and oracle.final_answer == task.answer
