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
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

from webmdp.agents.llm.grammars.base import Grammar, ParseContext, Parsed
from webmdp.agents.llm.observe import ObservationConfig
from webmdp.errors import unknown_choice
from webmdp.trace import Mode

if TYPE_CHECKING:
    from webmdp.core.site import Site

ImagePolicy = Literal["none", "smart_resize", "anthropic"]


@dataclass(frozen=True)
class GrammarInfo:
    """A grammar's registry entry: where it lives and what its family expects to see."""

    name: str
    module: str
    family: str
    channel: Literal["chat", "computer"]
    image_policy: ImagePolicy
    history_images: int
    screenshot: bool
    axtree: bool

    def observation(self, mode: Mode, config: Any) -> ObservationConfig:
        """The observation config for ``mode``, family defaults overridden by ``config``
        (a ``ModelAgentConfig``: history_images, history_tokens, axtree, set_of_marks)."""
        from webmdp.agents.llm.images import model_image_size

        axtree = self.axtree if config.axtree is None else config.axtree
        images = self.history_images if config.history_images is None else config.history_images
        cfg = ObservationConfig(screenshot=self.screenshot or config.set_of_marks,
                                axtree=axtree, set_of_marks=config.set_of_marks,
                                history_images=images, history_tokens=config.history_tokens,
                                image_size=model_image_size(self.image_policy))
        if mode == "semantic":
            cfg = replace(cfg, screenshot=False, set_of_marks=False, history_images=0)
        return cfg

    def actions_doc(self, site: Site, mode: Mode) -> str:
        """The action list a chat prompt includes (the json grammar's schemas)."""
        if self.name != "json":
            return ""
        from webmdp.agents.llm.grammars import json_grammar

        return (json_grammar.semantic_actions_doc(site) if mode == "semantic"
                else json_grammar.gui_actions_doc())


_P = "webmdp.agents.llm.grammars."
GRAMMARS: dict[str, GrammarInfo] = {g.name: g for g in (
    GrammarInfo("uitars", _P + "uitars", "UI-TARS / UI-TARS-1.5", "chat", "smart_resize", 5,
                True, False),
    GrammarInfo("qwen", _P + "qwen", "Qwen2.5-VL / Qwen3-VL computer_use", "chat",
                "smart_resize", 3, True, False),
    GrammarInfo("fara", _P + "fara", "Fara-7B", "chat", "smart_resize", 3, True, False),
    GrammarInfo("openai-cua", _P + "openai_cua", "OpenAI computer use (Responses API)",
                "computer", "none", 1, True, False),
    GrammarInfo("anthropic-cua", _P + "anthropic_cua", "Claude computer use (Messages API)",
                "computer", "anthropic", 3, True, False),
    GrammarInfo("axtree", _P + "axtree", "BrowserGym / WebArena element-id actions", "chat",
                "none", 0, False, True),
    GrammarInfo("json", _P + "json_grammar", "any chat model (JSON actions)", "chat", "none", 1,
                True, True),
)}


def grammar_names() -> list[str]:
    return list(GRAMMARS)


def grammar_info(name: str) -> GrammarInfo:
    if name not in GRAMMARS:
        raise unknown_choice("grammar", name, list(GRAMMARS))
    return GRAMMARS[name]


def get_grammar(name: str) -> Any:
    """The grammar object (``Grammar`` protocol; CUA grammars also have ``tool_spec``)."""
    return importlib.import_module(grammar_info(name).module).GRAMMAR


__all__ = ["GRAMMARS", "Grammar", "GrammarInfo", "ParseContext", "Parsed", "get_grammar",
           "grammar_info", "grammar_names"]
