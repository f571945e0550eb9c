"""The semantic MDP contract every site satisfies (pure, no I/O)."""

from webmdp.core.model import EntityView, Observation, State, World, WorldSpec
from webmdp.core.site import Site
from webmdp.core.spec import (
    MAX_TEXT,
    Action,
    ActionSpec,
    ParamSpec,
    SkillCategory,
    SurfaceKind,
    SurfaceSpec,
    VisibilitySpec,
)

__all__ = [
    "MAX_TEXT", "Action", "ActionSpec", "EntityView", "Observation", "ParamSpec", "Site",
    "SkillCategory", "State", "SurfaceKind", "SurfaceSpec", "VisibilitySpec", "World",
    "WorldSpec",
]
