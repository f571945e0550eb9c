"""The price breakdown of a stay ("Confirm and pay"): nights x nightly price, cleaning and
service fees. Dates are fixed ISO strings; nothing reads a clock."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from webmdp.core.model import Entity
from webmdp.sites.accommodation.catalog import SERVICE_RATE, YEAR

_ISO = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def parse_day(text: str) -> date | None:
    """A YYYY-MM-DD date in the bookable year, else None."""
    if not _ISO.match(text):
        return None
    try:
        day = date.fromisoformat(text)
    except ValueError:
        return None
    return day if day.year == YEAR else None


def nights(check_in: str, check_out: str) -> int:
    a, b = parse_day(check_in), parse_day(check_out)
    return (b - a).days if a and b else 0


def cleaning_fee(listing: Entity) -> int:
    return max(25, 5 * round(listing["price_per_night"] * 0.3 / 5))


def quote(listing: Entity, check_in: str, check_out: str) -> dict[str, Any]:
    n = nights(check_in, check_out)
    stay = listing["price_per_night"] * n
    clean = cleaning_fee(listing)
    service = round((stay + clean) * SERVICE_RATE)
    return {"nights": n, "nightly": listing["price_per_night"], "stay": stay,
            "cleaning_fee": clean, "service_fee": service, "total": stay + clean + service}


def short_range(check_in: str, check_out: str) -> str:
    """'Apr 15 - 19' or 'Apr 29 - May 2' (how a trip card names its dates)."""
    a, b = parse_day(check_in), parse_day(check_out)
    if not (a and b):
        return f"{check_in} - {check_out}"
    end = str(b.day) if a.month == b.month else f"{_MONTHS[b.month - 1]} {b.day}"
    return f"{_MONTHS[a.month - 1]} {a.day} \u2013 {end}"
