"""A typed OpenEnv client for the webmdp server: OpenEnv's ``EnvClient`` (one WebSocket
session per client) with webmdp's action, observation and state models.

    with WebMDPClient(base_url="http://127.0.0.1:8000").sync() as env:
        result = env.reset(split="train", index=3)
        result = env.step(WebMDPAction(name="Search", params={"query": "lamp"}))
"""

from __future__ import annotations

from typing import Any

from webmdp.rl import lean  # noqa: F401  (first: OpenEnv loads without its web UI)

# isort: split
from openenv.core.client_types import StepResult
from openenv.core.env_client import EnvClient

from webmdp.rl.openenv import WebMDPAction, WebMDPObservation, WebMDPState


class WebMDPClient(EnvClient[WebMDPAction, WebMDPObservation, WebMDPState]):
    """Parses the server's wire format into webmdp's models; nothing else of its own."""

    def _step_payload(self, action: WebMDPAction) -> dict[str, Any]:
        return action.model_dump(exclude_defaults=False)

    def _parse_result(self, payload: dict[str, Any]) -> StepResult[WebMDPObservation]:
        fields = {k: v for k, v in payload.get("observation", {}).items()
                  if k in WebMDPObservation.model_fields}
        obs = WebMDPObservation(**{**fields, "done": payload.get("done", False),
                                   "reward": payload.get("reward")})
        return StepResult(observation=obs, reward=payload.get("reward"),
                          done=bool(payload.get("done", False)))

    def _parse_state(self, payload: dict[str, Any]) -> WebMDPState:
        return WebMDPState.model_validate(payload)
