"""Dates and times as the calendar stores them (ISO dates, 24-hour ``HH:MM``) and as it shows
them (``Tue, Mar 10``, ``2:30 PM``). Nothing reads the wall clock: "today" is world data."""

from __future__ import annotations

import re
from datetime import date, timedelta
from functools import lru_cache

WEEKDAYS = ("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")
_TIME = re.compile(r"^\s*(\d{1,2})(?::(\d{2}))?\s*([ap]\.?m\.?)?\s*$", re.I)


def day(iso: str) -> date:
    return date.fromisoformat(iso)


def shift(iso: str, days: int) -> str:
    return (day(iso) + timedelta(days=days)).isoformat()


def week_start(iso: str) -> str:
    """The Sunday starting the week of ``iso`` (weeks start on Sunday, as in the US app)."""
    d = day(iso)
    return (d - timedelta(days=(d.weekday() + 1) % 7)).isoformat()


def week_days(iso: str) -> list[str]:
    return list(_week_days(iso))


@lru_cache(maxsize=4096)
def _week_days(iso: str) -> tuple[str, ...]:
    first = week_start(iso)
    return tuple(shift(first, i) for i in range(7))


def month_grid(iso: str) -> list[list[str]]:
    """The month view's weeks: Sunday-first rows covering the whole month of ``iso``."""
    return [list(row) for row in _month_grid(iso)]


@lru_cache(maxsize=4096)
def _month_grid(iso: str) -> tuple[tuple[str, ...], ...]:
    d = day(iso)
    first = d.replace(day=1)
    cur = week_start(first.isoformat())
    rows: list[tuple[str, ...]] = []
    while not rows or day(cur).month == d.month:
        rows.append(tuple(shift(cur, i) for i in range(7)))
        cur = shift(cur, 7)
    return tuple(rows)


def add_months(iso: str, n: int) -> str:
    d = day(iso)
    m = d.month - 1 + n
    y, m = d.year + m // 12, m % 12 + 1
    return date(y, m, 1).isoformat()


def minutes(hhmm: str) -> int:
    h, m = hhmm.split(":")
    return int(h) * 60 + int(m)


def hhmm(total: int) -> str:
    return f"{total // 60:02d}:{total % 60:02d}"


def parse_time(text: str) -> str | None:
    """``14:30``, ``2:30 PM``, ``2pm`` -> ``14:30``; None when it is not a time of day."""
    return _parse_time(str(text))


@lru_cache(maxsize=4096)
def _parse_time(text: str) -> str | None:
    m = _TIME.match(text)
    if not m:
        return None
    h, mins, ampm = int(m.group(1)), int(m.group(2) or 0), (m.group(3) or "").lower()
    if ampm:
        if not 1 <= h <= 12:
            return None
        h = h % 12 + (12 if ampm.startswith("p") else 0)
    if h > 23 or mins > 59:
        return None
    return hhmm(h * 60 + mins)


def parse_date(text: str) -> str | None:
    return _parse_date(str(text))


@lru_cache(maxsize=4096)
def _parse_date(text: str) -> str | None:
    try:
        return date.fromisoformat(text.strip()).isoformat()
    except ValueError:
        return None


def clock(hhmm_text: str) -> str:
    """``14:30`` -> ``2:30 PM``."""
    t = minutes(hhmm_text)
    h, m = divmod(t, 60)
    return f"{(h - 1) % 12 + 1}:{m:02d} {'AM' if h < 12 else 'PM'}"


def long_day(iso: str) -> str:
    """``2026-03-10`` -> ``Tuesday, March 10``."""
    d = day(iso)
    return f"{WEEKDAYS[(d.weekday() + 1) % 7]}, {d.strftime('%B')} {d.day}"


def overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]
