"""Coding Q&A world generation (WebSTEP E.2): questions ``QST-###`` (the decision object),
their answers ``ANS-###`` (each with a ``question_id``) and the users ``USR-###`` who wrote them.

A template pins questions (``answers`` may pin their answers as partial mappings); fillers
avoid the task's constraints. Derived fields (``answer_count``, ``accepted``, ``unanswered``,
``year``, ``author_id``) are computed from the rest so that filters agree with the pages.
"""

from __future__ import annotations

import random

from webmdp.core.model import Entity, World, WorldSpec
from webmdp.sites._common.worldgen import assemble
from webmdp.sites.qa import vocab as V

QUESTION_CARD: tuple[str, ...] = ("title", "tags", "votes", "answer_count", "accepted",
                                  "views", "asked")
"""A question summary on the list: title, tags, score, answers (green when accepted), views,
date asked (Table 4: 7 card fields)."""
QUESTION_DETAIL: tuple[str, ...] = ("body", "code", "error", "environment", "modified",
                                    "comments")
"""Only on the question page: the body, its code block, the error message, the environment
line, the last edit date and the comments (Table 4: 6 detail fields)."""
ANSWER_FIELDS: tuple[str, ...] = ("body", "votes", "accepted", "posted", "question_id")
USER_BRIEF: tuple[str, ...] = ("name", "reputation")
USER_PROFILE: tuple[str, ...] = ("name", "reputation", "location", "member_since", "badges",
                                 "about")
N_QUESTIONS = 30


def generate_world(spec: WorldSpec, rng: random.Random) -> World:
    """Users, then questions (pinned + fillers, shuffled, ids), then each one's answers."""
    names = [*V.USERS, V.ME]
    rng.shuffle(names)
    users = {f"USR-{i:03d}": complete_user(n, rng) for i, n in enumerate(names, start=1)}
    uid = {u["name"]: k for k, u in users.items()}
    qs = assemble("qa", spec, rng, prefix="QST", complete=complete_question)
    entities: dict[str, Entity] = {}
    answers: list[Entity] = []
    for qid, q in qs.entities.items():
        for a in q.pop("answer_list"):
            answers.append({**a, "question_id": qid, "author_id": uid[a["author"]]})
        entities[qid] = {**q, "author_id": uid[q["author"]]}
    for n, a in enumerate(answers, start=1):
        entities[f"ANS-{n:03d}"] = {"id": f"ANS-{n:03d}", **a}
    for k, u in users.items():
        entities[k] = {"id": k, **u}
    return World(site="qa", entities=entities)


def complete_user(name: str, rng: random.Random) -> Entity:
    rep = rng.choice((rng.randint(1, 900), rng.randint(900, 25000), rng.randint(25000, 240000)))
    return {"name": name, "reputation": rep, "location": rng.choice(V.LOCATIONS),
            "member_since": str(rng.randint(2012, 2022)),
            "badges": [rep // 40000, rep // 4000 + rng.randint(0, 5),
                       rep // 500 + rng.randint(1, 9)],
            "about": f"Software engineer. Mostly writing about {rng.choice(V.TAGS)}.",
            "me": name == V.ME}


def _date(year: str, rng: random.Random) -> str:
    return f"{year}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


def _later(date: str, rng: random.Random) -> str:
    y = int(date[:4]) + rng.randint(0, 1)
    return max(date, f"{min(y, 2025)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}")


def title_of(pattern: str, topic: str) -> str:
    return pattern.format(topic=topic, Topic=topic[0].upper() + topic[1:])


def complete_question(p: Entity, rng: random.Random) -> Entity:
    """Fill a question's missing attributes; the body quotes its error and names its phrase."""
    tag = p.get("tag") or rng.choice(V.TAGS)
    topic = p.get("topic") or rng.choice(V.TOPICS[tag])
    title = title_of(p.get("pattern") or rng.choice(V.TITLE_PATTERNS), topic)
    codes = dict(V.CODE[tag])
    token = p.get("token") or rng.choice(list(codes))
    code = codes[token]
    error = p.get("error") or rng.choice(V.ERRORS[tag])
    phrase = p.get("phrase") or rng.choice(V.PHRASES)
    year = p.get("year") or rng.choice(V.YEARS)
    asked = p.get("asked") or _date(year, rng)
    author = p.get("author") or rng.choice(V.USERS)
    answers = [complete_answer(a, author, asked, rng) for a in p["answers"]] \
        if "answers" in p else _answers(author, asked, rng)
    related = [t for t in V.RELATED[tag] if t != tag]
    out = {
        "title": title, "tag": tag, "topic": topic,
        "tags": list(p["tags"]) if "tags" in p else
        [tag, *rng.sample(related, rng.randint(1, 2))],
        "votes": p["votes"] if "votes" in p else rng.randint(-2, 48),
        "views": p.get("views") or rng.randint(18, 24000),
        "asked": asked, "year": asked[:4], "author": author,
        "body": (f"I'm working with {topic} and I keep running into a problem {phrase}. "
                 f"The code below fails with the error shown. What am I doing wrong?"),
        "phrase": phrase, "code": code, "token": token, "error": error,
        "environment": p.get("environment") or rng.choice(V.ENVIRONMENTS[tag]),
        "modified": p.get("modified") or _later(asked, rng),
        "comments": p["comments"] if "comments" in p else
        [[rng.choice(V.USERS), rng.choice(V.COMMENTS)] for _ in range(rng.randint(0, 2))],
        "popularity": p.get("popularity") or rng.randint(10, 990),
        "answer_list": answers, "answer_count": len(answers),
        "accepted": any(a["accepted"] for a in answers), "unanswered": not answers,
    }
    return {**{k: v for k, v in p.items() if k not in ("answers", "pattern")}, **out}


def _answers(author: str, asked: str, rng: random.Random) -> list[Entity]:
    n = rng.choice((0, 1, 1, 2, 2, 3, 4))
    out = [complete_answer({}, author, asked, rng) for _ in range(n)]
    if out and rng.random() < 0.5:
        out[rng.randrange(len(out))]["accepted"] = True
    return out


def complete_answer(p: Entity, asker: str, asked: str, rng: random.Random) -> Entity:
    author = p.get("author") or rng.choice([u for u in V.USERS if u != asker])
    return {"author": author,
            "votes": p["votes"] if "votes" in p else rng.randint(-1, 60),
            "body": p.get("body") or f"{rng.choice(V.ANSWER_OPENERS)} "
                                     f"{rng.choice(V.ANSWER_CLAIMS)}",
            "accepted": bool(p.get("accepted", False)),
            "posted": p.get("posted") or _later(asked, rng)}
