"""Mail world generation: email threads completed from partial specs (WebSTEP E.2)."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from functools import cache

from webmdp.core.model import Entity, World, WorldSpec
from webmdp.sites._common.worldgen import assemble
from webmdp.sites.mail import catalog as C

CARD_FIELDS = ("from_name", "subject", "snippet", "date", "starred", "read", "labels",
               "has_attachment", "message_count", "folder")
DETAIL_FIELDS = ("body", "from_email", "to", "cc", "attachments", "full_date", "messages",
                 "signature", "reply_to")
NOW = datetime(2024, 3, 15, 16, 45)
"""The mailbox's 'now': list dates are shown relative to it, like a real client."""
MAX_AGE = 60 * 24 * 45
EARLY_OPENINGS = ("Adding a few thoughts before we decide.", "Picking this back up from last week.",
                  "Replying with my take on the options.", "Circling back on the open question.")
_FOLDER_POOL = ("inbox",) * 63 + ("archive",) * 16 + ("sent",) * 9 + ("spam",) * 3 + ("trash",) * 9
_SUBJECTS = tuple(C.SUBJECTS)
_PERSON_INDEX = {n: i for i, n in enumerate(C.PEOPLE)}


@cache
def email_of(name: str) -> str:
    """A person's stable address: their company domain follows from the name."""
    first, last = name.lower().split()[:2]
    idx = _PERSON_INDEX.get(name, len(name))
    return f"{first}.{last}@{C.COMPANIES[idx % len(C.COMPANIES)][1]}"


def company_of(name: str) -> str:
    """The company in a person's signature (matches their email domain)."""
    return C.COMPANIES[_PERSON_INDEX.get(name, len(name)) % len(C.COMPANIES)][0]


def address(name: str) -> str:
    """Display form ``Name <email>`` used in to / cc lists."""
    return f"{name} <{email_of(name)}>"


def _clock(dt: datetime) -> str:
    hour = dt.hour % 12 or 12
    return f"{hour}:{dt.minute:02d} {'AM' if dt.hour < 12 else 'PM'}"


@cache
def short_date(age: int) -> str:
    """List date: the time for today's mail, else month and day."""
    dt = NOW - timedelta(minutes=age)
    return _clock(dt) if dt.date() == NOW.date() else f"{dt:%b} {dt.day}"


@cache
def full_date(age: int) -> str:
    """Header date, e.g. ``Thu, Mar 14, 2024, 9:32 AM``."""
    dt = NOW - timedelta(minutes=age)
    return f"{dt:%a}, {dt:%b} {dt.day}, {dt.year}, {_clock(dt)}"


def make_message(name: str, age: int, preview: str, extra: str) -> dict:
    """An earlier message of a thread; collapsed it shows only ``preview``."""
    email = C.USER_EMAIL if name == C.USER_NAME else email_of(name)
    return {"from_name": name, "from_email": email, "date": full_date(age), "preview": preview,
            "text": f"{preview} {extra}"}


def _earlier(rng: random.Random, p: Entity, sender: str, age: int) -> list[dict]:
    given = p.get("messages")
    n = p.get("n_earlier", rng.choice((0, 0, 1, 2))) if given is None else len(given)
    out = []
    for i in range(n):
        msg_age = age + (n - i) * rng.randint(90, 1400)
        if given is not None:
            g = given[i]
            out.append(make_message(g["from_name"], msg_age, g["preview"], g["extra"]))
        else:
            who = rng.choice((C.USER_NAME, sender, rng.choice(C.PEOPLE)))
            out.append(make_message(who, msg_age, rng.choice(EARLY_OPENINGS),
                                    rng.choice(C.FILLER_LINES)))
    return out


def _people(rng: random.Random, k: int, exclude: tuple[str, ...]) -> list[str]:
    return [address(n) for n in rng.sample([n for n in C.PEOPLE if n not in exclude], k)]


def complete_thread(p: Entity, rng: random.Random) -> Entity:
    """Fill every attribute a thread lacks; given attributes are kept as they are."""
    folder = p.get("folder") or rng.choice(_FOLDER_POOL)
    sent = folder == "sent" and "from_name" not in p
    sender = C.USER_NAME if sent else p.get("from_name") or rng.choice(C.PEOPLE)
    subject = p.get("subject") or rng.choice(_SUBJECTS)
    opening = C.SUBJECTS[subject]
    first = sender.split()[0]
    age = p.get("age") or rng.randint(20, MAX_AGE)
    recipient = rng.choice([n for n in C.PEOPLE if n != sender])
    reader = recipient if sent else C.USER_NAME
    greeting = "Hi all," if p.get("to") else f"Hi {reader.split()[0]},"
    middle = p.get("middle") or rng.choice(C.FILLER_LINES)
    tail = rng.choice([x for x in C.FILLER_LINES if x != middle])
    body = f"{greeting}\n\n{opening} {middle} {tail}\n\n{rng.choice(C.CLOSINGS)}\n{first}"
    attachments = p["attachments"] if "attachments" in p else (
        rng.sample(C.ATTACHMENTS, rng.choice((1, 1, 2))) if rng.random() < 0.35 else [])
    to = p.get("to") or ([address(recipient)] if sent else [f"{C.USER_NAME} <{C.USER_EMAIL}>"])
    cc = p["cc"] if "cc" in p else _people(rng, rng.choice((0, 0, 1, 2)), (sender, recipient))
    messages = _earlier(rng, p, sender, age)
    from_email = C.USER_EMAIL if sent else email_of(sender)
    return {
        "role": p.get("role", ""),
        "from_name": sender,
        "subject": subject,
        "snippet": f"{greeting} {opening}",
        "date": short_date(age),
        "starred": p.get("starred", rng.random() < 0.15),
        "read": p.get("read", sent or rng.random() < 0.6),
        "labels": list(p.get("labels", rng.sample(C.LABELS, rng.choice((0, 0, 0, 1, 2))))),
        "has_attachment": bool(attachments),
        "message_count": len(messages) + 1,
        "folder": folder,
        "body": body,
        "from_email": from_email,
        "to": list(to),
        "cc": list(cc),
        "attachments": list(attachments),
        "full_date": full_date(age),
        "messages": messages,
        "signature": p.get("signature") or f"{sender}\n{rng.choice(C.TITLES)} | "
                                           f"{company_of(sender)}",
        "reply_to": p.get("reply_to") or from_email,
        "age": age,
    }


def generate_world(spec: WorldSpec, rng: random.Random) -> World:
    meta = {"user_name": C.USER_NAME, "user_email": C.USER_EMAIL, "now": NOW.isoformat()}
    return assemble("mail", spec, rng, prefix="THR", complete=complete_thread, meta=meta)
