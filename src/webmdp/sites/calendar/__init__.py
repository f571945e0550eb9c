"""The Calendar site: a Google Calendar-like scheduling app (WebSTEP Tables 4, 5, 7)."""

__all__: list[str] = []
"""Nothing here is imported by name: the site is reached through the registry
(``webmdp.sites.get_site``); its package holds its modules, views and static files."""
