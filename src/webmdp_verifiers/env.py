"""The taskset's environment: verifiers' single-agent env, with the agent's chat loop run as
a local subprocess by default (webmdp needs no sandbox: its tools are a local MCP server and
its sites run in-process), so ``vf-eval webmdp-verifiers`` needs no Prime account.
``--env.agent.runtime.type`` picks another runtime."""

from __future__ import annotations

import verifiers.v1 as vf
from verifiers.v1.runtimes import SubprocessConfig


class WebMDPEnvConfig(vf.EnvConfig):
    agent: vf.AgentConfig = vf.AgentConfig(runtime=SubprocessConfig())
    """The one seat: the policy under evaluation or training (``--env.agent.*``)."""


class WebMDPEnv(vf.Env[WebMDPEnvConfig]):
    """One ``agent`` seat playing the taskset, as verifiers' ``SingleAgentEnv``."""

    async def run(self, task: vf.Task, agents: vf.Agents) -> None:
        await agents.agent.run(task)
