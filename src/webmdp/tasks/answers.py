"""Final answers compared after normalisation (WebForge's Direct and Mixed answer types).

An agent may write ``$1,234.50``, ``1234.5 USD`` or ``1,234.50`` for the same number, and
``May 16, 2026``, ``2026-05-16`` or ``05/16/2026`` for the same date; case, spaces and
punctuation around words do not matter either. :func:`normalise` maps each to one form, and
:func:`matches` says whether a given answer states the expected one.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from functools import lru_cache

_NUMBER = re.compile(r"^[-+]?[$€£]?\s*[-+]?\d[\d,]*(\.\d+)?\s*(%|[a-z$€£]{0,3})?$")
_DATE_FORMATS = ("%Y-%m-%d", "%m/%d/%Y", "%d.%m.%Y", "%B %d, %Y", "%b %d, %Y", "%B %d %Y",
                 "%b %d %Y", "%d %B %Y", "%d %b %Y")


@lru_cache(maxsize=65536)
def _as_date(text: str) -> date | None:
    if not any(ch.isdigit() for ch in text) or len(text) > 40:  # no date format fits
        return None
    cleaned = re.sub(r"(\d)(st|nd|rd|th)\b", r"\1", text.strip())
    for fmt in _DATE_FORMATS:
        try:
            return datetime.strptime(cleaned, fmt).date()
        except ValueError:
            continue
    return None


@lru_cache(maxsize=65536)
def _as_number(text: str) -> float | None:
    t = text.strip().lower()
    if not _NUMBER.match(t):
        return None
    digits = re.sub(r"[^\d.\-+]", "", t)
    try:
        return float(digits)
    except ValueError:
        return None


def normalise(value: object) -> str:
    """One canonical string: a number as its shortest decimal, a date as ISO, anything else
    lower case with runs of spaces and surrounding punctuation removed."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (int, float)):
        return _number(float(value))
    text = str(value).strip()
    found = _as_date(text)
    if found is not None:
        return found.isoformat()
    number = _as_number(text)
    if number is not None:
        return _number(number)
    words = re.sub(r"\s+", " ", text.lower())
    return words.strip(" .,;:!?\"'")


def _number(x: float) -> str:
    return str(int(x)) if x == int(x) else repr(round(x, 6))


def matches(expected: object, given: str | None) -> bool:
    """Whether ``given`` states ``expected``: equal after :func:`normalise`, or (for a
    sentence) one of its comma- or semicolon-separated parts is."""
    if given is None:
        return False
    want = normalise(expected)
    if normalise(given) == want:
        return True
    return any(normalise(part) == want for part in re.split(r"[;\n]|, (?=\D)", given))


_NUMBER_IN_TEXT = re.compile(r"[$€£]?\d[\d,]*(?:\.\d+)?(?:\s*[kK%])?")
_DATE_IN_TEXT = re.compile(
    r"\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}/\d{4}|"
    r"(?:January|February|March|April|May|June|July|August|September|October|November|"
    r"December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\.? \d{1,2}(?:st|nd|rd|th)?,? \d{4}",
    re.IGNORECASE)


def mentions(expected: object, text: object) -> bool:
    """Whether ``text`` (a message an agent wrote, or a list of them: any one) states
    ``expected`` somewhere in it: a number as any number written in the text (``$1,234.50``,
    ``1234.5``), a date as any date in it, anything else as a normalised substring."""
    if isinstance(text, list | tuple):
        return any(mentions(expected, t) for t in text)
    if text is None:
        return False
    hay = str(text)
    want = normalise(expected)
    if _as_date(str(expected)) is not None:
        return any(normalise(d) == want for d in _DATE_IN_TEXT.findall(hay))
    if isinstance(expected, int | float) or _as_number(str(expected)) is not None:
        return any(normalise(n.replace(" ", "")) == want for n in _NUMBER_IN_TEXT.findall(hay))
    return want in normalise(hay)
