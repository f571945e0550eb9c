"""Text helpers shared by the UI-TARS, Qwen and Fara parsers (and, for JSON calls written
inside prose, the computer-use ones).

Python-style action calls (``click(start_box='(10,20)')``) with their quoted, escaped
arguments; ``<tool_call>`` JSON blocks with the tolerance real outputs need (a missing closing
tag, a Markdown fence, single-quoted Python dicts, trailing text); the numbers of a point or
box; and the target a thought states ("click the 'Add to Cart' button").
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field
from typing import Any

_IDENT_RE = re.compile(r"[A-Za-z_]\w*")
_KEYWORD_RE = re.compile(r"([A-Za-z_]\w*)\s*=(?!=)")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"'}
_NUMBER_RE = re.compile(r"-?\d+(?:\.\d+)?")


# -- Python-style calls ------------------------------------------------------------------------
@dataclass
class Call:
    """One call ``name(arg, key=value, ...)``: string arguments unescaped, others as written."""

    name: str
    kwargs: dict[str, str] = field(default_factory=dict)
    args: list[str] = field(default_factory=list)
    end: int = 0


def unescape(text: str) -> str:
    r"""Python string escapes a model writes inside quotes: ``\n``, ``\t``, ``\r``, ``\\``,
    ``\'`` and ``\"``; any other backslash stays as written."""
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text) and text[i + 1] in _ESCAPES:
            out.append(_ESCAPES[text[i + 1]])
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def read_call(text: str, pos: int = 0) -> Call | str:
    """The call starting at ``text[pos]`` (its ``end`` just past the closing parenthesis), or
    the reason it is malformed (unterminated string, unbalanced parentheses, ...)."""
    m = _IDENT_RE.match(text, pos)
    if m is None:
        return f"expected an action call, got {text[pos:pos + 60]!r}"
    name, i = m.group(0), _skip_ws(text, m.end())
    if i >= len(text) or text[i] != "(":
        return f"expected '(' after {name!r}"
    call = Call(name)
    i = _skip_ws(text, i + 1)
    while True:
        if i >= len(text):
            return f"{name}(...) has no closing parenthesis"
        if text[i] == ")":
            call.end = i + 1
            return call
        key = None
        km = _KEYWORD_RE.match(text, i)
        if km:
            key, i = km.group(1), _skip_ws(text, km.end())
        value = _read_value(text, i, name)
        if isinstance(value, str):
            return value
        val, i = value
        if key is None:
            call.args.append(val)
        else:
            call.kwargs[key] = val
        i = _skip_ws(text, i)
        if i < len(text) and text[i] == ",":
            i = _skip_ws(text, i + 1)
        elif i < len(text) and text[i] != ")":
            return f"{name}(...): expected ',' or ')' after an argument, got {text[i:i + 30]!r}"


def _skip_ws(text: str, i: int) -> int:
    while i < len(text) and text[i].isspace():
        i += 1
    return i


def _read_value(text: str, i: int, name: str) -> tuple[str, int] | str:
    """A quoted string (unescaped) or a bare value up to the next top-level ``,`` / ``)``."""
    if i < len(text) and text[i] in "'\"":
        quote, j, buf = text[i], i + 1, []
        while j < len(text):
            ch = text[j]
            if ch == "\\" and j + 1 < len(text):
                buf.append(text[j:j + 2])
                j += 2
                continue
            if ch == quote:
                return unescape("".join(buf)), j + 1
            buf.append(ch)
            j += 1
        return f"{name}(...) has an unterminated {quote} string"
    depth, j = 0, i
    while j < len(text):
        ch = text[j]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif ch == "," and depth == 0:
            break
        elif ch in "'\"":
            return f"{name}(...) has a stray quote in an unquoted argument"
        j += 1
    value = text[i:j].strip()
    if not value:
        return f"{name}(...) has an empty argument"
    return value, j


def numbers(text: str) -> list[float]:
    """The numbers written in a point or box (``(1,2)``, ``<point>1 2</point>``, ``[1, 2, 3,
    4]``, ``<|box_start|>(1,2)<|box_end|>``)."""
    return [float(n) for n in _NUMBER_RE.findall(text)]


# -- <tool_call> JSON --------------------------------------------------------------------------
_THINK_RE = re.compile(r"</?think>", re.IGNORECASE)
_FENCE_RE = re.compile(r"```[ \t]*(?:json|JSON)?[ \t]*\n?(.*?)(?:```|\Z)", re.DOTALL)


@dataclass
class ToolCalls:
    """The tool calls of one output, in order, and the text before the first (the thought).
    ``error`` is set when a block does not decode to a JSON object."""

    thought: str
    calls: list[dict[str, Any]]
    error: str | None = None


def tool_calls(raw: str) -> ToolCalls:
    """``<tool_call>{...}</tool_call>`` blocks (the closing tag may be missing); without tags,
    fenced JSON blocks; without fences, the first JSON object in the text."""
    opens = [m.end() for m in re.finditer(r"<tool_call>", raw)]
    blocks: list[str] = []
    if opens:
        first = raw.find("<tool_call>")
        for n, start in enumerate(opens):
            stop = opens[n + 1] - len("<tool_call>") if n + 1 < len(opens) else len(raw)
            close = raw.find("</tool_call>", start, stop)
            blocks.append(raw[start:close if close >= 0 else stop])
    else:
        fences = list(_FENCE_RE.finditer(raw))
        if fences:
            first = fences[0].start()
            blocks = [f.group(1) for f in fences]
        else:
            first = raw.find("{")
            if first < 0:
                return ToolCalls(clean_thought(raw), [], "no <tool_call> block and no JSON "
                                 "object in the output")
            blocks = [raw[first:]]
    thought = clean_thought(raw[:first])
    calls: list[dict[str, Any]] = []
    for n, block in enumerate(blocks):
        obj = decode_object(block)
        if isinstance(obj, str):
            where = f"tool call {n + 1}" if len(blocks) > 1 else "the tool call"
            return ToolCalls(thought, calls, f"{where} is not a JSON object: {obj}")
        calls.append(obj)
    return ToolCalls(thought, calls)


def decode_object(block: str) -> dict[str, Any] | str:
    """The first JSON object in ``block`` (text after it is ignored); a Python dict literal
    with single quotes is accepted too. The reason otherwise."""
    fence = _FENCE_RE.search(block)
    if fence:
        block = fence.group(1)
    start = block.find("{")
    if start < 0:
        return f"no '{{' in {block.strip()[:60]!r}"
    try:
        obj, _ = json.JSONDecoder().raw_decode(block, start)
    except json.JSONDecodeError as exc:
        end = closing_index(block, start, opens="{", closes="}")
        if end < 0:
            return f"{exc.msg} (unbalanced braces)"
        try:
            obj = ast.literal_eval(block[start:end])
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return f"{exc.msg} at character {exc.pos - start}"
    if not isinstance(obj, dict):
        return "expected a JSON object"
    return obj


def closing_index(text: str, open_at: int, hi: int | None = None, *, opens: str = "([{",
                  closes: str = ")]}") -> int:
    """Index just past the bracket closing the one at ``open_at`` (brackets inside quoted
    strings ignored, backslash escapes honoured), looking no further than ``hi``; -1 when it
    is unbalanced. ``opens`` / ``closes`` say which brackets count."""
    depth, quote, i = 0, "", open_at
    end = len(text) if hi is None else hi
    while i < end:
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in opens:
            depth += 1
        elif ch in closes:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return -1


def clean_thought(text: str) -> str:
    """A thought without ``<think>`` tags and surrounding whitespace."""
    return _THINK_RE.sub("", text).strip()


# -- stated intent ----------------------------------------------------------------------------
_VERBS = {"click": "click", "tap": "click", "select": "click", "choose": "click",
          "double-click": "double_click", "double click": "double_click",
          "right-click": "right_click", "right click": "right_click", "hover": "move"}
_INTENT_RE = re.compile(
    r"\b(double[- ]click|right[- ]click|click|tap|select|choose|hover)(?:s|ed|ing)?\b"
    r"[^.!?\n'\"\u201c\u2018]{0,40}?"
    r"(?:(?<!\w)'([^'\n]{1,80})'(?!\w)|\"([^\"\n]{1,80})\""
    r"|\u201c([^\u201d\n]{1,80})\u201d|\u2018([^\u2019\n]{1,80})\u2019)",
    re.IGNORECASE)


def stated_intent(thought: str) -> dict[str, Any] | None:
    """The last pointer action the thought names with a quoted target ("I will click the
    'Add to Cart' button" -> ``{"kind": "click", "target": "Add to Cart"}``); None when the
    thought quotes no target after such a verb."""
    found = list(_INTENT_RE.finditer(thought))
    if not found:
        return None
    m = found[-1]
    target = next(g for g in m.groups()[1:] if g is not None).strip()
    if not target:
        return None
    return {"kind": _VERBS[m.group(1).lower()], "target": target}


# -- JSON written inside prose -----------------------------------------------------------------
_EMPTY_FENCE_RE = re.compile(r"```[\w-]*\s*```|```[\w-]*\s*\Z")


def json_spans(text: str) -> list[tuple[int, int, Any]]:
    """The JSON objects and arrays written in ``text``, outermost only, in order, as (start,
    end, value); text around them and braces that do not open valid JSON are skipped."""
    decoder = json.JSONDecoder()
    found: list[tuple[int, int, Any]] = []
    i = 0
    while i < len(text):
        if text[i] in "{[":
            try:
                value, end = decoder.raw_decode(text, i)
            except (json.JSONDecodeError, RecursionError):
                i += 1
                continue
            found.append((i, end, value))
            i = end
            continue
        i += 1
    return found


def without_spans(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with the (start, end) spans cut out, fences left empty by that (or left open at
    the end) dropped, and the whitespace around it stripped: the prose around calls written in
    the text."""
    out, pos = [], 0
    for start, end in spans:
        out.append(text[pos:start])
        pos = end
    out.append(text[pos:])
    return _EMPTY_FENCE_RE.sub("", "".join(out)).strip()
