"""The semantic MDP contract every site satisfies (pure, no I/O)."""

from webmdp.core.model import EntityView, Observation, State, World, WorldSpec
from webmdp.core.site import Site
from webmdp.core.spec import (
    Action,
    ActionSpec,
    ParamSpec,
    SkillCategory,
    SurfaceKind,
    SurfaceSpec,
    VisibilitySpec,
)

__all__ = [
    "Action", "ActionSpec", "EntityView", "Observation", "ParamSpec", "Site", "SkillCategory",
    "State", "SurfaceKind", "SurfaceSpec", "VisibilitySpec", "World", "WorldSpec",
]
