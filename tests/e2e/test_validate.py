"""`webmdp validate` levels 1-3 on a spread sample of each site's tasks (every task: slow)."""

from __future__ import annotations

import pytest

from support import site_tasks
from webmdp.runner.validate import validate_site
from webmdp.sites import site_names

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("site", site_names())
def test_validate_sample(site: str) -> None:
    tasks = site_tasks(site)[::15]
    rep = validate_site(site, tasks)
    assert rep.ok, (rep.level1, rep.level2[:5], rep.level3[:5])
    assert rep.tasks == 12 and rep.pages_checked >= 12 * 3


@pytest.mark.slow
@pytest.mark.parametrize("site", site_names())
def test_validate_every_oracle(site: str) -> None:
    rep = validate_site(site, site_tasks(site))
    assert rep.ok, (rep.level1, rep.level2[:5], rep.level3[:5])
