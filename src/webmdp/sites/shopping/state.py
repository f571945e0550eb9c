"""Shopping semantic state: interface position s^p and application data."""

from __future__ import annotations

from dataclasses import dataclass

from webmdp.sites._common.catalog import BrowseState

CartLine = tuple[str, int, str, str]
"""(product id, quantity, color, size)."""


@dataclass(frozen=True)
class ShoppingState(BrowseState):
    """The listing (query, filters, sort, page) is the catalog's :class:`BrowseState`."""

    reviews_open: bool = False
    color: str = ""
    size: str = ""
    cart: tuple[CartLine, ...] = ()
    shipping: str = "standard"
    order: tuple[CartLine, ...] = ()
    order_shipping: str = ""
    order_id: str = ""
