"""The rollout's tool server: the task's actions as MCP tools over one live webmdp episode.

verifiers launches it per rollout (``python -m webmdp_verifiers.toolset``) and hands it the
rollout's task data (:meth:`WebMDPToolset.setup_task`) before it registers its tools, so the
tools are that task's site's actions: their parameters, enums and length bounds from the same
``ParamSpec``s as ``/webmdp/actions``. The arguments are checked by the site, as every webmdp
agent's are: a refused call (a bad value, an action not on the page, a 1 MB string) is one
step and one line of error, never an exception. Each call is also appended to the shared
state (:class:`~webmdp_verifiers.episode.WebMDPState`), which the host replays to score."""

from __future__ import annotations

import inspect
from typing import Annotated, Any

import verifiers.v1 as vf
from pydantic import Field

from webmdp.integrations.episode_record import tool_name
from webmdp.rl.actions import task_actions
from webmdp.rl.episode import RLEpisode
from webmdp_verifiers.episode import WebMDPState, answer, play, reward_mode, start

_TYPES: dict[str, type] = {"string": str, "integer": int, "number": float, "boolean": bool}


class WebMDPToolset(vf.Toolset[vf.ToolsetConfig, WebMDPState]):
    TOOL_PREFIX = None
    """The tools keep the site's action names (``Search``, ``AddToCart``, ``Finish``)."""

    episode: RLEpisode | None = None

    async def setup_task(self, task: Any) -> None:
        from webmdp_verifiers.taskset import lookup

        web = lookup(task)
        self.episode = start(web, reward_mode(web, task.reward), task.step_budget)

    def register(self, mcp: Any) -> None:
        if self.episode is None:
            return  # a shared, task-agnostic instance: no episode, no tools
        for action in task_actions(self.episode.task):
            mcp.add_tool(self._with_state(self._tool(action["name"], action["parameters"])),
                         name=tool_name(action["name"]),
                         description=action["description"], structured_output=False)

    def _tool(self, name: str, schema: dict[str, Any]) -> Any:
        """A function whose signature advertises the action's parameters (types, enums,
        bounds as JSON schema) while accepting any value, so that the site, not the MCP
        layer, refuses a bad one and the refusal is a step of the episode."""
        def call(**params: Any) -> str:
            assert self.episode is not None
            given = {k: v for k, v in params.items() if v is not None}
            self.state.calls.append({"name": name, "params": given})
            return answer(self.episode, play(self.episode, name, given))

        required = set(schema.get("required", []))
        parameters = []
        for pname, prop in schema.get("properties", {}).items():
            extra = {k: prop[k] for k in ("enum", "maxLength") if k in prop}
            kind: Any = _TYPES.get(prop.get("type", "string"), str)
            annotation = Annotated[kind if pname in required else kind | None,
                                   Field(description=prop.get("description"),
                                         json_schema_extra=extra or None)]
            parameters.append(inspect.Parameter(
                pname, inspect.Parameter.KEYWORD_ONLY, annotation=annotation,
                default=inspect.Parameter.empty if pname in required else None))
        call.__signature__ = inspect.Signature(parameters, return_annotation=str)  # type: ignore[attr-defined]
        call.__name__ = tool_name(name)
        return call


if __name__ == "__main__":
    WebMDPToolset.run()
