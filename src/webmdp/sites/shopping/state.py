"""Shopping semantic state: interface position s^p and application data."""

from __future__ import annotations

from dataclasses import dataclass

from webmdp.core.model import State

CartLine = tuple[str, int, str, str]
"""(product id, quantity, color, size)."""


@dataclass(frozen=True)
class ShoppingState(State):
    query: str = ""
    department: str = ""
    category: str = ""
    brands: tuple[str, ...] = ()
    price_min: float | None = None
    price_max: float | None = None
    min_rating: str = ""
    prime_only: bool = False
    sort: str = "featured"
    page: int = 1
    reviews_open: bool = False
    color: str = ""
    size: str = ""
    cart: tuple[CartLine, ...] = ()
    shipping: str = "standard"
    order: tuple[CartLine, ...] = ()
    order_shipping: str = ""
    order_id: str = ""
