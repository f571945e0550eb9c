"""Element-id grammar: BrowserGym high-level calls and WebArena bracket commands.

Two spellings of one action space over our accessibility tree (``[id] role "name"`` lines):
BrowserGym's Python calls (``click('12')``, ``fill('12', 'text')``, ``scroll(0, 200)``) and
WebArena's bracket commands (``click [12]``, ``type [12] [text] [1]``, ``scroll [down]``) as the
planning paper's agents write them: reasoning, then "In summary, the next action I will perform
is" and the action inside backticks. The last action expression is executed; an earlier one
that the thought states ("... I will click [12]") becomes ``Parsed.intent``, the planned action
that element accuracy (planning paper, Def. 4.5) compares with the executed one.
``click('12', button="right")`` is a ``right_click``, the kind every grammar emits for it.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from webmdp.agents.llm.grammars._text import closing_index
from webmdp.agents.llm.grammars.base import (
    Coords,
    ParseContext,
    Parsed,
    click_kind,
    invalid,
    system_prompt_for,
)
from webmdp.agents.llm.grammars.info import GrammarInfo
from webmdp.env.actions import SCROLL_STEP_PX, GUIAction, normalize_key
from webmdp.trace import Mode

_REQ = object()
SIGNATURES: dict[str, tuple[tuple[str, Any], ...]] = {
    "click": (("bid", _REQ), ("button", "left"), ("modifiers", ())),
    "dblclick": (("bid", _REQ), ("button", "left"), ("modifiers", ())),
    "fill": (("bid", _REQ), ("value", _REQ)),
    "clear": (("bid", _REQ),),
    "select_option": (("bid", _REQ), ("options", _REQ)),
    "hover": (("bid", _REQ),),
    "press": (("bid", _REQ), ("key_comb", _REQ)),
    "keyboard_press": (("key", _REQ),),
    "keyboard_type": (("text", _REQ),),
    "scroll": (("delta_x", _REQ), ("delta_y", _REQ)),
    "go_back": (),
    "go_forward": (),
    "send_msg_to_user": (("text", _REQ),),
    "report_infeasible": (("reason", _REQ),),
    "stop": (("answer", None),),
    "noop": (("wait_ms", 1000),),
}
"""BrowserGym high-level calls we execute, with their parameters and defaults."""

UNAVAILABLE = frozenset({
    "goto", "new_tab", "tab_close", "tab_focus", "close_tab", "page_focus", "page_close",
    "check", "uncheck", "focus", "drag_and_drop", "upload_file", "mouse_move", "mouse_click",
    "mouse_dblclick", "mouse_down", "mouse_up", "mouse_drag_and_drop", "mouse_upload_file",
    "keyboard_down", "keyboard_up", "keyboard_insert_text"})
"""Calls and commands of BrowserGym / WebArena that this single-tab, single-site benchmark does
not offer: recognised, so the model gets a precise reason instead of "unknown action"."""

BRACKET = ("click", "type", "select", "hover", "press", "scroll", "stop", "go_back",
           "go_forward")

_CALL_RE = re.compile(r"(?<![\w.])([a-z_]+)\s*\(")
_BRACKET_RE = re.compile(r"(?<![\w.])(click|hover|type|select|press|scroll|stop|goto|tab_focus)"
                         r"\s*\[", re.IGNORECASE)
_BARE_RE = re.compile(r"(?<![\w.])(go_back|go_forward|new_tab|close_tab)\b(?!\s*\()",
                      re.IGNORECASE)
_TAG_RE = re.compile(r"<action>(.*?)(?:</action>|\Z)", re.IGNORECASE | re.DOTALL)
_SUMMARY_RE = re.compile(r"(?:in summary,?\s*)?(?:the\s+)?next action I will perform is\s*:?",
                         re.IGNORECASE)
_QUOTED = [re.compile(p, re.DOTALL) for p in (
    r"\A\s*```[ \t]*(?:[A-Za-z]+[ \t]*\n)?(.*?)```", r"\A\s*``(.*?)''", r"\A\s*``(.*?)``",
    r"\A\s*`(.*?)`", r"\A\s*“(.*?)”", r"\A\s*\"(.*?)\"")]
_FENCE_RE = re.compile(r"```[ \t]*(?:[A-Za-z]+[ \t]*\n)?(.*?)```", re.DOTALL)
_LABEL_RE = re.compile(r"^[ \t]*\**action\**[ \t]*:[ \t]*(\S.*)$", re.IGNORECASE | re.MULTILINE)
_NOISE_RE = re.compile(r"</?(?:think|thought|action)>|\baction\s*:\s*$", re.IGNORECASE)

SYSTEM_PROMPT = """\
You are an autonomous agent that completes tasks on a website by issuing browser actions, one \
at a time.

Each turn you are given:
- OBJECTIVE: the task to complete.
- OBSERVATION: the page's accessibility tree, one element per line as [id] role "name". Use the \
number in brackets to act on an element.
- URL: the page you are on.
- PREVIOUS ACTION: the action you issued last, if any.

The actions you can issue:
Page operations
- click [id]: click the element with this id.
- type [id] [text] [press_enter_after]: click the field with this id and type the text. Enter \
is pressed afterwards unless press_enter_after is 0 (the default is 1).
- select [id] [option]: choose the option with this label in a drop-down.
- hover [id]: move the mouse over the element.
- press [key_comb]: press a key combination, e.g. Enter, Tab or Ctrl+a.
- scroll [down] or scroll [up]: scroll the page by one screen.
Navigation
- go_back: return to the previous page.
- go_forward: undo a go_back.
Completion
- stop [answer]: end the task. If the objective asks for information, put the answer in the \
brackets; otherwise leave them empty. If the task cannot be done, answer N/A.

Rules:
1. Only issue an action that is valid for the current observation.
2. Issue exactly one action per turn.
3. First reason step by step about the page and the objective, then give the action.
4. Follow the format exactly: end with the phrase "In summary, the next action I will perform \
is" followed by the action inside triple backticks, for example: In summary, the next action I \
will perform is ```click [1234]```
5. Issue stop once the objective is met, and write nothing after it."""


@dataclass
class _Expr:
    """One action expression found in the text: its span and what it parses to."""

    start: int
    end: int
    action: GUIAction | None = None
    error: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)


class AXTreeGrammar:
    """BrowserGym / WebArena element-id actions -> :class:`GUIAction` with ``element``."""

    name = "axtree"
    modes: tuple[Mode, ...] = ("browser",)
    default_coords: Coords = "absolute"

    def system_prompt(self, *, mode: Mode, actions_doc: str = "") -> str:
        return system_prompt_for(self, mode, SYSTEM_PROMPT, actions_doc)

    def tool_spec(self, image_size: tuple[int, int]) -> None:
        return None

    def parse(self, raw: str, ctx: ParseContext) -> Parsed:
        text = raw if isinstance(raw, str) else ""
        region = _action_region(text)
        if region is not None:
            cut, seg_start, seg_end = region
            found = _scan(text, ctx, seg_start, seg_end)
            if not found:
                segment = text[seg_start:seg_end].strip()
                executed = _parse_at(segment, ctx, bare=True) if segment else \
                    _Expr(0, 0, error="the action region is empty")
            else:
                executed = _parse_at(text[found[-1].start:seg_end], ctx)
        else:
            found = _scan(text, ctx, 0, len(text))
            if not found:
                whole = _parse_at(text.strip(), ctx, bare=True)
                if whole.action is None and not text.strip():
                    return invalid(raw, "empty output")
                return _result(raw, whole, "", None)
            cut = found[-1].start
            line_end = text.find("\n", cut)
            tail = max(found[-1].end, line_end if line_end >= 0 else len(text))
            executed = _parse_at(text[cut:tail], ctx)
        thought_text = text[:cut]
        stated = [e for e in _scan(thought_text, ctx, 0, len(thought_text), check_ids=False)
                  if e.action is not None]
        intent = stated[-1].action.to_dict() if stated and stated[-1].action else None
        return _result(raw, executed, _clean(thought_text), intent)


def _result(raw: str, expr: _Expr, thought: str, intent: dict[str, Any] | None) -> Parsed:
    if expr.action is None:
        return invalid(raw, expr.error or "no action found", thought)
    return Parsed(raw=raw, actions=[expr.action], thought=thought, intent=intent,
                  meta=dict(expr.meta))


def _clean(thought: str) -> str:
    return _NOISE_RE.sub("", thought).strip()


def _action_region(text: str) -> tuple[int, int, int] | None:
    """Where the executed action is written: (thought end, segment start, segment end).

    In order: a BrowserGym ``<action>`` tag, the WebArena summary phrase (its quoted or
    backticked action, else the rest of its line), a fenced code block, an ``Action:`` line."""
    tags = list(_TAG_RE.finditer(text))
    if tags:
        return tags[-1].start(), tags[-1].start(1), tags[-1].end(1)
    phrases = list(_SUMMARY_RE.finditer(text))
    if phrases:
        m = phrases[-1]
        rest = text[m.end():]
        for pattern in _QUOTED:
            q = pattern.match(rest)
            if q:
                return m.start(), m.end() + q.start(1), m.end() + q.end(1)
        line_end = text.find("\n", m.end())
        return m.start(), m.end(), line_end if line_end >= 0 else len(text)
    fences = list(_FENCE_RE.finditer(text))
    if fences:
        return fences[-1].start(), fences[-1].start(1), fences[-1].end(1)
    labels = list(_LABEL_RE.finditer(text))
    if labels:
        return labels[-1].start(), labels[-1].start(1), labels[-1].end(1)
    return None


def _scan(text: str, ctx: ParseContext, lo: int, hi: int, *,
          check_ids: bool = True) -> list[_Expr]:
    """Action expressions starting in ``text[lo:hi]``, in order (bracket contents end at the
    first closing bracket, as a sentence in a thought would have them)."""
    out: list[_Expr] = []
    for m in _CALL_RE.finditer(text, lo, hi):
        if m.group(1) in SIGNATURES or m.group(1) in UNAVAILABLE:
            end = closing_index(text, m.end() - 1, hi)
            if end > 0:
                out.append(_call(text[m.start():end], m.start(), ctx, check_ids))
    for m in _BRACKET_RE.finditer(text, lo, hi):
        line_end = text.find("\n", m.start(), hi)
        segment = text[m.start():line_end if line_end >= 0 else hi]
        expr = _bracket(segment, ctx, greedy=False, check_ids=check_ids)
        expr.start, expr.end = m.start() + expr.start, m.start() + expr.end
        out.append(expr)
    for m in _BARE_RE.finditer(text, lo, hi):
        out.append(_bracket(m.group(0), ctx, greedy=False, check_ids=check_ids, at=m.start()))
    out = [e for e in out if not any(o.start < e.start < o.end for o in out)]  # nested mentions
    return sorted(out, key=lambda e: e.start)


def _parse_at(segment: str, ctx: ParseContext, *, bare: bool = False) -> _Expr:
    """The action a segment starts with, read greedily to the segment's end (WebArena)."""
    if not segment:
        return _Expr(0, 0, error="no action found; write e.g. click [12] or click('12')")
    call = _CALL_RE.match(segment)
    if call:
        end = closing_index(segment, call.end() - 1, len(segment))
        if end < 0:
            return _Expr(0, 0, error=f"unbalanced parentheses in {segment[:60]!r}")
        if call.group(1) not in SIGNATURES and call.group(1) not in UNAVAILABLE:
            return _Expr(0, 0, error=_unknown(call.group(1)))
        return _call(segment[:end], 0, ctx, True)
    return _bracket(segment, ctx, greedy=True, check_ids=True, bare=bare)


def _unknown(name: str) -> str:
    return (f"unknown action {name!r}; expected one of {', '.join(BRACKET)} "
            f"(or BrowserGym calls: {', '.join(SIGNATURES)})")




# -- BrowserGym calls --------------------------------------------------------------------------
def _call(expr: str, start: int, ctx: ParseContext, check_ids: bool) -> _Expr:
    out = _Expr(start, start + len(expr))
    try:
        node = ast.parse(expr.strip(), mode="eval").body
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            raise ValueError("not a call")
        name = node.func.id
        args = [ast.literal_eval(a) for a in node.args]
        kwargs = {k.arg: ast.literal_eval(k.value) for k in node.keywords if k.arg}
    except (SyntaxError, ValueError) as exc:
        out.error = f"could not read {expr.strip()[:60]!r} as a call with literal arguments " \
                    f"({exc})"
        return out
    if name in UNAVAILABLE:
        out.error = f"{name} is not available here: one tab on one site; use {', '.join(BRACKET)}"
        return out
    bound = _bind(name, args, kwargs)
    if isinstance(bound, str):
        out.error = bound
        return out
    try:
        result = _from_call(name, bound, ctx, check_ids)
    except ValidationError as exc:
        result = f"{name}: {exc.errors()[0]['msg']}"
    if isinstance(result, str):
        out.error = result
    else:
        out.action, out.meta = result
    return out


def _bind(name: str, args: list[Any], kwargs: dict[str, Any]) -> dict[str, Any] | str:
    params = SIGNATURES[name]
    if len(args) > len(params):
        return f"{name} takes {len(params)} argument(s), got {len(args)}"
    bound = dict(zip((p for p, _ in params), args, strict=False))
    for key, value in kwargs.items():
        if key not in {p for p, _ in params}:
            return f"{name} has no argument {key!r}"
        if key in bound:
            return f"{name} got {key!r} twice"
        bound[key] = value
    for p, default in params:
        if p not in bound:
            if default is _REQ:
                return f"{name} needs {p}"
            bound[p] = default
    return bound


def _element(value: Any, ctx: ParseContext, check_ids: bool) -> int | str:
    if isinstance(value, bool) or not isinstance(value, int | str) \
            or not str(value).strip().isdigit():
        return f"element id must be a number from the tree, got {value!r}"
    eid = int(value)
    if check_ids and ctx.element_ids is not None and eid not in ctx.element_ids:
        return f"no element {eid} on this page"
    return eid


def _from_call(name: str, a: dict[str, Any], ctx: ParseContext,
               check_ids: bool) -> tuple[GUIAction, dict[str, Any]] | str:
    meta: dict[str, Any] = {}
    eid: int | str = 0
    if "bid" in a:
        eid = _element(a["bid"], ctx, check_ids)
        if isinstance(eid, str):
            return eid
    for key in ("value", "key_comb", "key", "text", "reason"):
        if key in a and not isinstance(a[key], str):
            return f"{name}: {key} must be a string, got {a[key]!r}"
    if name in ("click", "dblclick"):
        if a["button"] not in ("left", "middle", "right"):
            return f"{name}: button must be left, middle or right, got {a['button']!r}"
        if not isinstance(a["modifiers"], list | tuple) or not all(
                isinstance(m, str) for m in a["modifiers"]):
            return f"{name}: modifiers must be a list of key names"
        if a["modifiers"]:
            meta["modifiers"] = list(a["modifiers"])  # GUIAction has no modifier field
        kind, button = click_kind("click" if name == "click" else "double_click", a["button"])
        return GUIAction(kind=kind, element=eid, button=button), meta
    if name in ("fill", "clear"):
        return GUIAction(kind="type", element=eid, text=a.get("value", "")), {"replace": True}
    if name == "select_option":
        options = a["options"]
        if isinstance(options, list | tuple) and len(options) == 1:
            options = options[0]
        if not isinstance(options, str):
            return f"select_option takes one option (a string), got {options!r}"
        return GUIAction(kind="select_option", element=eid, option=options), meta
    if name == "hover":
        return GUIAction(kind="move", element=eid), meta
    if name in ("press", "keyboard_press"):
        key = a.get("key_comb", a.get("key", ""))
        action = GUIAction(kind="key", key=key, element=eid if name == "press" else None)
        return action, meta
    if name == "keyboard_type":
        return GUIAction(kind="type", text=a["text"]), meta
    if name == "scroll":
        dx, dy = a["delta_x"], a["delta_y"]
        if not all(isinstance(d, int | float) and not isinstance(d, bool) for d in (dx, dy)):
            return f"scroll takes two numbers (delta_x, delta_y), got {dx!r}, {dy!r}"
        return GUIAction(kind="scroll", dx=dx, dy=dy), meta
    if name in ("go_back", "go_forward"):
        return GUIAction(kind=name), meta
    if name == "send_msg_to_user":
        return GUIAction(kind="finish", answer=a["text"]), meta
    if name == "report_infeasible":  # WebArena's convention for an impossible task
        return GUIAction(kind="finish", answer="N/A"), {"infeasible": a["reason"]}
    if name == "stop":
        answer = a["answer"]
        if answer is not None and not isinstance(answer, str | int | float):
            return f"stop: answer must be a string, got {answer!r}"
        return GUIAction(kind="finish", answer=None if answer is None else str(answer)), meta
    wait = a["wait_ms"]  # noop
    if not isinstance(wait, int | float) or isinstance(wait, bool) or wait < 0:
        return f"noop: wait_ms must be a non-negative number, got {wait!r}"
    return GUIAction(kind="wait", seconds=wait / 1000), meta


# -- WebArena bracket commands ------------------------------------------------------------------
_TYPE_FLAGGED = re.compile(r"type\s*\[(\d+)\]\s*\[(.*)\]\s*\[([01])\]", re.IGNORECASE)
_TYPE_GREEDY = re.compile(r"type\s*\[(\d+)\]\s*\[(.*)\]", re.IGNORECASE)
_TYPE_LAZY = re.compile(r"type\s*\[(\d+)\]\s*\[(.*?)\](?:\s*\[([01])\])?", re.IGNORECASE)
_SELECT = {True: re.compile(r"select\s*\[(\d+)\]\s*\[(.*)\]", re.IGNORECASE),
           False: re.compile(r"select\s*\[(\d+)\]\s*\[(.*?)\]", re.IGNORECASE)}
_ELEMENT_CMD = re.compile(r"(click|hover)\s*\[\s*([^\]\s]*)\s*\]", re.IGNORECASE)
_PRESS = {True: re.compile(r"press\s*\[(.+)\]", re.IGNORECASE),
          False: re.compile(r"press\s*\[([^\]\n]+)\]", re.IGNORECASE)}
_SCROLL = re.compile(r"scroll\s*\[?\s*(?:direction\s*=\s*)?(\w+)\s*\]?", re.IGNORECASE)
_STOP = {True: re.compile(r"stop\s*\[(.*)\]", re.IGNORECASE | re.DOTALL),
         False: re.compile(r"stop\s*\[(.*?)\]", re.IGNORECASE)}


def _bracket(segment: str, ctx: ParseContext, *, greedy: bool, check_ids: bool,
             bare: bool = False, at: int = 0) -> _Expr:
    """A WebArena command at the start of ``segment``. ``greedy``: bracket contents run to the
    segment's last bracket (WebArena's parser, for an isolated action); else to the first."""
    head = re.match(r"\s*([A-Za-z_]+)", segment)
    name = head.group(1).lower() if head else ""
    out = _Expr(at, at + len(segment))
    try:
        result = _bracket_action(name, segment, ctx, greedy, check_ids, bare)
    except ValidationError as exc:
        result = f"{name}: {exc.errors()[0]['msg']}"
    if isinstance(result, str):
        out.error, out.end = result, at + max(1, len(name))
    else:
        out.action, out.meta, length = result
        out.end = at + length
    return out


def _bracket_action(name: str, seg: str, ctx: ParseContext, greedy: bool, check_ids: bool,
                    bare: bool) -> tuple[GUIAction, dict[str, Any], int] | str:
    seg = seg.lstrip()
    if name in ("click", "hover"):
        m = _ELEMENT_CMD.match(seg)
        if not m:
            return f"{name} needs an element id: {name} [12]"
        eid = _element(m.group(2), ctx, check_ids)
        if isinstance(eid, str):
            return eid
        kind = "click" if name == "click" else "move"
        return GUIAction(kind=kind, element=eid), {}, m.end()
    if name == "type":
        m = (_TYPE_FLAGGED.match(seg) or _TYPE_GREEDY.match(seg)) if greedy \
            else _TYPE_LAZY.match(seg)
        if not m:
            return "type needs an element id and text: type [12] [text] [1]"
        eid = _element(m.group(1), ctx, check_ids)
        if isinstance(eid, str):
            return eid
        enter = m.group(3) if m.lastindex and m.lastindex >= 3 else None
        text = m.group(2) + ("" if enter == "0" else "\n")  # press_enter_after defaults to 1
        return GUIAction(kind="type", element=eid, text=text), {}, m.end()
    if name == "select":
        m = _SELECT[greedy].match(seg)
        if not m:
            return "select needs an element id and an option: select [12] [Blue]"
        eid = _element(m.group(1), ctx, check_ids)
        if isinstance(eid, str):
            return eid
        return GUIAction(kind="select_option", element=eid, option=m.group(2)), {}, m.end()
    if name == "press":
        m = _PRESS[greedy].match(seg)
        if not m or not m.group(1).strip():
            return "press needs a key combination: press [Enter]"
        # WebArena maps Meta to Control on a non-Mac browser, as ours is.
        key = normalize_key(m.group(1)).replace("Meta", "Control")
        return GUIAction(kind="key", key=key), {}, m.end()
    if name == "scroll":
        m = _SCROLL.match(seg)
        direction = m.group(1).lower() if m else ""
        if not m or direction not in ("up", "down"):
            return "scroll needs a direction: scroll [down] or scroll [up]"
        screen = ctx.viewport[1] / SCROLL_STEP_PX  # WebArena scrolls by window.innerHeight
        return GUIAction(kind="scroll", direction=direction, amount=screen), {}, m.end()
    if name == "stop":
        m = _STOP[greedy].match(seg)
        if not m and not (bare and seg.strip().lower() == "stop"):
            return "stop needs brackets: stop [answer] (empty brackets when there is none)"
        answer = m.group(1).strip() if m else ""
        return GUIAction(kind="finish", answer=answer or None), {}, m.end() if m else len(seg)
    if name in ("go_back", "go_forward"):
        return GUIAction(kind=name), {}, len(name)
    if name in ("goto", "new_tab", "tab_focus", "close_tab"):
        return f"{name} is not available here: one tab on one site; use {', '.join(BRACKET)}"
    if name and re.match(r"[A-Za-z_]+\s*[\[(]", seg):
        return _unknown(name)
    return f"no action found in {seg.strip()[:60]!r}; write e.g. click [12]"


GRAMMAR = AXTreeGrammar()
INFO = GrammarInfo("axtree", __name__, family="BrowserGym / WebArena element-id actions",
                   channel="chat", image_policy="none", history_images=0,
                   screenshot=False, axtree=True)
