"""Food Delivery task templates (WebSTEP H.1 style), 15 families."""

from __future__ import annotations

from webmdp.sites.food.templates.items import (
    CheapestVegan,
    Customize,
    LowestCalorie,
    WithIngredient,
    WithoutAllergen,
)
from webmdp.sites.food.templates.orders import (
    AddTwoRemoveOne,
    ChangeQuantity,
    CustomizeAndCheckout,
    DeliverWithTip,
    ScheduledPickup,
)
from webmdp.sites.food.templates.restaurants import (
    ChainLocation,
    FastestFreeDelivery,
    LowestFeeFast,
    OpenLate,
    TopRatedOnStreet,
)
from webmdp.tasks.template import TaskTemplate

TEMPLATES: dict[str, TaskTemplate] = {t.name: t for t in (
    OpenLate(), FastestFreeDelivery(), TopRatedOnStreet(), ChainLocation(), LowestFeeFast(),
    WithoutAllergen(), LowestCalorie(), CheapestVegan(), WithIngredient(), Customize(),
    AddTwoRemoveOne(), ChangeQuantity(), DeliverWithTip(), ScheduledPickup(),
    CustomizeAndCheckout(),
)}
