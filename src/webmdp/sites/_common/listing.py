"""Paging shared by list surfaces."""

from __future__ import annotations

from collections.abc import Sequence


def page_count(n: int, size: int) -> int:
    return max(1, -(-n // size))


def page_slice(ids: Sequence[str], page: int, size: int) -> Sequence[str]:
    start = (page - 1) * size
    return ids[start : start + size]
