"""The Accommodation site: a holiday-rental marketplace (WebSTEP Tables 4, 5, 7; Table 20)."""

__all__: list[str] = []
"""Nothing here is imported by name: the site is reached through the registry
(``webmdp.sites.get_site``); its package holds its modules, views and static files."""
