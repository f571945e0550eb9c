"""Observations for models: what one turn shows a model, and the trimmed history before it.

A :class:`ModelView` is built from an env observation: the screenshot (resized to the image
size the family sees), a set-of-marks screenshot, the accessibility tree with element ids, the
URL, or the semantic text observation in semantic mode. :class:`History` keeps previous turns
(thought + action text, and their screenshots) and trims them to a token budget.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from webmdp.agents.llm.images import resize_png, set_of_marks

CHARS_PER_TOKEN = 4
"""Token estimate for trimming (a conservative average for English and JSON)."""


@dataclass(frozen=True)
class ObservationConfig:
    """What a model is shown each turn."""

    screenshot: bool = True
    axtree: bool = False
    set_of_marks: bool = False
    url: bool = True
    history_images: int = 1
    """How many screenshots (the current one included) each prompt carries."""
    history_tokens: int = 6000
    """Budget for previous thoughts and actions; the oldest turns are dropped first."""
    image_size: tuple[int, int] = (1440, 900)


@dataclass(frozen=True)
class ModelView:
    """One turn's observation, ready for a prompt."""

    instruction: str
    text: str
    image: bytes | None = None
    element_ids: frozenset[int] | None = None
    digest: str = ""

    def parts(self, *, with_image: bool = True) -> tuple[str | bytes, ...]:
        return (self.text, self.image) if with_image and self.image else (self.text,)


def model_view(obs: dict[str, Any], cfg: ObservationConfig) -> ModelView:
    """Build the model's view of an env observation (browser or semantic)."""
    instruction = obs.get("instruction", "")
    if "text" in obs and "nodes" not in obs:  # semantic mode
        text = obs["text"]
        return ModelView(instruction, text, digest=_digest(text.encode()))
    lines: list[str] = []
    if cfg.url and obs.get("url"):
        lines.append(f"URL: {obs['url']}")
    if cfg.axtree and obs.get("axtree") is not None:
        lines += ["Accessibility tree (interactive elements as [id] role \"name\"):",
                  obs["axtree"]]
    image = None
    shot = obs.get("screenshot")
    if shot and (cfg.screenshot or cfg.set_of_marks):
        if cfg.set_of_marks:
            shot = set_of_marks(shot, obs.get("nodes", []))
        image = resize_png(shot, cfg.image_size)
    ids = frozenset(int(n["id"]) for n in obs.get("nodes", []) if n.get("id") is not None)
    seed = (obs.get("axtree") or "").encode() + (obs.get("url") or "").encode() + (shot or b"")
    return ModelView(instruction, "\n".join(lines), image, ids, _digest(seed))


def _digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=8).hexdigest()


@dataclass(frozen=True)
class Turn:
    """A previous turn: what the model saw (image) and what it answered (text)."""

    image: bytes | None
    answer: str


@dataclass(frozen=True)
class History:
    """Previous turns, newest last; immutable so tree search can fork it."""

    turns: tuple[Turn, ...] = field(default_factory=tuple)

    def add(self, image: bytes | None, answer: str) -> History:
        return History((*self.turns, Turn(image, answer)))

    def trimmed(self, token_budget: int) -> tuple[Turn, ...]:
        """The newest turns whose answers fit ``token_budget`` (at least the last one)."""
        kept: list[Turn] = []
        used = 0
        for turn in reversed(self.turns):
            cost = len(turn.answer) // CHARS_PER_TOKEN + 1
            if kept and used + cost > token_budget:
                break
            kept.append(turn)
            used += cost
        return tuple(reversed(kept))
