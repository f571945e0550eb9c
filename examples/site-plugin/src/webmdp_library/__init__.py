"""webmdp-library: a public library's catalogue and loans, a webmdp site in a package of its
own (webmdp's docs/extending.md walks through it)."""

WEBMDP_PLUGIN_API = 1
"""The webmdp plugin API this package was written for (``webmdp.PLUGIN_API``)."""
