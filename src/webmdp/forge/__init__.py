"""WebForge's pipeline (plan, generate, refine, validate) and its calibration."""

__all__: list[str] = []
"""Used through ``webmdp forge`` and its modules, not this package."""
