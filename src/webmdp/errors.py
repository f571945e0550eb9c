"""One exception hierarchy for webmdp.

Agent faults are scored; infrastructure faults are retried or recorded, never scored as failures
of the agent::

    WebMDPError
    ├── ConfigError               bad user input: unknown site / agent / template / task id
    │   └── TaskFileError         a malformed task file (carries file, line, field)
    ├── AgentFault                what the agent did wrong (scored)
    │   ├── InvalidAction         action not valid in the current state (precondition failed)
    │   └── UnparseableOutput     model output that no action grammar accepts
    ├── GenerationError           a template could not build a valid task (e.g. no unique target)
    └── InfrastructureError       what the infrastructure did wrong (retried / recorded)
        ├── BrowserError          Chromium crashed, hung or could not start
        ├── ServerError           the webmdp server failed or refused a control request
        └── ModelEndpointError    a model endpoint failed after its retries (429 / 5xx /
                                  timeout / refused), or a needed SDK extra is missing
"""

from __future__ import annotations

import reprlib
from typing import Any

SHOWN_CHARS = 80
"""The most characters an error message quotes of one string the agent sent (of a whole
value: twice that)."""

_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = SHOWN_CHARS


class WebMDPError(Exception):
    """Base of every webmdp error; carries optional task id and step for context."""

    def __init__(self, message: str, *, task_id: str | None = None, step: int | None = None):
        self.task_id = task_id
        self.step = step
        where = "".join(
            [f" [task {task_id}]" if task_id else "", f" [step {step}]" if step is not None else ""]
        )
        super().__init__(message + where)


class ConfigError(WebMDPError):
    """Bad user input such as an unknown site, agent, template or task id."""


class TaskFileError(ConfigError):
    """A task file that cannot be read: names the file, line and field."""

    def __init__(self, path: str, line: int, field: str, reason: str):
        self.path, self.line, self.field = path, line, field
        super().__init__(f"{path}:{line}: field '{field}': {reason}")


class AgentFault(WebMDPError):
    """Something the agent did wrong; counted against the agent."""


class InvalidAction(AgentFault):
    """A semantic action whose precondition fails in the current state."""


def shown(value: Any) -> str:
    """``repr(value)`` shortened (:data:`SHOWN_CHARS`): an error message names what the agent
    sent without echoing a huge value into the next observation."""
    text = _REPR.repr(value)
    return text if len(text) <= 2 * SHOWN_CHARS else text[:2 * SHOWN_CHARS] + "..."


def require(cond: bool, message: str) -> None:
    """A transition's precondition: raise :class:`InvalidAction` with ``message`` unless
    ``cond`` holds."""
    if not cond:
        raise InvalidAction(message)


class UnparseableOutput(AgentFault):
    """Model output that does not parse into any action of the grammar."""


class GenerationError(WebMDPError):
    """A task template could not produce a valid task."""


class DistanceUnknown(WebMDPError):
    """A goal distance a caller asked for within a search budget that ran out first: the
    shaped rewards refuse to stand a 0 in for it (:mod:`webmdp.rl.rewards`)."""


class InfrastructureError(WebMDPError):
    """Something outside the agent failed; the episode is recorded as an infrastructure error."""


class BrowserError(InfrastructureError):
    """Chromium crashed, hung or could not be started."""


class ServerError(InfrastructureError):
    """The webmdp server failed or refused a control request."""


def unknown_choice(kind: str, value: str, choices: list[str] | tuple[str, ...]) -> ConfigError:
    """One-line error naming the valid choices."""
    return ConfigError(f"unknown {kind} '{value}'; valid choices: {', '.join(sorted(choices))}")


class ModelEndpointError(InfrastructureError):
    """A model endpoint failed after its retries, or its SDK is not installed."""
