"""Operation codes (WebForge §D.5, Table 13): what a commit shows, and what a returned code
stands for.

Every commit (an action that changes the application state's facts) shows a confirmation code
computed on the server. When every verifier condition holds after it, the code is an HMAC of
the task's secret and the committed values (the facts the verifier reads): the **gold code**.
Otherwise it is an HMAC of the secret and the sorted ids of the failing conditions, so each
set of mistakes (a wrong date, a wrong count, a wrong option, or several at once) yields its
own **deceptive code**, in the same format. A returned code is decoded back into the mistakes
it stands for (:func:`explain`).

The threat model is an agent inspecting pages: the secret derives from the task's public seed,
and neither it nor the conditions are ever sent to a page (only the code a commit earns is).
For a leaderboard, whose task files are public, an install key (``WEBMDP_CODE_KEY``) is mixed
into every task secret, so holding a task file no longer tells a gold code from a wrong one.
A run records the key's fingerprint (:func:`key_fingerprint`, never the key), and commands that
read a run's codes refuse a shell whose key differs. Without a key, codes are what they were.
The fingerprint is a slow key derivation (scrypt, :data:`KDF`), so that a run's manifest does
not let a key be guessed offline; a new run refuses a key shorter than :data:`KEY_MIN_LEN`.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import itertools
import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from webmdp.errors import ConfigError
from webmdp.redact import register as register_secret
from webmdp.tasks.model import Condition, Task
from webmdp.tasks.verifier import check_condition

CODE = re.compile(r"\b([A-Z]{2,4})-([A-Z2-7]{4})-([A-Z2-7]{4})\b")
"""A confirmation code as pages show it: ``SHP-7K3Q-9XJ2``."""
MAX_EXPLAINED = 12
"""Conditions up to which :func:`explain` tries every set of mistakes (2^12 codes)."""


@dataclass(frozen=True)
class Coder:
    """Computes a task's codes: its secret, verifier conditions and code prefix."""

    secret: bytes
    conditions: tuple[Condition, ...]
    prefix: str

    @classmethod
    def of(cls, task: Task) -> Coder:
        return cls(task_secret(task), tuple(task.verifier), prefix_of(task.site))

    def failing(self, facts: dict[str, Any]) -> list[int]:
        """Ids (indices in the verifier) of the conditions ``facts`` break."""
        return [i for i, c in enumerate(self.conditions) if not check_condition(c, facts)]

    def code(self, facts: dict[str, Any]) -> str:
        """The code a commit that leaves ``facts`` shows."""
        bad = self.failing(facts)
        if bad:
            return self._code("fail:" + ",".join(map(str, sorted(bad))))
        committed = {c.fact: facts.get(c.fact) for c in self.conditions}
        return self._code("gold:" + json.dumps(committed, sort_keys=True, default=str))

    def deceptive(self, failing: Sequence[int]) -> str:
        return self._code("fail:" + ",".join(map(str, sorted(failing))))

    def _code(self, message: str) -> str:
        digest = hmac.new(self.secret, message.encode(), hashlib.sha256).digest()
        body = base64.b32encode(digest[:5]).decode()
        return f"{self.prefix}-{body[:4]}-{body[4:8]}"

    def to_json(self) -> dict[str, Any]:
        """What the server's session needs (sent on the control API, never to a page)."""
        return {"secret": self.secret.hex(), "prefix": self.prefix,
                "conditions": [c.model_dump(mode="json") for c in self.conditions]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Coder:
        return cls(bytes.fromhex(data["secret"]),
                   tuple(Condition.model_validate(c) for c in data["conditions"]),
                   str(data["prefix"]))


CODE_KEY_ENV = "WEBMDP_CODE_KEY"


def install_key() -> bytes | None:
    """The install key of ``WEBMDP_CODE_KEY`` (registered as a secret: never written)."""
    key = os.environ.get(CODE_KEY_ENV) or None
    register_secret(key)
    return None if key is None else key.encode()


KDF = "scrypt"
"""How a new run's key fingerprint is derived (recorded as the manifest's ``code_key_kdf``)."""
LEGACY_KDF = "sha256"
"""The derivation of a run recorded without ``code_key_kdf``: still checked with it."""
KEY_MIN_LEN = 16
"""The shortest ``WEBMDP_CODE_KEY`` a new run accepts."""
KDF_SALT = b"webmdp code-key fingerprint v1"
"""scrypt's fixed salt (it names webmdp); its cost is n=2^14, r=8, p=1 (16 MiB, ~0.1 s)."""


def key_fingerprint(kdf: str = KDF) -> str | None:
    """A short digest that tells keys apart without revealing one (derived by ``kdf``: scrypt
    for a new run, ``sha256`` for a run recorded before it); ``None`` without a key."""
    key = install_key()
    return None if key is None else _fingerprint(key, kdf)


@functools.lru_cache(maxsize=4)
def _fingerprint(key: bytes, kdf: str) -> str:
    if kdf == KDF:
        return hashlib.scrypt(key, salt=KDF_SALT, n=2 ** 14, r=8, p=1, dklen=8).hex()
    if kdf == LEGACY_KDF:
        return hashlib.sha256(b"webmdp-code-key:" + key).hexdigest()[:16]
    raise ConfigError(f"unknown code-key derivation {kdf!r} (a run made by a newer webmdp?)")


def check_new_key() -> None:
    """Refuse, for a new run, an install key short enough to recover from its fingerprint."""
    key = os.environ.get(CODE_KEY_ENV) or ""
    if 0 < len(key) < KEY_MIN_LEN:
        raise ConfigError(f"{CODE_KEY_ENV} has {len(key)} characters; a new run needs at least "
                          f"{KEY_MIN_LEN}, so that its recorded fingerprint cannot be reversed")


def task_secret(task: Task) -> bytes:
    """The task's code secret: derived from its public id and seed, and keyed by the install
    key when there is one."""
    base = hashlib.sha256(f"webmdp-code:{task.site}:{task.id}:{task.seed}".encode()).digest()
    key = install_key()
    return base if key is None else hmac.new(key, base, hashlib.sha256).digest()


def prefix_of(site: str) -> str:
    return (re.sub(r"[^A-Za-z]", "", site)[:3] or "WMD").upper().ljust(2, "X")


def gold_code(task: Task) -> str:
    """The code the oracle's commit shows (the only code of a correct commit)."""
    from webmdp.core.model import World
    from webmdp.core.registry import get_site
    from webmdp.tasks.replay import replay

    site = get_site(task.site)
    final = replay(site, World.from_dict(task.world), task.oracle_actions()).final
    return Coder.of(task).code(site.facts(final))


@dataclass(frozen=True)
class Meaning:
    """What a returned code stands for: the gold commit, a set of failing conditions, or
    nothing this task can show (``known`` False)."""

    code: str
    known: bool
    gold: bool = False
    failing: tuple[Condition, ...] = ()

    def describe(self) -> str:
        if not self.known:
            return "not a code this task shows"
        if self.gold:
            return "the correct commit"
        return "fails: " + "; ".join(c.description or f"{c.fact} {c.op} {c.value!r}"
                                     for c in self.failing)


def find_code(text: str | None) -> str | None:
    """The first confirmation code in an answer, normalised to upper case."""
    m = CODE.search((text or "").upper())
    return m.group(0) if m else None


def explain(task: Task, code: str) -> Meaning:
    """Decode a returned code: the gold code, or the set of mistakes whose deceptive code it
    is (every subset of the verifier's conditions is tried, up to :data:`MAX_EXPLAINED`)."""
    coder = Coder.of(task)
    code = code.strip().upper()
    if code == gold_code(task):
        return Meaning(code, True, gold=True)
    ids = range(min(len(coder.conditions), MAX_EXPLAINED))
    for k in range(1, len(ids) + 1):
        for combo in itertools.combinations(ids, k):
            if coder.deceptive(combo) == code:
                return Meaning(code, True, failing=tuple(coder.conditions[i] for i in combo))
    return Meaning(code, False)
