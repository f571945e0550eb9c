"""Prompts the paradigms add to a grammar's own: the general plan (planning paper, App. B),
the per-turn plan reminder (App. A, rule 7), the value function and candidate proposals."""

from __future__ import annotations

import re

PLAN_SYSTEM = (
    "You are an intelligent agent that solves tasks on the web. Your job now is to create a "
    "GENERAL PLAN before taking any actions. You get: (1) the user's objective, (2) the current "
    "page (its accessibility tree, text observation or screenshot), (3) the page's URL.\n"
    "Guidelines for the general plan: (1) include short reasoning for each step; (2) say which "
    "kind of action each step takes (click, type, scroll, open, search, ...); (3) consider the "
    "page structure; (4) write the plan as a numbered sequence.\nReturn ONLY the general plan.")

REPLAN_NOTE = ("The previous plan no longer matches the page. Reason: {reason}\n"
               "Write a new GENERAL PLAN from the current page, as a numbered sequence.")

PLAN_TURN = (
    "GENERAL PLAN:\n{plan}\n\nFollow the general plan, but adapt to what you observe. Start "
    "your reply with a line 'Plan step: N' naming the plan step this action carries out. If "
    "the page is not in the state the plan expects and the plan cannot work, reply only with a "
    "line 'Replan: <why>' instead of an action.")

VALUE_SYSTEM = (
    "You judge progress of a web agent. Given the task and the current page, estimate how "
    "likely it is that the task is already completed or will be completed from this state "
    "without undoing anything. Reply with one line 'Value: X' where X is a number between 0 "
    "(hopeless or not started) and 1 (the task is complete).")

PROPOSE_JSON = (
    "Propose up to {n} different candidate next actions, best first. Reply with one JSON "
    "object: {{\"thought\": \"...\", \"candidates\": [<action>, <action>, ...]}} where each "
    "<action> has the same form as the \"action\" of a normal reply.")

_NUMBERED = re.compile(r"^\s*(?:step\s*)?(\d+)\s*[.):-]\s*(.+)$", re.IGNORECASE)
_PLAN_STEP = re.compile(r"plan step\s*[:#]?\s*(\d+)", re.IGNORECASE)
_REPLAN = re.compile(r"(?im)^\W*replan\s*:\s*(.*)$")
_VALUE = re.compile(r"value\s*[:=]\s*([01](?:\.\d+)?|\.\d+)", re.IGNORECASE)


def parse_plan(text: str) -> list[str]:
    """The numbered steps of a plan (unnumbered non-empty lines when none are numbered)."""
    steps = [m.group(2).strip() for line in text.splitlines() if (m := _NUMBERED.match(line))]
    return steps or [line.strip() for line in text.splitlines() if line.strip()]


def format_plan(steps: list[str]) -> str:
    return "\n".join(f"{i}. {s}" for i, s in enumerate(steps, 1))


def stated_plan_step(raw: str) -> int | None:
    m = _PLAN_STEP.search(raw)
    return int(m.group(1)) if m else None


def replan_reason(raw: str) -> str | None:
    m = _REPLAN.search(raw)
    return (m.group(1).strip() or "the model asked to replan") if m else None


def strip_plan_lines(raw: str) -> str:
    """The raw output without 'Plan step:' / 'Replan:' lines, for the grammar's parser."""
    return "\n".join(line for line in raw.splitlines()
                     if not _PLAN_STEP.match(line.strip()) and not _REPLAN.match(line))


def parse_value(text: str) -> float | None:
    """The value in [0, 1] a model stated ('Value: 0.7'), or None."""
    m = _VALUE.search(text)
    if not m:
        return None
    return min(1.0, max(0.0, float(m.group(1))))
