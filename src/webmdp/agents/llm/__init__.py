"""Model-driven agents: clients (``provider/model``), action grammars of real computer-use
models, observations for models, and the planning paper's three paradigms (``step``, ``plan``,
``tree``)."""

from webmdp.agents.llm.agent import ModelAgent, ModelAgentConfig, Paradigm, StepAgent
from webmdp.agents.llm.clients import PROVIDERS, client_config, make_client, parse_model_id
from webmdp.agents.llm.grammars import GRAMMARS, get_grammar, grammar_names
from webmdp.agents.llm.plan import PlanAgent
from webmdp.agents.llm.tree import TreeAgent
from webmdp.paths import safe_label

PARADIGMS: dict[str, type[ModelAgent]] = {"step": StepAgent, "plan": PlanAgent,
                                          "tree": TreeAgent}


def run_label(paradigm: str, config: ModelAgentConfig) -> str:
    """The agent name a run records: paradigm, model and grammar (safe as a directory name)."""
    model = config.model.replace("/", "_").replace(":", "_")
    value = "-oracle" if paradigm == "tree" and config.value == "oracle" else ""
    return safe_label(f"{paradigm}{value}-{model}-{config.grammar}")


__all__ = ["GRAMMARS", "PARADIGMS", "PROVIDERS", "ModelAgent", "ModelAgentConfig", "Paradigm",
           "PlanAgent", "StepAgent", "TreeAgent", "client_config", "get_grammar",
           "grammar_names", "make_client", "parse_model_id", "run_label"]
