"""Team Chat world generation (WebSTEP E.2): channel messages ``MSG-###`` with their threads.

A message's card shows who posted what, where and when, its reply count and its reactions;
its thread (replies, who replied, who reacted, files shared, time of the last reply) shows
only in the thread pane. Templates steer a pinned message's thread with knobs that never
reach the world: ``keyword`` (a reply mentions it), ``file`` (a reply shares it), ``replier``
/ ``reactor`` (that member replied / reacted), ``not_people`` (members kept out of the thread
and the reactions).
"""

from __future__ import annotations

import random

from webmdp.core.model import Entity, World, WorldSpec
from webmdp.sites._common.worldgen import assemble, fillers
from webmdp.sites.chat import vocab as V

CARD_FIELDS: tuple[str, ...] = ("author", "channel", "text", "posted", "reply_count",
                                "reactions")
DETAIL_FIELDS: tuple[str, ...] = ("replies", "repliers", "reactors", "thread_files",
                                  "last_reply")
KNOBS = ("keyword", "file", "replier", "reactor", "not_people")
FILLERS_PER_CHANNEL = {c: (26 if c == V.BUSY_CHANNEL else 8) for c in V.CHANNELS}
WORKDAY = 11 * 60
WEEK = 5 * WORKDAY
"""Working minutes in the week: Monday to Friday, 8:00 to 19:00. Times are drawn as working
minutes and stored as minutes since Monday 0:00 (:func:`clock`), so nobody posts at night."""


def clock(work_minute: int) -> int:
    """Minutes since Monday 0:00 of the ``work_minute``-th working minute of the week."""
    day, m = divmod(work_minute, WORKDAY)
    return day * 1440 + 8 * 60 + m


def work_minute(minutes: int) -> int:
    """Inverse of :func:`clock` for times inside working hours."""
    day, m = divmod(minutes, 1440)
    return day * WORKDAY + min(max(m - 8 * 60, 0), WORKDAY - 1)


def generate_world(spec: WorldSpec, rng: random.Random) -> World:
    """Pinned messages, then each channel's fillers (avoiding the task's constraints), shuffled
    and numbered so an id never reveals the target."""
    messages = [complete_message(dict(p), rng) for p in spec.pinned]
    for channel in V.CHANNELS:  # a sparse world (the dial's look-ups) has no history
        messages += fillers(rng, 0 if spec.sparse else FILLERS_PER_CHANNEL[channel],
                            complete_message, spec.avoid, base={"channel": channel})
    done = WorldSpec(tuple(messages), 0, ())
    return assemble("chat", done, rng, prefix="MSG", complete=lambda p, _r: p,
                    meta={"today": V.TODAY, "me": V.ME})


def complete_message(p: Entity, rng: random.Random) -> Entity:
    """Fill a message's missing attributes; a completed message passes through unchanged."""
    if "replies" in p:
        return p
    author = p.get("author") or rng.choice((*V.MEMBERS, V.ME))
    posted = p.get("posted") or clock(rng.randrange(0, WEEK - 240))
    keep_out = {author, *p.get("not_people", ())}
    n = p["reply_count"] if "reply_count" in p else rng.choice((0, 0, 0, 1, 2, 3, 4))
    replies = _replies(p, rng, n, posted, keep_out)
    reactors = _reactors(p, rng, keep_out)
    out = {
        "author": author, "channel": p.get("channel") or rng.choice(V.CHANNELS),
        "text": p.get("text") or rng.choice(V.FILLER_TEXTS), "posted": posted,
        "reply_count": len(replies), "replies": replies,
        "repliers": list(dict.fromkeys(r[0] for r in replies)),
        "reactions": [[e, len(names)] for e, names in reactors], "reactors": reactors,
        "thread_files": [f for f in ([p.get("file")] if p.get("file") else [])],
        "last_reply": max((r[2] for r in replies), default=0),
        "pinned": bool(p.get("pinned", rng.random() < 0.08)),
    }
    return {**{k: v for k, v in p.items() if k not in KNOBS}, **out}


def _replies(p: Entity, rng: random.Random, n: int, posted: int,
             keep_out: set[str]) -> list[list]:
    pool = [m for m in (*V.MEMBERS, V.ME) if m not in keep_out]
    authors = [rng.choice(pool) for _ in range(n)]
    texts = [rng.choice(V.GENERIC_REPLIES) for _ in range(n)]
    special = rng.sample(range(n), min(n, 3))
    if p.get("replier") and n:
        authors[special[0]] = p["replier"]
    if p.get("keyword") and n:
        texts[special[-1]] = rng.choice(V.KEYWORD_REPLIES).format(kw=p["keyword"])
    if p.get("file") and n:
        texts[special[len(special) // 2]] = f"Attached {p['file']}, have a look."
    lo = work_minute(posted) + 2
    last = p.get("last_reply") or clock(rng.randint(lo + 5 * n + 5, WEEK - 1))
    early = rng.sample(range(lo, work_minute(last)), max(0, n - 1))
    times = [*sorted(clock(t) for t in early), last] if n else []
    return [[a, t, when] for a, t, when in zip(authors, texts, times, strict=True)]


def _reactors(p: Entity, rng: random.Random, keep_out: set[str]) -> list[list]:
    pool = [m for m in (*V.MEMBERS, V.ME) if m not in keep_out and m != V.ME]
    emoji = rng.sample(V.EMOJI_NAMES, rng.choice((0, 1, 1, 2, 3)))
    out = [[e, sorted(rng.sample(pool, rng.randint(1, 3)), key=pool.index)] for e in emoji]
    if p.get("reactor"):
        if not out:
            out = [[rng.choice(V.EMOJI_NAMES), []]]
        if p["reactor"] not in out[0][1]:
            out[0][1] = [*out[0][1], p["reactor"]]
    return out


def when(minutes: int) -> str:
    """'Tue 10:42 AM' for minutes since Monday 0:00."""
    day, rest = divmod(minutes, 1440)
    h, m = divmod(rest, 60)
    return f"{V.DAYS[day]} {(h - 1) % 12 + 1}:{m:02d} {'AM' if h < 12 else 'PM'}"
