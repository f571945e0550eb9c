"""tests/train: end-to-end training runs (`make test-train`), left out of the default suite.

They need the extra ``webmdp[steprm-vlm]`` (torch, transformers, peft, tokenizers) and are
skipped without it. Marked ``train``; they run only when ``-m`` selects that marker
(``pytest -m train tests/train``), since the default ``-m 'not slow'`` would pick them up."""

from __future__ import annotations

import re

import pytest

_SELECTS_TRAIN = re.compile(r"(?<!not )\btrain\b")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "train: end-to-end model training (make test-train)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if _SELECTS_TRAIN.search(config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="training run: `make test-train` (pytest -m train tests/train)")
    for item in items:
        if item.get_closest_marker("train") is not None:
            item.add_marker(skip)
