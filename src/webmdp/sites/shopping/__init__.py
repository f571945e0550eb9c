"""The Shopping site: an online store (WebSTEP Shopping)."""

__all__: list[str] = []
"""Nothing here is imported by name: the site is reached through the registry
(``webmdp.sites.get_site``); its package holds its modules, views and static files."""
