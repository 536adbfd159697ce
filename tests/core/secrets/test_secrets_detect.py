"""Every planted secret is found and redacted; ordinary text is left alone."""

from __future__ import annotations

import base64
from collections import Counter

import pytest

from pitui.core.secrets import find_secrets, redact, redact_json
from pitui.core.secrets.entropy import looks_random, shannon_entropy
from tests.core.secrets.planted import ORDINARY, PEM, PLANTED

CASES = [(kind, secret, text) for kind, items in PLANTED.items() for secret, text in items]


@pytest.mark.parametrize(("kind", "secret", "template"), CASES, ids=[c[0] for c in CASES])
def test_planted_secret_is_redacted_with_its_kind(kind: str, secret: str, template: str) -> None:
    text = template.format(secret)
    redacted, counts = redact(text)
    assert secret not in redacted
    assert f"[REDACTED:{kind}]" in redacted
    assert counts == Counter({kind: 1})
    # The text around the secret survives.
    before, after = template.split("{}")
    assert redacted == before + f"[REDACTED:{kind}]" + after


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_text_is_not_redacted(text: str) -> None:
    assert find_secrets(text) == []
    assert redact(text) == (text, Counter())


def test_all_kinds_in_one_text_none_survives() -> None:
    text = "\n".join(t.format(s) for _, s, t in CASES) + "\n" + "\n".join(ORDINARY)
    redacted, counts = redact(text)
    for _, secret, _ in CASES:
        assert secret not in redacted
    for ordinary in ORDINARY:
        assert ordinary in redacted
    assert sum(counts.values()) == len(CASES)


def test_findings_are_ordered_and_do_not_overlap() -> None:
    text = f"OPENAI_API_KEY=sk-proj-{'a1B2' * 10}\n{PEM}"
    findings = find_secrets(text)
    assert [f.kind for f in findings] == ["openai", "private-key"]
    assert findings[0].end <= findings[1].start
    assert text[findings[1].start : findings[1].end] == PEM


def test_truncated_private_key_block_is_redacted_to_the_end() -> None:
    text = "cat id_ed25519\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ"
    redacted, counts = redact(text)
    assert redacted == "cat id_ed25519\n[REDACTED:private-key]"
    assert counts["private-key"] == 1


def test_redact_json_walks_values_and_secret_keys() -> None:
    value = {
        "password": "hunter2",
        "apiKey": "abc",
        "maxTokens": 4096,
        "totalTokens": "12",
        "keyboard": "us",
        "token": "<your token>",
        "nested": [{"text": f"ghp_{'x1Y2' * 9}"}, 3, None],
    }
    redacted, counts = redact_json(value)
    assert redacted == {
        "password": "[REDACTED:named-secret]",
        "apiKey": "[REDACTED:named-secret]",
        "maxTokens": 4096,
        "totalTokens": "12",
        "keyboard": "us",
        "token": "<your token>",
        "nested": [{"text": "[REDACTED:github]"}, 3, None],
    }
    assert counts == Counter({"named-secret": 2, "github": 1})
    assert value["password"] == "hunter2", "the input is not changed"


def test_entropy() -> None:
    assert shannon_entropy("") == 0
    assert shannon_entropy("aaaa") == 0
    assert shannon_entropy("abcd") == 2
    assert not looks_random("src/pitui/core/secrets")
    assert not looks_random("1234567890123456789")
    assert looks_random("q8Xk2LmZ9rT4vB7nW1cY")


def test_positions_are_right_after_letters_that_are_not_ascii() -> None:
    """Anchors are found in the text made ASCII: a letter whose lower case is longer (İ), one
    outside the BMP and a lone surrogate shift nothing."""
    text = "\n".join(t.format(s) for _, s, t in CASES) + "\n" + "\n".join(ORDINARY)
    plain = [(f.kind, text[f.start : f.end]) for f in find_secrets(text)]
    for prefix in ("İİ ", "🔑 ", "\ud800 "):
        shifted = prefix + text
        found = [(f.kind, shifted[f.start : f.end]) for f in find_secrets(shifted)]
        assert found == plain
    assert sorted(kind for kind, _ in plain) == sorted(kind for kind, _, _ in CASES)


def test_redact_json_keeps_kept_keys_and_image_pixels() -> None:
    key = "ghp_" + "x1Y2" * 9
    value = {
        "content": [
            {"type": "image", "mimeType": "image/png", "data": "token: " + "q8Xk2LmZ9rT4vB7nW1cY"}
        ],
        "toolName": key,
        "text": key,
    }
    redacted, counts = redact_json(value, keep=frozenset({"toolName"}))
    assert redacted["content"] == value["content"] and redacted["toolName"] == key
    assert redacted["text"] == "[REDACTED:github]" and counts == Counter({"github": 1})


def test_a_key_cut_by_the_terminal_width_is_redacted_on_every_line() -> None:
    key = "sk-proj-" + "a1B2c3D4e5" * 16
    line = "OPENAI_API_KEY=" + key
    text = "\n".join(line[at : at + 80] for at in range(0, len(line), 80)) + "\n$ ls"
    redacted, counts = redact(text)
    assert redacted == "OPENAI_API_KEY=[REDACTED:openai]\n$ ls"
    assert counts == Counter({"openai": 1})


def test_a_key_that_ends_a_short_line_keeps_the_next_line() -> None:
    key = "ghp_" + "a1B2c3D4" * 5
    for text in (f"token {key}\nx9Y8z7W6v5", f"{'-' * 70} {key}\nDone", f"{'-' * 70} {key}\nnpm"):
        redacted, _ = redact(text)
        assert redacted == text.replace(key, "[REDACTED:github]")


def test_base64_is_decoded_only_where_it_names_a_secret() -> None:
    secret_env = base64.b64encode(b"API_TOKEN=q8Xk2LmZ9rT4vB7nW1cY\n").decode()
    plain_env = base64.b64encode(b"API_TOKEN_LIMIT=12\nPORT=8080\n").decode()
    assert redact(f"a: {secret_env}\nb: {plain_env}") == (
        f"a: [REDACTED:encoded-secret]\nb: {plain_env}",
        Counter({"encoded-secret": 1}),
    )
