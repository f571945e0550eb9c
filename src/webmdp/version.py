"""webmdp's version: pyproject's, and the newest release of CHANGELOG.md (a test keeps the
three equal). The lowest layer, so every command can print it."""

__version__ = "0.2.0"

__all__ = ["__version__"]
