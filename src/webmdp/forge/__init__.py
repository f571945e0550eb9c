"""WebForge's pipeline (plan, generate, refine, validate) and its calibration."""
