"""Registered sites. Each site is one package satisfying the :mod:`webmdp.core` contract."""

from webmdp.sites.registry import get_site, register_site, site_names

__all__ = ["get_site", "register_site", "site_names"]
