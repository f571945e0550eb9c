"""A ``llamafactory-cli train`` config for an SFT export, sized so nothing is cut.

LlamaFactory's defaults would silently damage our samples: ``image_max_pixels`` (589,824)
shrinks a 1440x900 screenshot to 980x616 while the target's coordinates are written for
1428x896, and ``cutoff_len`` (2,048) cuts a three-screenshot sample inside its image tokens.
:func:`train_yaml` sets ``image_max_pixels`` to the largest exported screenshot and
``cutoff_len`` to the longest sample: its image tokens by the Qwen2-VL patch rule (one token per
28x28 patch of the smart-resized image) plus its text estimated at :data:`CHARS_PER_TOKEN`
(no tokenizer download), with :data:`MARGIN`, rounded up to a multiple of 256.

Images are written relative to the export folder (``images/...``). LlamaFactory joins each
path to ``media_dir`` (default: ``dataset_dir``), so the config names the export folder as
both; after copying the folder into LlamaFactory's ``data/`` as ``data/NAME`` and registering
its entry there, set ``media_dir: data/NAME`` (the README shows both).
"""

from __future__ import annotations

import math
from pathlib import Path

from webmdp.agents.llm.grammars.base import smart_resize

PATCH = 28
"""Qwen2-VL: a 14-pixel patch, merged 2x2, is one image token per 28x28 pixels."""
CHARS_PER_TOKEN = 3
"""A conservative text estimate (English is about 4 characters a token; ids and JSON fewer)."""
MARGIN = 1.15
PLACEHOLDERS = {"model_name_or_path": "<MODEL_PATH>", "template": "<TEMPLATE>"}
"""Values only the user can choose: the base model and its LlamaFactory chat template
(``qwen2_vl`` for Qwen2-VL / UI-TARS, ``qwen2_5_vl``, ...)."""


def image_tokens(width: int, height: int, max_pixels: int) -> int:
    """Tokens of one image after Qwen2-VL's ``smart_resize`` (factor 28, at most
    ``max_pixels``): one per 28x28 patch."""
    h, w = smart_resize(height, width, factor=PATCH, max_pixels=max_pixels)
    return (h // PATCH) * (w // PATCH)


def sample_tokens(text_chars: int, sizes: list[tuple[int, int]], max_pixels: int) -> int:
    """An upper estimate of one sample's tokens: its text and its images."""
    return math.ceil(text_chars / CHARS_PER_TOKEN) + sum(
        image_tokens(w, h, max_pixels) for w, h in sizes)


def cutoff_len(longest: int) -> int:
    """``cutoff_len`` for a longest sample of ``longest`` tokens: the margin, rounded up to a
    multiple of 256, and never below LlamaFactory's default 2,048."""
    return max(2048, math.ceil(longest * MARGIN / 256) * 256)


def train_yaml(export_dir: Path, dataset: str, *, image_max_pixels: int | None,
               cutoff: int) -> str:
    """The config text. ``export_dir`` is where the export will live (its final path)."""
    folder = str(export_dir.resolve())
    lines = [
        "# llamafactory-cli train train.yaml  (written by `webmdp synth export`)",
        "# Replace the two <PLACEHOLDERS>: the base model (a local path or hub id) and its",
        "# LlamaFactory template (qwen2_vl for Qwen2-VL / UI-TARS, qwen2_5_vl, ...).",
        "### model",
        f"model_name_or_path: {PLACEHOLDERS['model_name_or_path']}",
        "trust_remote_code: true",
    ]
    if image_max_pixels is not None:
        lines += ["# the largest screenshot, so none is shrunk below the frame its target's",
                  "# coordinates are written in", f"image_max_pixels: {image_max_pixels}"]
    lines += [
        "### method",
        "stage: sft",
        "do_train: true",
        "finetuning_type: lora",
        "lora_target: all",
        "### dataset",
        f"dataset: {dataset}",
        f"dataset_dir: {folder}",
        "# image paths are relative to media_dir; after copying this folder into",
        "# LlamaFactory's data/ as data/NAME, set media_dir: data/NAME",
        f"media_dir: {folder}",
        f"template: {PLACEHOLDERS['template']}",
        "# the longest sample (images by the Qwen2-VL patch rule, text estimated), with margin",
        f"cutoff_len: {cutoff}",
        "### output",
        "output_dir: saves/webmdp-sft",
        "### train",
        "per_device_train_batch_size: 1",
        "gradient_accumulation_steps: 8",
        "learning_rate: 1.0e-4",
        "num_train_epochs: 2.0",
        "bf16: true",
    ]
    return "\n".join(lines) + "\n"
