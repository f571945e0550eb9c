"""Every form of a credential is scrubbed (:mod:`webmdp.redact`): a URL query parameter by its
name, and a registered secret as it is, in any letter case, percent-, JSON- or HTML-escaped,
and base64-encoded (both alphabets, at any byte alignment inside a longer string), including
the Basic-auth header of a URL's ``user:password``. Ordinary text, and secrets shorter than
:data:`~webmdp.redact.MIN_LEN`, are left alone."""

from __future__ import annotations

import base64
import json
import random
import string
from urllib.parse import quote, quote_plus

import pytest
from markupsafe import escape

from webmdp import redact
from webmdp.redact import MIN_LEN, REDACTED, redact_argv, redact_url, register, scrub

SECRET = "wmdp-Sc+rub/Te&st:\u00f1-42"  # reserved, HTML-special and non-ASCII characters
URLSAFE = str.maketrans("+/", "-_")
register(SECRET)


def cores(secret: str) -> set[str]:
    """The base64 characters that depend on ``secret`` alone, at each byte alignment, in both
    alphabets (computed here independently of the scrubber)."""
    raw, out = secret.encode(), set()
    for k in range(3):
        whole = base64.b64encode(b"\0" * k + raw + b"\0\0").decode()
        core = whole[(8 * k + 5) // 6:8 * (k + len(raw)) // 6]
        out |= {core, core.translate(URLSAFE)}
    return out


@pytest.mark.parametrize("name", ["access_token", "apikey", "api_key", "auth_token", "password",
                                  "passwd", "signature", "X-Amz-Signature", "X-Amz-Credential",
                                  "client_secret", "sig", "auth", "key", "TOKEN", "oauth"])
def test_a_query_parameter_named_for_a_credential_is_blanked(name: str) -> None:
    assert redact_url(f"https://h/p?q=1&{name}=V4lue&x=2") == f"https://h/p?q=1&{name}=***&x=2"
    assert redact_url(f"https://h/p?{name}=V4lue") == f"https://h/p?{name}=***"
    html = f'<a href="https://h/p?q=1&amp;{name}=V4lue">'  # as a page shows it
    assert scrub(html) == f'<a href="https://h/p?q=1&amp;{name}=***">'
    assert redact.credential_param(name)


@pytest.mark.parametrize("name", ["q", "max_tokens", "tokens", "keyword", "author", "design",
                                  "sort", "page"])
def test_an_ordinary_query_parameter_stays(name: str) -> None:
    url = f"https://h/p?{name}=value&b=2"
    assert redact_url(url) == url and scrub(url) == url


@pytest.mark.parametrize("form", [
    SECRET, SECRET.upper(), SECRET.lower(), SECRET.swapcase(), quote(SECRET, safe=""),
    quote(SECRET), quote_plus(SECRET), quote(SECRET, safe="").lower(), json.dumps(SECRET)[1:-1],
    json.dumps(SECRET, ensure_ascii=False)[1:-1], str(escape(SECRET))])
def test_a_registered_secret_is_blanked_in_every_text_form(form: str) -> None:
    assert scrub(f"before {form} after") == f"before {REDACTED} after"


@pytest.mark.parametrize("offset", [0, 1, 2, 3, 4, 5])
@pytest.mark.parametrize("alphabet", ["standard", "urlsafe"])
def test_a_secret_base64_encoded_inside_a_longer_string_is_found(offset: int,
                                                                 alphabet: str) -> None:
    encode = base64.b64encode if alphabet == "standard" else base64.urlsafe_b64encode
    blob = bytes(range(65, 65 + offset)) + SECRET.encode() + b" and what follows it"
    text = f"data:{encode(blob).decode()};"
    out = scrub(text)
    assert REDACTED in out and not [c for c in cores(SECRET) if c in out], out
    assert out.startswith("data:") and out.endswith(";")
    assert scrub(encode(SECRET.encode()).decode()) == REDACTED  # a whole encoding goes whole


def test_the_basic_header_of_a_urls_userinfo_is_blanked() -> None:
    url = "https://alice:pa%40ss-word-9Z@host.example/v1?access_token=tok-abc-123456&x=1"
    redact.register_url(url)
    header = "Basic " + base64.b64encode(b"alice:pa@ss-word-9Z").decode()
    assert scrub(f"Authorization: {header}") == f"Authorization: Basic {REDACTED}"
    assert scrub("the password pa@ss-word-9Z") == f"the password {REDACTED}"
    assert scrub("the token tok-abc-123456 alone") == f"the token {REDACTED} alone"
    assert redact_url(url) == "https://alice:***@host.example/v1?access_token=***&x=1"


def test_a_url_in_argv_registers_its_credentials() -> None:
    argv = ["--base-url", "http://u:argv-pass-98765@h/v1", "--max-tokens", "9"]
    assert redact_argv(argv) == ["--base-url", "http://u:***@h/v1", "--max-tokens", "9"]
    assert scrub("argv-pass-98765 ARGV-PASS-98765") == f"{REDACTED} {REDACTED}"


def test_a_secret_shorter_than_the_minimum_is_not_searched_for_in_text() -> None:
    assert MIN_LEN == 8
    register("sh0rt7x")  # 7 characters: blanked in argv and URLs only
    assert scrub("a sh0rt7x b") == "a sh0rt7x b"
    assert redact_argv(["--api-key", "sh0rt7x"]) == ["--api-key", REDACTED]
    register("e1ght8ch")  # 8: searched for, and its shortest base64 core is 10 characters
    assert scrub("a E1GHT8CH b") == f"a {REDACTED} b"
    assert min(len(c) for c in cores("e1ght8ch")) == 10


def test_ordinary_text_is_left_alone() -> None:
    rnd = random.Random(7)
    words = " ".join(rnd.choice(["the", "key", "token", "auth", "sig", "password", "base64",
                                 "Basic", "user:pass", "api_key", "%2F", "=", "&amp;"])
                     for _ in range(3000))
    blob = base64.b64encode(rnd.randbytes(30_000)).decode()
    page = json.dumps({"text": words, "png": blob, "url": "https://example.com/a?q=1&page=2"})
    assert scrub(page) == page


def test_a_megabyte_without_secrets_comes_back_as_it_is() -> None:
    """One compiled pattern over every form of every secret, made once per set of secrets;
    its speed is measured in benchmarks/bench_redact.py, not asserted here."""
    rnd = random.Random(3)
    text = "".join(rnd.choice(string.ascii_letters + string.digits + ' ,:{}"\n')
                   for _ in range(1_000_000))
    scrub("warm")  # compiles the pattern for this set of secrets
    assert scrub(text) == text


def test_an_environment_secret_set_or_changed_between_writes_is_blanked(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WEBMDP_TEST_API_KEY", raising=False)
    assert scrub("nothing here") == "nothing here"  # the names are read once here...
    monkeypatch.setenv("WEBMDP_TEST_API_KEY", "sk-first-value-0a1b2c")
    assert scrub("key sk-first-value-0a1b2c") == f"key {REDACTED}"  # ...and again when one is added
    monkeypatch.setenv("WEBMDP_TEST_API_KEY", "sk-second-value-3d4e5f")
    assert scrub("key sk-second-value-3d4e5f") == f"key {REDACTED}"  # a new value, same name
