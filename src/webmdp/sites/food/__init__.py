"""The Food Delivery site (WebSTEP Table 4 row "Food Delivery")."""

__all__: list[str] = []
"""Nothing here is imported by name: the site is reached through the registry
(``webmdp.sites.get_site``); its package holds its modules, views and static files."""
