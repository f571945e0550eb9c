"""A small element tree over rendered markup and a CSS-like selector subset, enough for the
site-card rules (:mod:`webmdp.cap.rules`) to recognise widgets by their HTML signature (CAP
Appendix C.1: tags, classes, attributes). Standard library only.

Selectors: compound parts ``tag.class.prefix*[attr][attr=v][attr^=v][attr*=v][attr$=v]``
joined by spaces (descendant), alternatives separated by commas. ``.name`` matches a class
token exactly, ``.name*`` any class token starting with ``name``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from html.parser import HTMLParser

_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                   "source", "track", "wbr"})


@dataclass(eq=False)
class Element:
    """One element: tag, attributes (valueless ones map to ""), parent, children, own text."""

    tag: str
    attrs: dict[str, str]
    parent: Element | None = None
    children: list[Element] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    classes: tuple[str, ...] = ()
    classset: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        self.classes = tuple(self.attrs.get("class", "").split())
        self.classset = frozenset(self.classes)

    def get(self, name: str, default: str = "") -> str:
        return self.attrs.get(name, default)

    def has(self, name: str) -> bool:
        return name in self.attrs

    def ancestors(self) -> Iterator[Element]:
        node = self.parent
        while node is not None:
            yield node
            node = node.parent

    def iter(self) -> Iterator[Element]:
        """This element and every descendant, in document order."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def text(self) -> str:
        """The text content, whitespace collapsed."""
        parts = [t for node in self.iter() for t in node.texts]
        return " ".join(" ".join(parts).split())

    def label(self) -> str:
        """The accessible name as a page would give it: aria-label, else the text."""
        return self.get("aria-label") or self.text()


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#root", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        el = Element(tag, {k: v or "" for k, v in attrs}, parent=self.stack[-1])
        self.stack[-1].children.append(el)
        if tag not in _VOID:
            self.stack.append(el)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        el = Element(tag, {k: v or "" for k, v in attrs}, parent=self.stack[-1])
        self.stack[-1].children.append(el)

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        if data.strip():
            self.stack[-1].texts.append(data)


def parse(html: str) -> Element:
    """The element tree of ``html`` under a ``#root`` element."""
    builder = _Builder()
    builder.feed(html)
    builder.close()
    return builder.root


# -- selectors --------------------------------------------------------------------------------
_PART = re.compile(r"([a-z0-9]+|\*)?((?:\.[A-Za-z0-9_-]+\*?|\[[^\]]+\])*)")
_WORDS = re.compile(r"(?:[^\s\[]|\[[^\]]*\])+")
_ATTR = re.compile(r"\[([a-z0-9_-]+)(?:([\^*$]?=)\"?([^\"\]]*)\"?)?\]")


_ATTR_OPS = {
    "": lambda got, value: True,
    "=": lambda got, value: got == value,
    "^=": lambda got, value: got.startswith(value),
    "*=": lambda got, value: value in got,
    "$=": lambda got, value: got.endswith(value),
}


@dataclass(frozen=True, slots=True)
class _Compound:
    tag: str
    classes: frozenset[str]
    prefixes: tuple[str, ...]
    attrs: tuple[tuple[str, str, str], ...]

    def matches(self, el: Element) -> bool:
        if self.tag and el.tag != self.tag:
            return False
        if self.classes and not self.classes <= el.classset:
            return False
        for p in self.prefixes:
            for t in el.classes:
                if t.startswith(p):
                    break
            else:
                return False
        for name, op, value in self.attrs:
            got = el.attrs.get(name)
            if got is None:
                return False
            if not _ATTR_OPS[op](got, value):
                return False
        return True


def _compound(text: str) -> _Compound:
    m = _PART.fullmatch(text)
    if m is None:
        raise ValueError(f"unsupported selector part {text!r}")
    tag = "" if m.group(1) in (None, "*") else m.group(1)
    rest = m.group(2)
    names = re.findall(r"\.([A-Za-z0-9_-]+\*?)", re.sub(r"\[[^\]]+\]", "", rest))
    attrs = tuple((a, op or "", v or "") for a, op, v in _ATTR.findall(rest))
    return _Compound(tag, frozenset(n for n in names if not n.endswith("*")),
                     tuple(n[:-1] for n in names if n.endswith("*")), attrs)


@cache
def _compile(selector: str) -> tuple[tuple[_Compound, tuple[_Compound, ...]], ...]:
    """Each alternative as (its last compound, the outer ones innermost first)."""
    chains = [tuple(_compound(p) for p in _WORDS.findall(alt)) for alt in selector.split(",")
              if alt.strip()]
    return tuple((chain[-1], tuple(reversed(chain[:-1]))) for chain in chains)


def matches(el: Element, selector: str) -> bool:
    """Whether ``el`` matches ``selector`` (see the module doc for the subset)."""
    for last, outer in _compile(selector):
        if not last.matches(el):
            continue
        if not outer:
            return True
        i, node = 0, el.parent
        while node is not None:
            if outer[i].matches(node):
                i += 1
                if i == len(outer):
                    return True
            node = node.parent
    return False


def closest(el: Element, selector: str) -> Element | None:
    """``el`` or its nearest ancestor matching ``selector``."""
    if matches(el, selector):
        return el
    return next((a for a in el.ancestors() if matches(a, selector)), None)


def select(root: Element, selector: str) -> list[Element]:
    """Every element under ``root`` (itself included) matching ``selector``."""
    return [el for el in root.iter() if matches(el, selector)]
