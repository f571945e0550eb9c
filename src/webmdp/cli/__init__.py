"""The `webmdp` command line (:mod:`webmdp.cli.main`)."""

__all__: list[str] = []
"""The command line is used as a program, not imported by name."""
