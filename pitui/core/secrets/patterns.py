"""The secret patterns: provider keys with a fixed shape, and secrets found by their context.

Each pattern names a kind (the `X` of `[REDACTED:X]`) and the regex group that holds the
secret itself (0: the whole match), so that `password=` or `https://user:` stay readable.
Most patterns start with one of a few literal `anchors`: the regex is then tried only where
an anchor occurs (found by `str.find`, at C speed), not at every position of a large text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pattern:
    kind: str
    regex: re.Pattern[str]
    group: int = 0
    # Only a match whose secret looks random (see entropy.looks_random) counts.
    random_only: bool = False
    # Found by what surrounds it (a name, a URL): a documentation stand-in is not a secret.
    by_context: bool = False
    # The regex matches only where one of these starts (None: anywhere).
    anchors: tuple[str, ...] | None = None
    # Without anchors: the regex runs only on a text holding one of these.
    triggers: tuple[str, ...] = ()
    # The anchors are looked for in the lower-cased text.
    ignore_case: bool = False


def _p(kind: str, pattern: str, anchors: tuple[str, ...] | None, **options: object) -> Pattern:
    return Pattern(kind, re.compile(pattern), anchors=anchors, **options)  # type: ignore[arg-type]


def _casings(*words: str) -> tuple[str, ...]:
    return tuple(form for word in words for form in (word, word.title(), word.upper()))


# A token cannot start or end in the middle of a longer word of the same characters.
_B = r"(?<![A-Za-z0-9_\-])"
_E = r"(?![A-Za-z0-9_\-])"

GITLAB_KINDS = ("pat", "dt", "rt", "ptt", "cbt", "imt", "soat", "ft", "agent", "oas")

# An environment variable that holds a secret (upper case, as in .env files).
ENV_WORDS = ("KEY", "TOKEN", "SECRET", "PASS", "PWD", "AUTH", "CREDENTIAL", "PRIVATE")
ENV_WORDS += ("SIGNATURE", "SALT", "DSN")
ENV_SECRET_NAME = (
    r"[A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|PWD|AUTH|CREDENTIALS?|PRIVATE"
    r"|SIGNATURE|SALT|DSN)[A-Z0-9_]*"
)

# Words after which a random-looking token is a secret: lower case and UPPER case words
# must not follow a letter or digit; Title case may follow a lower-case letter (camelCase:
# `apiKey`). A separator (`:`, `=`, a space) must come between word and token.
CONTEXT_WORDS = ("key", "token", "secret", "password", "passwd", "pwd", "bearer")
CONTEXT_WORDS += ("authorization", "auth", "credentials", "credential")
_LOWER = "|".join(CONTEXT_WORDS)
_TITLE = "|".join(w.title() for w in CONTEXT_WORDS)
_UPPER = "|".join(w.upper() for w in CONTEXT_WORDS)
_CONTEXT_WORD = (
    rf"(?:(?<![A-Za-z0-9])(?:{_LOWER}|{_UPPER})|(?<![A-Z0-9])(?:{_TITLE}))(?:s|S)?(?![A-Za-z])"
)

PATTERNS: tuple[Pattern, ...] = (
    _p(
        "private-key",
        r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
        r"[\s\S]*?(?:-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\Z)",
        ("-----BEGIN",),
    ),
    _p("anthropic", _B + r"sk-ant-[A-Za-z0-9]{2,10}-[A-Za-z0-9_\-]{20,}" + _E, ("sk-ant-",)),
    _p(
        "openai",
        _B + r"sk-(?!ant-)(?:[A-Za-z0-9]+-)?(?=[A-Za-z0-9_\-]*\d)[A-Za-z0-9_\-]{20,}" + _E,
        ("sk-",),
    ),
    _p(
        "stripe",
        _B + r"(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}" + _E,
        ("sk_live_", "sk_test_", "rk_live_", "rk_test_"),
    ),
    _p("stripe", _B + r"whsec_[A-Za-z0-9]{24,}" + _E, ("whsec_",)),
    _p("google", _B + r"AIza[0-9A-Za-z_\-]{35}" + _E, ("AIza",)),
    _p("google", _B + r"ya29\.[0-9A-Za-z_\-]{20,}" + _E, ("ya29.",)),
    _p("google", _B + r"GOCSPX-[0-9A-Za-z_\-]{20,}" + _E, ("GOCSPX-",)),
    _p(
        "github",
        _B + r"gh[pousr]_[A-Za-z0-9]{30,}" + _E,
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
    ),
    _p("github", _B + r"github_pat_[A-Za-z0-9_]{40,}" + _E, ("github_pat_",)),
    _p(
        "gitlab",
        _B + rf"gl(?:{'|'.join(GITLAB_KINDS)})-[A-Za-z0-9_\-]{{20,}}" + _E,
        tuple(f"gl{p}-" for p in GITLAB_KINDS),
    ),
    _p(
        "slack",
        _B + r"xox[abposr]-[A-Za-z0-9\-]{10,}" + _E,
        tuple(f"xox{c}-" for c in "abposr"),
    ),
    _p(
        "slack",
        r"https://hooks\.slack\.com/services/[A-Za-z0-9/_\-]{20,}",
        ("https://hooks.slack.com/",),
    ),
    _p(
        "aws-access-key",
        r"(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Z0-9])",
        ("AKIA", "ASIA", "ABIA", "ACCA", "A3T"),
    ),
    _p(
        "aws-secret-key",
        r"(?i)aws[A-Za-z0-9_.\-]{0,30}?(?:secret|key)[A-Za-z0-9_.\-]*[\"']?\s*(?:[:=]|=>)\s*[\"']?"
        r"([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])",
        ("aws",),
        group=1,
        ignore_case=True,
    ),
    _p(
        "jwt",
        _B + r"eyJ[A-Za-z0-9_\-]{5,}\.eyJ[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]*" + _E,
        ("eyJ",),
    ),
    _p(
        "url-password",
        r"(?<=[A-Za-z0-9])://[^\s:/@\"'<>]+:([^\s@/\"'<>]+)@",
        ("://",),
        group=1,
        by_context=True,
    ),
    # .env-like lines: NAME=value where NAME names a secret (value kept out of quotes).
    _p(
        "env-value",
        r"(?m)^[ \t]*(?:export[ \t]+)?" + ENV_SECRET_NAME + r"[ \t]*=[ \t]*[\"']?"
        r"([^\s\"'#$][^\n\"']*?)[\"']?[ \t]*$",
        None,
        group=1,
        by_context=True,
        triggers=ENV_WORDS,
    ),
    # A random-looking token right after a word like key/token/secret/password.
    _p(
        "high-entropy",
        _CONTEXT_WORD + r"[\"']?(?:\s*(?:[:=]|=>)\s*|\s+(?:is\s+)?)[\"']?"
        r"([A-Za-z0-9+/_\-.~]{15,}[A-Za-z0-9+/_\-~]={0,2})",
        _casings(*CONTEXT_WORDS),
        group=1,
        random_only=True,
    ),
)
