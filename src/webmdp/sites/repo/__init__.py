"""The Code Repo site: a GitHub-like code hosting app (WebSTEP Tables 4, 5, 8)."""

__all__: list[str] = []
"""Nothing here is imported by name: the site is reached through the registry
(``webmdp.sites.get_site``); its package holds its modules, views and static files."""
