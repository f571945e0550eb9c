"""A grammar's registry entry (:class:`GrammarInfo`): where its parser lives and what its
family expects to see. Each grammar module declares its own ``INFO``."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

from webmdp.agents.llm.observe import ObservationConfig
from webmdp.trace import Mode

ImagePolicy = Literal["none", "smart_resize", "anthropic"]


@dataclass(frozen=True)
class GrammarInfo:
    """A grammar's registry entry: where it lives and what its family expects to see."""

    name: str
    module: str
    """The module that defines ``GRAMMAR`` (its parser) and, if it can write, ``write``."""
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
