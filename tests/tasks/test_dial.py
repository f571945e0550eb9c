"""The difficulty dial: `webmdp tasks generate --level/--dims/--domain` finds tasks whose
measured vector meets the request, names them SITE_L<level>_NNNN, and every entry point
rebuilds them from the name alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from webmdp.cli.main import app
from webmdp.env.registry import make
from webmdp.errors import ConfigError
from webmdp.sites import get_site
from webmdp.tasks import dial
from webmdp.tasks.dial import DIAL_ID, Request, parse_dims, resolve, search
from webmdp.tasks.difficulty import measure
from webmdp.tasks.domains import DOMAINS, SITE_DOMAIN, check_domain, domain_of
from webmdp.tasks.io import read_tasks
from webmdp.tasks.replay import replay
from webmdp.tasks.verifier import verify

runner = CliRunner()


def test_generate_by_level_and_dims_meets_the_request(tmp_path: Path) -> None:
    out = tmp_path / "l3.jsonl"
    res = runner.invoke(app, ["tasks", "generate", "--site", "shopping", "--level", "3",
                              "--dims", "depth=3", "--limit", "3", "--out", str(out)])
    assert res.exit_code == 0, res.output
    tasks = read_tasks(out)
    assert len(tasks) == 3
    for t in tasks:
        assert DIAL_ID.match(t.id) and t.id.startswith("shopping_L3_")
        d = measure(t.model_copy(update={"difficulty": None}))  # measured, not declared
        assert d == t.difficulty and d.level == 3 and d.of("depth") == 3
        # the name alone rebuilds the same task, byte for byte
        assert resolve(t.id).model_dump_json() == t.model_dump_json()
        shown = runner.invoke(app, ["tasks", "show", t.id, "--world"])
        assert shown.exit_code == 0 and json.loads(shown.stdout) == t.model_dump(mode="json")
        # the env registry (webmdp.make) resolves it too, and its oracle solves it
        env = make("shopping-v1", task_id=t.id)
        assert env.task == t
        final = replay(get_site("shopping"), env.world, t.oracle_actions()).final
        assert all(verify(t.verifier, get_site("shopping").facts(final)).values())


def test_domain_filter_and_level_across_sites() -> None:
    found, _ = search(Request(level=2, domain="D3"), ["mail", "chat", "shopping"], 4)
    assert len(found) == 4
    assert all(domain_of(t.site, t.template) == "D3" == t.domain for t in found)
    assert all(t.difficulty is not None and t.difficulty.level == 2 for t in found)
    assert {t.site for t in found} <= {"mail", "chat"}


def test_an_impossible_request_lists_the_nearest_vectors(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dial, "SCAN", 40)  # a shorter stream: the same verdict, sooner
    res = runner.invoke(app, ["tasks", "generate", "--site", "qa", "--dims", "visual=3",
                              "--out", str(tmp_path / "x.jsonl")])
    assert res.exit_code == 2
    assert "no task of qa meets visual=3" in res.output
    assert "nearest vectors" in res.output and "qa_L" in res.output
    assert not (tmp_path / "x.jsonl").exists()


@pytest.mark.parametrize(("args", "needle"), [
    (("--dims", "depht=3"), "unknown dimension 'depht'"),
    (("--dims", "depth=4"), "give NAME=LEVEL with LEVEL 1, 2 or 3"),
    (("--domain", "D9"), "unknown domain 'D9'; valid choices: D1, D2"),
    (("--level", "4"), "--level must be between 1 and 3"),
    (("--level", "2", "--template", "find_product_extract"), "--template does not combine"),
])
def test_bad_dial_requests(args: tuple[str, ...], needle: str, tmp_path: Path) -> None:
    res = runner.invoke(app, ["tasks", "generate", "--site", "shopping", *args, "--out",
                              str(tmp_path / "x.jsonl")])
    assert res.exit_code == 2 and needle in res.output, res.output


def test_dims_and_domains_parse() -> None:
    assert parse_dims("depth=3, risk=2") == {"depth": 3, "risk": 2}
    with pytest.raises(ConfigError):
        parse_dims("depth")
    assert check_domain("d4") == "D4" == check_domain("Info Retrieval/Analysis")
    assert set(SITE_DOMAIN.values()) <= set(DOMAINS)


def test_run_resolves_a_dial_name(tmp_path: Path) -> None:
    out = tmp_path / "run"
    res = runner.invoke(app, ["run", "--task", "food_L2_0000", "--agent", "oracle", "--out",
                              str(out)])
    assert res.exit_code == 0, res.output
    rows = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    assert [(r["task_id"], r["success"]) for r in rows] == [("food_L2_0000", True)]
