"""Paging shared by list surfaces."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from webmdp.errors import require

S = TypeVar("S")


def page_count(n: int, size: int) -> int:
    return max(1, -(-n // size))


def page_slice(ids: Sequence[str], page: int, size: int) -> Sequence[str]:
    start = (page - 1) * size
    return ids[start : start + size]


def turn_page(s: S, name: str, params: dict[str, Any], pages: int) -> S:
    """``NextPage`` / ``PrevPage`` / ``GoToPage`` on a state with a ``page`` field."""
    page: int = s.page  # type: ignore[attr-defined]
    if name == "NextPage":
        require(page < pages, "NextPage: already on the last page")
        return s.replace(page=page + 1)  # type: ignore[attr-defined,no-any-return]
    if name == "PrevPage":
        require(page > 1, "PrevPage: already on the first page")
        return s.replace(page=page - 1)  # type: ignore[attr-defined,no-any-return]
    target = int(params["page"])
    require(1 <= target <= pages, f"GoToPage: page {target} of {pages}")
    return s.replace(page=target)  # type: ignore[attr-defined,no-any-return]
