"""webmdp: process-level evaluation of web agents on deterministic semantic-MDP websites."""

from webmdp.env.registry import env_ids, make

__version__ = "0.1.0"
__all__ = ["__version__", "env_ids", "make"]
