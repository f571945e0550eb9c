"""CAP's Appendix B taxonomy as data: counts, ids, categories."""

from __future__ import annotations

from collections import Counter

import pytest

from webmdp.cap import (
    ACTION_CATEGORIES,
    ACTION_TYPES,
    PERCEPTION_CATEGORIES,
    PERCEPTION_TYPES,
    action_type,
    perception_type,
)


def test_counts_and_unique_ids() -> None:
    assert len(ACTION_TYPES) == 64
    assert len(PERCEPTION_TYPES) == 56
    assert [t.id for t in ACTION_TYPES] == [f"AT{i:02d}" for i in range(1, 65)]
    assert [t.id for t in PERCEPTION_TYPES] == [f"PT{i:02d}" for i in range(1, 57)]


def test_categories_as_in_the_paper() -> None:
    assert Counter(t.category for t in ACTION_TYPES) == {
        "Navigation": 9, "Data Entry": 15, "Data Display": 15, "Feedback": 3,
        "Data Visualization": 13, "Media": 2, "Editor": 7}
    assert Counter(t.category for t in PERCEPTION_TYPES) == {
        "Data Display": 26, "Data Visualization": 23, "Media": 3, "Editor": 4}
    assert set(ACTION_CATEGORIES) == {t.category for t in ACTION_TYPES}
    assert set(PERCEPTION_CATEGORIES) == {t.category for t in PERCEPTION_TYPES}


def test_lookups() -> None:
    assert (action_type("AT21").component, action_type("AT21").name) == ("Slider",
                                                                          "Range Selection")
    assert perception_type("PT28").name == "Trend Identification"
    assert action_type("AT42").category == "Feedback"
    with pytest.raises(KeyError):
        action_type("AT65")
    with pytest.raises(KeyError):
        perception_type("AT01")
