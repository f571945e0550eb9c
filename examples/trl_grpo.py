"""GRPO on webmdp's sites with TRL, the environment running in the trainer's process.

Each dataset row is one task (:func:`webmdp.rl.dataset.rows`); TRL gives every rollout its own
instance of the site's environment class (:func:`webmdp.rl.trl.environment`), whose ``reset``
starts the row's task and whose public methods (the site's semantic actions and ``finish``)
are the model's tools. The episode's reward (``get_reward``: the verifier's 1/0, potential-based
shaping of it, or a cross-site rubric score) is the GRPO reward; TRL logs it as
``rewards/<ClassName>/mean`` beside ``tools/call_frequency`` and ``tools/failure_frequency``.
The exact verdict rides along as a reward function of weight 0 (:func:`webmdp.rl.trl.success`),
so ``rewards/success/mean`` is the success rate, the figure to report whatever the reward.
Training draws from ``--split train`` (narrowed by ``--level``) under ``--holdout``; the
environment classes refuse any task outside it, so no test task is ever trained on.

Run it on a GPU machine::

    pip install 'webmdp[trl]'
    python examples/trl_grpo.py --model Qwen/Qwen3-1.7B
    python examples/trl_grpo.py --model Qwen/Qwen3-1.7B --level 1 --use-vllm
    python examples/trl_grpo.py --holdout template   # test on templates never trained on
    python examples/trl_grpo.py --site all --max-steps 500   # every site, one class per site

``--site all`` gives TRL a ``{site: class}`` dict, and the dataset's ``environment`` column
routes each row to its site's class. The model's chat template must be one TRL can parse tool
calls for (Qwen3, Qwen2.5, Llama 3.1/3.2, GPT-OSS, ...). A trainer outside this process
(another framework, another machine) reaches the same environments through the OpenEnv server
instead: ``webmdp rl serve``.

:func:`build_trainer` takes an already built model and tokenizer too, which is how the CPU test
(tests/train/test_trl_grpo.py) runs one step with a tiny model.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer

REWARDS = ("terminal", "dense", "dense-state", "rubric")
LEVELS = ("1", "2", "3", "none")


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--model", default="Qwen/Qwen3-1.7B",
                   help="a Hub id or local path of a causal LM with a tool-calling chat template")
    p.add_argument("--site", default="shopping",
                   help="a site, 'all' (every site, one class each) or 'cross-site'")
    p.add_argument("--split", default=None,
                   help="train (the default; with --tasks: file), or a whole source: cross-site")
    p.add_argument("--level", choices=LEVELS, default=None,
                   help="narrow the split to this measured difficulty level (a curriculum)")
    p.add_argument("--holdout", default="task",
                   help="what the test split holds out: task, template or site:NAME")
    p.add_argument("--tasks", default=None, help="a task file of your own (split 'file')")
    p.add_argument("--limit", type=int, default=None, help="at most this many tasks")
    p.add_argument("--mode", choices=("semantic", "browser"), default="semantic",
                   help="semantic: the site's actions as tools, text pages; browser: GUI "
                        "actions in Chromium, each returning the screenshot and the "
                        "accessibility tree (needs a vision-language model)")
    p.add_argument("--reward", choices=REWARDS, default="terminal",
                   help="terminal (verdict 1/0), dense (potential-based shaping counting "
                        "the information constraints), dense-state or rubric")
    p.add_argument("--step-budget", type=int, default=None,
                   help="steps per episode (default: webmdp's)")
    p.add_argument("--output-dir", default="outputs/webmdp-grpo")
    p.add_argument("--num-generations", type=int, default=8, help="rollouts per task (G)")
    p.add_argument("--per-device-train-batch-size", type=int, default=None,
                   help="default: --num-generations (one task per device and step)")
    p.add_argument("--gradient-accumulation-steps", type=int, default=1)
    p.add_argument("--max-steps", type=int, default=200)
    p.add_argument("--learning-rate", type=float, default=1e-6)
    p.add_argument("--beta", type=float, default=0.0, help="KL coefficient (0: no ref model)")
    p.add_argument("--temperature", type=float, default=1.0)
    p.add_argument("--max-completion-length", type=int, default=8192,
                   help="tokens of the whole multi-turn completion (calls and pages)")
    p.add_argument("--max-tool-calls", type=int, default=None,
                   help="tool-calling turns per rollout (default: no limit but the budget)")
    p.add_argument("--thinking", action="store_true",
                   help="let a Qwen3-style template think (enable_thinking=True)")
    p.add_argument("--use-vllm", action="store_true", help="generate with vLLM")
    p.add_argument("--vllm-mode", choices=("colocate", "server"), default="colocate")
    p.add_argument("--bf16", action=argparse.BooleanOptionalAction, default=None,
                   help="bf16 mixed precision (default: when the GPU supports it)")
    p.add_argument("--gradient-checkpointing", action=argparse.BooleanOptionalAction,
                   default=True)
    p.add_argument("--logging-steps", type=int, default=1)
    p.add_argument("--save-steps", type=int, default=100)
    p.add_argument("--report-to", default="none", help="none, wandb, tensorboard, trackio, ...")
    p.add_argument("--log-completions", action="store_true")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    if args.limit is not None and args.limit < 1:
        p.error("--limit must be at least 1")
    if args.tasks and args.split not in (None, "file"):
        p.error(f"--tasks is the split 'file'; --split {args.split} would ignore it")
    from webmdp.rl.splits import default_split

    args.split = default_split(args.split, args.tasks)
    return args


def dataset(args: argparse.Namespace) -> Dataset:
    """The split's rows (``prompt``, ``task_id``, ``site``, ``template``, ``level``,
    ``split``, ``holdout``, ``split_version`` and for ``all`` ``environment``), narrowed to
    ``level``, then cut to ``limit``."""
    from datasets import Dataset

    from webmdp.rl.dataset import rows

    data = rows(args.site, args.split, args.limit, level=args.level, holdout=args.holdout,
                tasks=args.tasks)
    if not data:
        raise SystemExit(f"no task in {args.site}/{args.split}"
                         + (f" at level {args.level}" if args.level else ""))
    return Dataset.from_list(data)


def environment_factory(args: argparse.Namespace, data: Dataset | None = None) -> Any:
    """One class for a site; for ``all`` a ``{name: class}`` dict over the names in the
    dataset's ``environment`` column (only the classes the rows need), or over every site and
    the cross-site suite without a dataset."""
    from webmdp.rl.trl import environment

    kwargs: dict[str, Any] = {"split": args.split, "level": args.level,
                              "holdout": args.holdout, "tasks": args.tasks}
    if args.step_budget is not None:
        kwargs["step_budget"] = args.step_budget
    site: str | list[str] = args.site
    if data is not None and "environment" in data.column_names:
        site = sorted(set(data["environment"]))
    return environment(site, args.mode, args.reward, **kwargs)


def config(args: argparse.Namespace) -> GRPOConfig:
    import torch
    from trl import GRPOConfig

    cuda = torch.cuda.is_available()
    bf16 = args.bf16 if args.bf16 is not None else cuda and torch.cuda.is_bf16_supported()
    # newer transformers renamed gradient_checkpointing (the old name warns)
    checkpointing = ("activation_checkpointing"
                     if "activation_checkpointing" in GRPOConfig.__dataclass_fields__
                     else "gradient_checkpointing")
    return GRPOConfig(
        output_dir=args.output_dir,
        learning_rate=args.learning_rate,
        beta=args.beta,
        temperature=args.temperature,
        num_generations=args.num_generations,
        per_device_train_batch_size=args.per_device_train_batch_size or args.num_generations,
        gradient_accumulation_steps=args.gradient_accumulation_steps,
        max_steps=args.max_steps,
        max_completion_length=args.max_completion_length,
        max_tool_calling_iterations=args.max_tool_calls,
        chat_template_kwargs={"enable_thinking": args.thinking},
        use_vllm=args.use_vllm,
        vllm_mode=args.vllm_mode,
        bf16=bf16,
        use_cpu=not cuda,
        **{checkpointing: args.gradient_checkpointing},
        logging_steps=args.logging_steps,
        save_steps=args.save_steps,
        report_to=args.report_to,
        log_completions=args.log_completions,
        seed=args.seed,
        reward_weights=[0.0],  # success: logged, not trained on (TRL adds get_reward at 1)
    )


def build_trainer(args: argparse.Namespace, model: Any = None, processing_class: Any = None,
                  train_dataset: Dataset | None = None) -> GRPOTrainer:
    """The trainer: ``model`` (default: ``args.model``, loaded by TRL), its tokenizer (default:
    the model's own), ``train_dataset`` (default: :func:`dataset`). The environment owns the
    reward (``get_reward``); the one reward function passed is the verdict, at weight 0."""
    from trl import GRPOTrainer

    from webmdp.rl.trl import success

    data = dataset(args) if train_dataset is None else train_dataset
    return GRPOTrainer(
        model=args.model if model is None else model,
        processing_class=processing_class,
        args=config(args),
        train_dataset=data,
        reward_funcs=[success],
        environment_factory=environment_factory(args, data),
    )


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    try:
        import datasets  # noqa: F401
        import trl  # noqa: F401
    except ImportError as exc:
        raise SystemExit(f"this example needs TRL: pip install 'webmdp[trl]' ({exc})") from None
    try:
        data = dataset(args)
    except ValueError as exc:  # an unknown site or split: webmdp's one-line message
        raise SystemExit(f"error: {exc}") from None
    trainer = build_trainer(args, train_dataset=data)
    trainer.train()
    trainer.save_model(args.output_dir)


if __name__ == "__main__":
    main()
