"""Team Chat: a Slack-like team messaging app (WebSTEP Table 4 "Team Chat")."""

__all__: list[str] = []
"""Nothing here is imported by name: the site is reached through the registry
(``webmdp.sites.get_site``); its package holds its modules, views and static files."""
