"""Food Delivery semantic state: listing position, open restaurant / item, cart, order."""

from __future__ import annotations

from dataclasses import dataclass

from webmdp.sites._common.catalog import BrowseState

Picks = tuple[tuple[str, str], ...]
"""Chosen option per group, in the item's group order: ``(("Protein", "Tofu"), ...)``."""
CartLine = tuple[str, int, Picks, str]
"""(item id, quantity, options, restaurant id)."""


@dataclass(frozen=True)
class FoodState(BrowseState):
    store: str = ""
    picks: Picks = ()
    cart: tuple[CartLine, ...] = ()
    fulfillment: str = "delivery"
    when: str = "ASAP"
    order: tuple[CartLine, ...] = ()
    order_address: str = ""
    order_tip: str = ""
    order_fulfillment: str = ""
    order_when: str = ""
