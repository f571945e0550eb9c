"""Fixtures: the Shopping task and five hand-built episodes (see eval_builders)."""

from __future__ import annotations

import pytest
from eval_builders import H1, H2, T, steps, tr, trace

from webmdp.sites import get_site
from webmdp.tasks import Task, make_task
from webmdp.tasks.model import InfoConstraint
from webmdp.trace import EpisodeTrace


@pytest.fixture(scope="session")
def task() -> Task:
    t = make_task(get_site("shopping"), 0, "find_product_extract", 2)
    assert (t.target, t.hard_negatives) == (T, [H1, H2])
    assert [(c.entity, c.field) for c in t.info_constraints] == [
        (T, "category"), (T, "department"), (T, "material")]
    # the hand-built episodes' coverage is computed over a set that also names the hard
    # negatives' deciding field (as a user's task file may): coverage counts any constraint
    return t.model_copy(update={"info_constraints": [*t.info_constraints, *(
        InfoConstraint(entity=h, field="material", level="detail", description="")
        for h in (H1, H2))]})


@pytest.fixture
def good() -> EpisodeTrace:
    """Browser mode: search, open H1, back, open T, add to cart; two GUI steps without a
    transition. COV: .4 .6 .6 .8 .8; success."""
    return trace("a", "browser", steps(
        None,
        tr("Search", "SearchResults", revealed=((T, "category"), (T, "department"), (H1, "title"))),
        None,
        tr("OpenProduct", "ProductDetail", H1, revealed=((H1, "material"),)),
        tr("BackToResults", "SearchResults"),
        tr("OpenProduct", "ProductDetail", T, revealed=((T, "material"),)),
        tr("AddToCart", "ProductDetail", T),
    ), success=True)


@pytest.fixture
def premature() -> EpisodeTrace:
    """Adds H1 to the cart, then looks at T. COV: .4 .6 .6 .6 .8; failure."""
    return trace("a", "semantic", steps(
        tr("Search", "SearchResults", revealed=((T, "category"), (T, "department"))),
        tr("OpenProduct", "ProductDetail", H1, revealed=((H1, "material"),)),
        tr("AddToCart", "ProductDetail", H1),
        tr("BackToResults", "SearchResults"),
        tr("OpenProduct", "ProductDetail", T, revealed=((T, "material"),)),
    ), success=False)


@pytest.fixture
def safe() -> EpisodeTrace:
    """Never commits; ends on T's page having seen all of T's constraints. COV: .4 .6 .6."""
    return trace("b", "semantic", steps(
        tr("Search", "SearchResults", revealed=((T, "category"), (T, "department"))),
        tr("OpenProduct", "ProductDetail", T, revealed=((T, "material"),)),
        tr("ShowReviews", "ProductDetail", T, revealed=((T, "reviews"),)),
    ), success=False, termination="budget", truncated=True)


@pytest.fixture
def rejected() -> EpisodeTrace:
    """A rejected AddToCart, an unparseable step, a no-op search, then H2. COV: .2 .2 .4."""
    return trace("b", "semantic", steps(
        tr("Search", "SearchResults", revealed=((T, "category"),)),
        tr("AddToCart", "SearchResults", changed=False, error="AddToCart: not on a product page"),
        "unparseable output",
        tr("Search", "SearchResults", changed=False),
        tr("OpenProduct", "ProductDetail", H2, revealed=((H2, "material"),)),
    ), success=False, termination="budget", truncated=True)


@pytest.fixture
def infra() -> EpisodeTrace:
    """Browser crash after one step: excluded from every aggregate."""
    return trace("b", "semantic", steps(
        tr("Search", "SearchResults", revealed=((T, "category"),)),
    ), success=False, termination="infra_error", infra_error="BrowserError: crashed")
