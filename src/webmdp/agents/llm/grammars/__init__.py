"""Action grammars by name, with each family's observation defaults (imported lazily).

| grammar | family | channel | what the model sees by default |
|---|---|---|---|
| uitars | UI-TARS / UI-TARS-1.5 | chat | last 5 screenshots, smart-resized |
| qwen | Qwen2.5-VL / Qwen3-VL ``computer_use`` | chat | last 3 screenshots, smart-resized |
| fara | Fara-7B | chat | last 3 screenshots, smart-resized |
| openai-cua | OpenAI computer use (Responses) | computer | screenshot at viewport size |
| anthropic-cua | Claude computer use | computer | last 3 screenshots, scaled |
| axtree | BrowserGym / WebArena element ids | chat | accessibility tree + URL |
| json | any chat model | chat | semantic text (semantic mode); screenshot + tree (browser) |

Scroll amounts: qwen ``pixels`` and openai-cua ``scroll_x`` / ``scroll_y`` are pixels of the
image the model saw, scaled to the viewport like coordinates; uitars, anthropic-cua and json
``amount`` count wheel notches; fara keeps its family's convention, where only the sign of
``pixels`` counts (one 400 px page step); axtree and json ``dx`` / ``dy`` are viewport pixels.

Every grammar that takes coordinates shares one policy (``base``): numeric strings read as
numbers; a point off the image the model saw is an invalid step whose error names the bound in
the model's coordinate space, never clamped to the edge; scroll distances given in that space
("scaled") are scaled to the viewport like coordinates; a right click is ``right_click``; prose
around a tool call is the thought, and a call never becomes a ``finish`` answer.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from webmdp.agents.llm.grammars.base import Grammar, ParseContext, Parsed
from webmdp.agents.llm.grammars.info import GrammarInfo, ImagePolicy
from webmdp.errors import unknown_choice
from webmdp.plugins import PluginError, Registry

if TYPE_CHECKING:
    from webmdp.core.site import Site
    from webmdp.trace import Mode


def _is_info(value: object) -> None:
    if not isinstance(value, GrammarInfo):
        raise PluginError(f"a grammar entry point must name a GrammarInfo, not {value!r}")


_P = "webmdp.agents.llm.grammars."
_BUILTIN = {
    "uitars": _P + "uitars:INFO",
    "qwen": _P + "qwen:INFO",
    "fara": _P + "fara:INFO",
    "openai-cua": _P + "openai_cua:INFO",
    "anthropic-cua": _P + "anthropic_cua:INFO",
    "axtree": _P + "axtree:INFO",
    "json": _P + "json_grammar:INFO",
}
GRAMMARS: Registry[GrammarInfo] = Registry("grammar", "webmdp.grammars", _BUILTIN,
                                           check=_is_info)
"""Every grammar (a :class:`webmdp.plugins.Registry`, group ``webmdp.grammars``): webmdp's
seven in this order, then installed packages' ``GrammarInfo`` entry points."""


def grammar_names() -> list[str]:
    """The grammars, webmdp's own first in their table's order, then plugins by name."""
    names = GRAMMARS.names()
    return [*_BUILTIN, *(n for n in names if n not in _BUILTIN)]


def grammar_info(name: str) -> GrammarInfo:
    if name not in GRAMMARS:
        raise unknown_choice("grammar", name, grammar_names())
    info = GRAMMARS.load(name)
    if info.name != name:
        raise PluginError(f"grammar '{name}' from package {GRAMMARS.entry(name).package} "
                          f"names itself '{info.name}'")
    return info


def actions_doc(name: str, site: Site, mode: Mode) -> str:
    """The action list a chat prompt includes: a grammar module's ``actions_doc(site, mode)``
    when it has one (the json grammar's schemas), else nothing."""
    doc = getattr(importlib.import_module(grammar_info(name).module), "actions_doc", None)
    return "" if doc is None else str(doc(site, mode))


def get_grammar(name: str) -> Any:
    """The grammar object (``Grammar`` protocol; CUA grammars also have ``tool_spec``)."""
    return importlib.import_module(grammar_info(name).module).GRAMMAR


__all__ = ["GRAMMARS", "Grammar", "GrammarInfo", "ImagePolicy", "ParseContext", "Parsed",
           "actions_doc", "get_grammar", "grammar_info", "grammar_names"]
