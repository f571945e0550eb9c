"""Pieces every site shares: world assembly, result listing, Jinja views."""

__all__: list[str] = []
"""Internal: a site outside webmdp imports the toolkit from :mod:`webmdp.sites.toolkit`,
whose names are the stable interface."""
