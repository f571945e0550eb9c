"""One GRPO step with TRL's ``GRPOTrainer(environment_factory=...)`` on CPU, through the
example script's own ``build_trainer`` (examples/trl_grpo.py): a tiny randomly initialised
Qwen3 built from a config, a byte-level BPE tokenizer trained here and given TRL's Qwen3 chat
template (so TRL parses its tool calls), and ``generate`` patched, as TRL's own tests do, to
play a task's oracle as Qwen3 tool calls in one rollout and to refuse in the other. The
environment's verifier reward (1 and 0) then drives a real update. Nothing is downloaded.
`make test-train`; skipped without `webmdp[trl]`."""

from __future__ import annotations

import importlib.util
import inspect
import json
from pathlib import Path
from types import ModuleType
from typing import Any
from unittest.mock import patch

import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers", minversion="5.2")
trl = pytest.importorskip("trl", minversion="1.16")
datasets = pytest.importorskip("datasets")
tokenizers = pytest.importorskip("tokenizers")

from trl.chat_template_utils import qwen3_chat_template  # noqa: E402

from webmdp.rl.dataset import rows  # noqa: E402
from webmdp.rl.splits import Catalog  # noqa: E402
from webmdp.rl.trl import WebMDPToolEnv, class_name, environment, method_name  # noqa: E402

pytestmark = pytest.mark.train

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "trl_grpo.py"
SITE = "shopping"
SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
ADDED = ["<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>", "<think>",
         "</think>"]
REFUSAL = "I cannot do this.<|im_end|>"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("webmdp_example_trl_grpo", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _call(name: str, arguments: dict[str, Any]) -> str:
    """A Qwen3 tool call, as the model would write it."""
    call = json.dumps({"name": name, "arguments": arguments})
    return f"<tool_call>\n{call}\n</tool_call><|im_end|>"


def _corpus(row: dict[str, Any], oracle: list[tuple[str, dict[str, Any]]]) -> list[str]:
    """Text like what the tokenizer will see: the tools' schemas, the task, its pages."""
    cls = environment(SITE)
    env = cls()
    texts = [row["prompt"][0]["content"], env.reset(**row)]
    texts += [getattr(env, name)(**args) for name, args in oracle]
    tools = [getattr(env, n) for n, _ in inspect.getmembers(cls, inspect.isfunction)
             if not n.startswith("_") and n not in ("reset", "get_reward")]  # as TRL lists them
    texts += [json.dumps(transformers.utils.get_json_schema(t)) for t in tools]
    return [*texts, *(_call(n, a) for n, a in oracle), REFUSAL]


def _tokenizer(corpus: list[str]) -> Any:
    """A byte-level BPE tokenizer with Qwen3's special tokens and TRL's Qwen3 template."""
    from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=1024, special_tokens=SPECIAL, show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(corpus, trainer=trainer)
    tok.add_tokens([AddedToken(t, normalized=False, special=False) for t in ADDED])
    fast = transformers.PreTrainedTokenizerFast(
        tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>",
        chat_template=qwen3_chat_template)
    fast.padding_side = "left"
    return fast


def _model(tok: Any) -> Any:
    config = transformers.Qwen3Config(
        vocab_size=len(tok), hidden_size=32, intermediate_size=64, num_hidden_layers=1,
        num_attention_heads=2, num_key_value_heads=1, head_dim=16,
        max_position_embeddings=16384, tie_word_embeddings=False,
        bos_token_id=None, eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id)
    torch.manual_seed(0)
    model = transformers.Qwen3ForCausalLM(config)
    model.generation_config.eos_token_id = tok.eos_token_id
    model.generation_config.pad_token_id = tok.pad_token_id
    return model


def test_one_grpo_step(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRL_EXPERIMENTAL_SILENCE", "1")
    # the level-1 train task with the shortest oracle, as `--split train --level 1` gives it
    catalog = Catalog(SITE)
    tasks = {t.id: t for t in catalog.pool()}
    test_ids = {t.id for t in catalog.tasks("test")}
    train_rows = rows(SITE, "train", level=1)
    assert train_rows and not {r["task_id"] for r in train_rows} & test_ids
    row = min(train_rows, key=lambda r: len(tasks[r["task_id"]].oracle))
    task = tasks[row["task_id"]]
    oracle = [(method_name(a.name), dict(a.params)) for a in task.oracle]
    if not oracle or oracle[-1][0] != "finish":
        oracle.append(("finish", {"answer": task.answer} if task.answer else {}))
    tok = _tokenizer(_corpus(row, oracle))
    model = _model(tok)

    example = _example()
    args = example.parse_args([
        "--site", SITE, "--split", "train", "--level", "1",
        "--output-dir", str(tmp_path), "--num-generations", "2",
        "--max-steps", "1", "--learning-rate", "0.1", "--max-completion-length", "4096",
        "--no-bf16", "--no-gradient-checkpointing", "--save-steps", "1000"])
    trainer = example.build_trainer(args, model=model, processing_class=tok,
                                    train_dataset=datasets.Dataset.from_list([row]))
    env_name = class_name(SITE)
    # the verdict at weight 0 beside the environment's own reward, which TRL adds at 1
    assert sorted(trainer.reward_func_names) == sorted(["success", env_name])
    weights = dict(zip(trainer.reward_func_names, trainer.reward_weights.tolist(), strict=True))
    assert weights == {"success": 0.0, env_name: 1.0}
    assert {t.__name__ for t in trainer.tools} >= {"search", "finish"}

    # rollout 0 plays the oracle and finishes, then says a closing word; rollout 1 refuses
    script = [*(_call(n, a) for n, a in oracle), "Done.<|im_end|>"]
    calls: list[int] = []

    def fake_generate(input_ids: Any, **kwargs: Any) -> Any:
        turn = len(calls)
        calls.append(input_ids.shape[0])
        texts = [script[min(turn, len(script) - 1)]]
        if turn == 0:  # the first call holds both generations of the one prompt
            texts = [*texts, REFUSAL][: input_ids.shape[0]]
        ids = [tok.encode(t, add_special_tokens=False) for t in texts]
        width = max(map(len, ids))
        out = [i + [tok.pad_token_id] * (width - len(i)) for i in ids]
        return torch.cat([input_ids, torch.tensor(out, device=input_ids.device)], dim=-1)

    before = {n: p.detach().clone() for n, p in trainer.model.named_parameters()}
    started: list[str] = []
    real_reset = WebMDPToolEnv.reset

    def reset(self: WebMDPToolEnv, **kw: Any) -> Any:
        started.append(kw["task_id"])
        return real_reset(self, **kw)

    with patch.object(trainer.model, "generate", side_effect=fake_generate), \
            patch.object(WebMDPToolEnv, "reset", reset):
        trainer.train()
    assert started and not set(started) & test_ids  # no rollout ran a test task

    assert calls == [2] + [1] * (len(script) - 1), calls
    logs = {k: v for entry in trainer.state.log_history for k, v in entry.items()}
    assert logs["tools/call_frequency"] == pytest.approx(len(oracle) / 2)
    assert logs["tools/failure_frequency"] == pytest.approx(0.0)
    assert logs[f"rewards/{env_name}/mean"] == pytest.approx(0.5)  # verdicts 1 and 0
    assert logs["rewards/success/mean"] == pytest.approx(0.5)  # the success rate
    assert logs["train_loss"] is not None
    changed = [n for n, p in trainer.model.named_parameters() if not torch.equal(before[n], p)]
    assert changed == list(before), f"unchanged: {set(before) - set(changed)}"
