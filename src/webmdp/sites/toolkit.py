"""The site toolkit, as a site package outside webmdp imports it (docs/extending.md).

A site is a :class:`ModularSite`: a state class, a start surface and three pure functions
(world, transition, observe) with its facts; a listing is a declared :class:`Catalog` (search,
facets, sorts, paging); a task template is a :class:`FindTemplate` that pins a target and its
hard negatives in one group. Everything here is webmdp's stable interface
(:data:`webmdp.PLUGIN_API`); ``webmdp.sites._common`` behind it is not.
"""

from webmdp.core.model import Entity, Observation, State, World, WorldSpec
from webmdp.core.site import Site
from webmdp.core.spec import (
    Action,
    ActionSpec,
    ParamSpec,
    SkillCategory,
    SurfaceKind,
    declare_action,
)
from webmdp.errors import require
from webmdp.sites._common import handlers
from webmdp.sites._common.catalog import BrowseState, Catalog, Facet, Sort
from webmdp.sites._common.site import CO, FI, INS, NAV, SE, ModularSite, SiteLogic
from webmdp.sites._common.tasklib import (
    FindTemplate,
    Pins,
    distinct,
    filler,
    pin_split,
    shown,
)
from webmdp.sites._common.templates import TARGET, Params, Step, collect
from webmdp.sites._common.worldgen import assemble, others, pin_group
from webmdp.tasks.model import Condition
from webmdp.tasks.template import Draft, TaskTemplate
from webmdp.tasks.verifier import commit_conditions, membership

__all__ = ["CO", "FI", "INS", "NAV", "SE", "TARGET", "Action", "ActionSpec", "BrowseState",
           "Catalog", "Condition", "Draft", "Entity", "Facet", "FindTemplate", "ModularSite",
           "Observation", "ParamSpec", "Params", "Pins", "Site", "SiteLogic", "SkillCategory",
           "Sort", "State", "Step", "SurfaceKind", "TaskTemplate", "World", "WorldSpec",
           "assemble", "collect", "commit_conditions", "declare_action", "distinct", "filler",
           "handlers", "membership", "others", "pin_group", "pin_split", "require", "shown"]
