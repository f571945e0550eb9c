"""StepRM as a vision-language model: a LoRA fine-tuning recipe (transformers + peft) that
teaches a local VLM to answer a step's 0-10 grade as text, from the screenshot the step acted on
(marked with its action, as the model grader sees it; a blank image for semantic-mode steps)
and the example's text (instruction, earlier actions, page, action, target element), all from
the step's :class:`~webmdp.synth.preaction.PreActionView`: nothing of the step's outcome.

Everything here needs the optional extra ``webmdp[steprm-vlm]`` (torch, transformers, peft,
tokenizers); they are imported inside the functions, so the default install never loads them.
Models come from a local directory only: nothing is downloaded (``local_files_only``).

- :func:`tiny_model_dir` builds a tiny, randomly initialised LLaVA-style model (a 2-layer CLIP
  vision tower and a 2-layer Llama) from configs, trains its BPE tokenizer locally on the given
  texts and builds its image processor from a config: what ``make test-train`` fine-tunes on a
  CPU end to end.
- :func:`finetune` (the whole recipe from a data set: :func:`webmdp.synth.steprm.train_vlm`)
  fine-tunes a model directory with LoRA on the language model's linear
  layers (the vision tower stays frozen, as in WebSTAR), loss on the grade tokens only,
  and writes the adapter and the processor (``train_vlm`` adds ``card.json``, ``kind: vlm``).
- :func:`grade_vlm` / :class:`VLMScorer` grade examples by greedy decoding; a reply with no
  integer 0-10 is ungraded, never guessed.

On a GPU (bf16), e.g. with a local Qwen2.5-VL-7B-Instruct directory::

    webmdp synth steprm train DATA --out MODEL --vlm /models/Qwen2.5-VL-7B-Instruct \\
        --epochs 2 --lora-r 16
"""

from __future__ import annotations

import json
import math
import random
import re
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from webmdp.errors import ConfigError
from webmdp.synth.preaction import PreActionView

Example = dict[str, Any]
StepInput = Example | PreActionView
VLM_HINT = "pip install 'webmdp[steprm-vlm]'"
ADAPTER_DIR = "adapter"
PROCESSOR_DIR = "processor"
TINY_MARK = "webmdp-tiny-vlm.json"
IMAGE_TOKEN = "<image>"
PROMPT_MAX_CHARS = 1500
LORA_TARGETS = (r".*language_model.*\.(q_proj|k_proj|v_proj|o_proj|gate_proj|up_proj|down_proj)")
"""LoRA goes on the language model's linear layers (attention and MLP); the vision tower and
the projector stay frozen, as in WebSTAR."""
_INT = re.compile(r"\b(10|[0-9])\b")


def _require() -> tuple[Any, Any, Any]:
    """(torch, transformers, peft), or a one-line error naming the extra."""
    try:
        import peft
        import torch
        import transformers
    except ImportError as e:
        raise ConfigError(f"the VLM StepRM needs {e.name or 'torch, transformers and peft'}: "
                          f"{VLM_HINT}") from None
    return torch, transformers, peft


# --- the prompt --------------------------------------------------------------------------------


def prompt_text(view: PreActionView) -> str:
    """The step as the VLM reads it (the screenshot comes as the image): a pre-action view
    only, so the prompt says what the action is and where, never what it did (no surface
    after, no [rejected] or [no change]: the model judges before the action runs)."""
    a, t, page = view.action, view.target, view.page
    lines = [f"Task: {view.instruction}",
             "Earlier actions: " + ("; ".join(view.history[-6:]) if view.history else "none"),
             f"Page: {page.surface or '?'}" + (f" ({page.url})" if page.url else ""),
             f"Action: {a.text}"]
    if t is not None:
        params = ", ".join(f"{k}={v}" for k, v in t.params.items())
        lines.append(f"Target: {t.action}({params}) on {t.surface}"
                     + (" [commit]" if t.commits else ""))
    lines.append("Grade the action 0-10.")
    text = "\n".join(lines)
    return text if len(text) <= PROMPT_MAX_CHARS else text[-PROMPT_MAX_CHARS:]


def example_image(view: PreActionView, size: int = 224) -> Any:
    """The screenshot the step acted on, marked with its action; a blank page when the
    view has none (semantic mode, or a run without screenshots)."""
    from PIL import Image

    shot = view.page.screenshot
    if shot and Path(shot).is_file():
        from webmdp.synth.annotate import annotate

        return annotate(Path(shot).read_bytes(), view.action.raw).convert("RGB")
    return Image.new("RGB", (size, size), "white")


def parse_grade(text: str) -> int | None:
    """The first integer 0-10 of a reply; None when there is none."""
    m = _INT.search(text)
    return int(m.group(1)) if m else None


# --- the tiny model ----------------------------------------------------------------------------

_CORPUS = ("Task: Book the cheapest house in Portland for 1 guest. Earlier actions: none. "
           "Page: SearchResults. Action: Search(query=\"Portland\"). Target: Search(query="
           "Portland) on SearchResults [commit]. Grade the action 0-10. click at (10, 20) "
           "type scroll down finish")


def tiny_model_dir(path: Path, texts: Iterable[str] = (), *, seed: int = 0,
                   image_size: int = 32, patch_size: int = 8, vocab_size: int = 600) -> Path:
    """Write a tiny, randomly initialised LLaVA-style VLM to ``path`` (model, tokenizer, image
    processor), from configs alone: the BPE tokenizer is trained here on ``texts`` (plus a
    built-in sample), the image processor is a CLIP one built from its config. Nothing is
    downloaded. Returns ``path``."""
    torch, transformers, _ = _require()
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers

    specials = ["<unk>", "<pad>", "<s>", "</s>", IMAGE_TOKEN]
    tok = Tokenizer(models.BPE(unk_token="<unk>"))
    tok.normalizer = normalizers.NFKC()
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=specials,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                  show_progress=False)
    corpus = [_CORPUS, *texts, " ".join(str(i) for i in range(11))]
    tok.train_from_iterator(corpus, trainer=trainer)
    tok.add_tokens([str(i) for i in range(11)])  # every grade is one token
    fast = transformers.PreTrainedTokenizerFast(
        tokenizer_object=tok, unk_token="<unk>", pad_token="<pad>", bos_token="<s>",
        eos_token="</s>", extra_special_tokens={"image_token": IMAGE_TOKEN})
    fast.padding_side = "left"
    image_proc = _clip_image_processor(transformers, image_size)
    vision = transformers.CLIPVisionConfig(
        hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=2,
        image_size=image_size, patch_size=patch_size, projection_dim=32)
    text = transformers.LlamaConfig(
        vocab_size=len(fast), hidden_size=64, intermediate_size=128, num_hidden_layers=2,
        num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=2048,
        pad_token_id=fast.pad_token_id, bos_token_id=fast.bos_token_id,
        eos_token_id=fast.eos_token_id, initializer_range=0.2)
    # initializer_range: a frozen random LM head at the usual 0.02 bounds every logit near 0,
    # so no adapter could make the model sure of a grade; wider weights leave it room.
    n_image = (image_size // patch_size) ** 2
    config = transformers.LlavaConfig(
        vision_config=vision, text_config=text,
        image_token_index=fast.convert_tokens_to_ids(IMAGE_TOKEN), image_seq_length=n_image,
        vision_feature_select_strategy="default", vision_feature_layer=-1)
    torch.manual_seed(seed)
    model = transformers.LlavaForConditionalGeneration(config)
    model.generation_config.pad_token_id = fast.pad_token_id
    model.generation_config.eos_token_id = fast.eos_token_id
    processor = transformers.LlavaProcessor(
        image_processor=image_proc, tokenizer=fast, patch_size=patch_size,
        vision_feature_select_strategy="default", num_additional_image_tokens=1,
        image_token=IMAGE_TOKEN)
    path.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(path)
    processor.save_pretrained(path)
    (path / TINY_MARK).write_text(json.dumps(
        {"what": "tiny randomly initialised LLaVA-style VLM for tests", "seed": seed,
         "parameters": sum(p.numel() for p in model.parameters())}, indent=2) + "\n")
    return path


def _clip_image_processor(transformers: Any, size: int) -> Any:
    kw = {"size": {"shortest_edge": size}, "crop_size": {"height": size, "width": size}}
    cls = getattr(transformers, "CLIPImageProcessorPil", None)
    try:
        import torchvision  # noqa: F401
    except ImportError:
        if cls is not None:  # newer transformers: the PIL backend needs no torchvision
            return cls(**kw)
    return transformers.CLIPImageProcessor(**kw)


# --- loading and encoding ----------------------------------------------------------------------


def _device(torch: Any) -> str:
    return "cuda" if torch.cuda.is_available() else "cpu"


def load_base(model_dir: Path) -> tuple[Any, Any]:
    """(model, processor) of a local VLM directory; nothing is downloaded."""
    torch, transformers, _ = _require()
    if not (model_dir / "config.json").is_file():
        raise ConfigError(f"{model_dir}: not a local model directory (no config.json); "
                          "the VLM StepRM never downloads a model")
    dtype = torch.bfloat16 if torch.cuda.is_available() else torch.float32
    auto = (getattr(transformers, "AutoModelForImageTextToText", None)
            or transformers.AutoModelForVision2Seq)
    try:
        processor = transformers.AutoProcessor.from_pretrained(model_dir, local_files_only=True)
        model = auto.from_pretrained(model_dir, local_files_only=True, dtype=dtype)
    except (OSError, ValueError, KeyError) as e:
        raise ConfigError(f"{model_dir}: cannot load the model ({type(e).__name__}: "
                          f"{str(e).splitlines()[0] if str(e) else ''})") from None
    return model.to(_device(torch)), processor


def _view(ex: StepInput) -> PreActionView:
    """The pre-action view of a data-set row (or the view): all the prompt and image read."""
    return ex if isinstance(ex, PreActionView) else PreActionView.of_row(ex)


def _prompt(processor: Any, view: PreActionView) -> str:
    text = prompt_text(view)
    if getattr(processor, "chat_template", None):
        messages = [{"role": "user", "content": [{"type": "image"},
                                                 {"type": "text", "text": text}]}]
        return str(processor.apply_chat_template(messages, add_generation_prompt=True,
                                                 tokenize=False))
    token = getattr(processor, "image_token", IMAGE_TOKEN)
    return f"{token}\n{text}\nGrade:"


def _eos(processor: Any) -> str:
    return str(getattr(processor.tokenizer, "eos_token", None) or "")


def encode(processor: Any, ex: StepInput, with_grade: bool) -> dict[str, Any]:
    """Model inputs of one example (from its pre-action view); with ``with_grade`` (``ex``
    a data-set row), ``labels`` that score only the grade's tokens (and the end-of-sequence)."""
    view = _view(ex)
    prompt, image = _prompt(processor, view), example_image(view)
    if not with_grade:
        return dict(processor(text=[prompt], images=[image], return_tensors="pt"))
    if not isinstance(ex, dict):
        raise TypeError("a training example needs its grade: pass the data-set row")
    full = processor(text=[prompt + f" {int(ex['grade'])}{_eos(processor)}"], images=[image],
                     return_tensors="pt")
    n_prompt = processor(text=[prompt], images=[image], return_tensors="pt")["input_ids"].shape[1]
    labels = full["input_ids"].clone()
    labels[:, :n_prompt] = -100
    if "attention_mask" in full:
        labels[full["attention_mask"] == 0] = -100
    out = dict(full)
    out["labels"] = labels
    return out


def _to(batch: dict[str, Any], device: str, dtype: Any) -> dict[str, Any]:
    out = {}
    for k, v in batch.items():
        if hasattr(v, "to"):
            v = v.to(device)
            if v.is_floating_point():
                v = v.to(dtype)
        out[k] = v
    return out


# --- training and grading ----------------------------------------------------------------------


def finetune(model_dir: Path, train_ex: Sequence[Example], out: Path, *, epochs: int = 1,
             lora_r: int = 16, lr: float = 2e-4, grad_accum: int = 1,
             seed: int = 0) -> tuple[Any, Any, dict[str, Any]]:
    """Fine-tune the local VLM in ``model_dir`` with LoRA to answer each example's grade (loss
    on the grade's tokens only; AdamW, linear warm-up then cosine decay); save ``out/adapter``
    and ``out/processor``. Returns (the adapted model, its processor, figures: the mean loss of
    the first and last tenth of the steps, per-epoch losses, seconds, trainable parameters).
    :func:`webmdp.synth.steprm.train_vlm` is the whole recipe from a data set."""
    torch, _, peft = _require()
    if not train_ex:
        raise ConfigError("no training example to fine-tune on")
    random.seed(seed)
    torch.manual_seed(seed)
    model, processor = load_base(model_dir)
    for p in model.parameters():
        p.requires_grad_(False)
    config = peft.LoraConfig(r=lora_r, lora_alpha=2 * lora_r, lora_dropout=0.05, bias="none",
                             target_modules=LORA_TARGETS)
    model = peft.get_peft_model(model, config)
    params = [p for p in model.parameters() if p.requires_grad]
    if not params:
        raise ConfigError(f"{model_dir}: no q/k/v/o/gate/up/down_proj layer in its language "
                          "model to put LoRA on")
    opt = torch.optim.AdamW(params, lr=lr)
    device, dtype = _device(torch), next(model.parameters()).dtype
    total = epochs * math.ceil(len(train_ex) / grad_accum)
    warm = max(1, total // 30)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / warm) * max(
        0.0, 0.5 * (1 + math.cos(math.pi * min(1.0, s / max(1, total))))))
    losses: list[float] = []
    per_epoch: list[float] = []
    t0 = time.perf_counter()
    model.train()
    rng = random.Random(seed)
    for _ in range(epochs):
        order = list(train_ex)
        rng.shuffle(order)
        epoch_losses: list[float] = []
        for i, ex in enumerate(order):
            batch = _to(encode(processor, ex, with_grade=True), device, dtype)
            loss = model(**batch).loss
            (loss / grad_accum).backward()
            epoch_losses.append(float(loss.detach()))
            if (i + 1) % grad_accum == 0 or i + 1 == len(order):
                torch.nn.utils.clip_grad_norm_(params, 1.0)
                opt.step()
                sched.step()
                opt.zero_grad()
        losses += epoch_losses
        per_epoch.append(round(sum(epoch_losses) / len(epoch_losses), 4))
    train_s = time.perf_counter() - t0
    model.eval()
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out / ADAPTER_DIR)
    processor.save_pretrained(out / PROCESSOR_DIR)
    tenth = max(1, len(losses) // 10)
    stats = {
        "model": f"LoRA r={lora_r} on {type(model.get_base_model()).__name__}",
        "base": str(model_dir.resolve()), "epochs": epochs, "lora_r": lora_r, "lr": lr,
        "grad_accum": grad_accum, "seed": seed, "device": device,
        "train_s": round(train_s, 3), "loss_first": round(sum(losses[:tenth]) / tenth, 4),
        "loss_last": round(sum(losses[-tenth:]) / tenth, 4), "loss_per_epoch": per_epoch,
        "trainable_parameters": sum(p.numel() for p in params),
    }
    return model, processor, stats


def grade_vlm(model: Any, processor: Any, examples: Sequence[StepInput],
              max_new_tokens: int = 4) -> list[tuple[int | None, str]]:
    """(grade or None, reply) for each example by greedy decoding."""
    torch, _, _ = _require()
    device, dtype = _device(torch), next(model.parameters()).dtype
    out: list[tuple[int | None, str]] = []
    tok = processor.tokenizer
    with torch.no_grad():
        for ex in examples:
            batch = _to(encode(processor, ex, with_grade=False), device, dtype)
            gen = model.generate(**batch, max_new_tokens=max_new_tokens, do_sample=False,
                                 pad_token_id=tok.pad_token_id or tok.eos_token_id)
            reply = tok.decode(gen[0, batch["input_ids"].shape[1]:], skip_special_tokens=True)
            out.append((parse_grade(reply), reply))
    return out


class VLMScorer:
    """A fine-tuned VLM StepRM (base model + LoRA adapter) as a scorer: ``grades(examples)``
    gives (grade or None, None) per example."""

    def __init__(self, model_dir: Path):
        _, transformers, peft = _require()
        card = json.loads((model_dir / "card.json").read_text(encoding="utf-8"))
        base = Path(card["base"])
        model, _ = load_base(base)
        self.model = peft.PeftModel.from_pretrained(model, model_dir / ADAPTER_DIR,
                                                    local_files_only=True).eval()
        self.processor = transformers.AutoProcessor.from_pretrained(
            model_dir / PROCESSOR_DIR, local_files_only=True)
        self.cutoff = float(card["cutoff"])

    @classmethod
    def of(cls, model: Any, processor: Any, cutoff: float) -> VLMScorer:
        self = cls.__new__(cls)
        self.model, self.processor, self.cutoff = model, processor, cutoff
        return self

    def grades(self, examples: Sequence[StepInput]) -> list[tuple[int | None, float | None]]:
        return [(g, None) for g, _ in grade_vlm(self.model, self.processor, examples)]
