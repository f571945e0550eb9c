"""`webmdp validate` levels 1-3 on a spread sample of each site's tasks (every task: slow)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import psutil
import pytest

from support import site_tasks
from webmdp.runner.validate import _OCCLUSION_JS, validate_site, validate_sites
from webmdp.sites import site_names

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("site", site_names())
def test_validate_sample(site: str) -> None:
    # 2 per site, of two templates; `make test-slow` replays every oracle. The site-wide
    # conformance checker (level 1's other half) runs in tests/core/test_core_spec.
    tasks = site_tasks(site)[::90]
    rep = validate_site(site, tasks, conformance=False)
    assert rep.ok, (rep.level1, rep.level2[:5], rep.level3[:5])
    assert rep.tasks == 2 and rep.pages_checked >= 2 * 3


@pytest.mark.slow
@pytest.mark.parametrize("site", site_names())
def test_validate_every_oracle(site: str) -> None:
    rep = validate_site(site, site_tasks(site))
    assert rep.ok, (rep.level1, rep.level2[:5], rep.level3[:5])


def test_parallel_validation_equals_the_sequential_one() -> None:
    """Chunks in worker processes give the per-site reports one process gives, problems
    included: a task whose verifier wants a value the oracle never sets fails level 3."""
    tasks = [*site_tasks("mail")[:2], *site_tasks("food")[:1]]
    bad = tasks[1].model_copy(deep=True)
    bad.verifier[0] = bad.verifier[0].model_copy(update={"value": "never-set"})
    tasks[1] = bad
    progress: list[int] = []
    parallel = validate_sites(tasks, 2, on_tasks=progress.append)
    sequential = validate_sites(tasks, 1)
    assert [r.site for r in parallel] == ["food", "mail"] and sum(progress) == len(tasks)
    for par, seq in zip(parallel, sequential, strict=True):
        assert (par.tasks, par.pages_checked, par.level1, par.level2) == (
            seq.tasks, seq.pages_checked, seq.level1, seq.level2)
        assert sorted(par.level3) == sorted(seq.level3)
    mail = parallel[1]
    assert [p.split(":")[0] for p in mail.level3] == [bad.id] and not mail.ok
    assert parallel[0].ok


def test_the_occlusion_check_names_the_cover_and_ignores_the_screen_edge(host) -> None:  # type: ignore[no-untyped-def]
    page = host.browser.new_page(viewport={"width": 1440, "height": 900})
    try:
        page.set_content("""<body style="margin:0"><div id="app">
          <button data-action="a" data-params="{}" data-testid="Covered"
                  style="position:absolute;top:100px;left:100px">covered</button>
          <div data-testid="Banner" style="position:absolute;top:90px;left:90px;width:300px;
               height:60px;background:#fff"></div>
          <button data-action="b" data-params="{}" data-testid="Free"
                  style="position:absolute;top:300px;left:100px">free</button>
          <button data-action="c" data-params="{}" data-testid="AtTheEdge"
                  style="position:absolute;top:889px;left:100px;height:21px">edge</button>
        </div></body>""")
        res = page.evaluate(_OCCLUSION_JS)
    finally:
        page.close()
    assert res["occluded"] == [["Covered", "Banner"]]  # half off screen: an agent scrolls first


def _name(p: psutil.Process) -> str:
    """A process's name, lower case; "" for one that ended while the tree was read."""
    try:
        return p.name().lower()
    except (psutil.Error, OSError):
        return ""


def test_a_terminated_parallel_validation_leaves_no_process_behind(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """SIGTERM to `webmdp validate --workers 2` (a CI timeout, `kill`) stops its workers, and
    with them their servers, drivers and Chromiums."""
    proc = subprocess.Popen(
        [sys.executable, "-c", "from webmdp.cli.main import app; app()", "validate", "--site",
         "mail", "--workers", "2"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={**os.environ})
    me = psutil.Process(proc.pid)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:  # until both workers have a browser
            names = [_name(p) for p in me.children(recursive=True)]
            if sum("chrom" in n or "headless" in n for n in names) >= 2 and proc.poll() is None:
                break
            time.sleep(0.5)
        else:
            raise AssertionError("the workers never started a browser")
        tree = me.children(recursive=True)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) != 0
        _, alive = psutil.wait_procs(tree, timeout=30)
        assert not [p for p in alive if p.status() != psutil.STATUS_ZOMBIE], alive
    finally:
        if proc.poll() is None:
            proc.kill()
