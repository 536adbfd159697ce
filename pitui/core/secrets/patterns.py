"""The secret patterns: provider keys with a fixed shape, and secrets found by their context.

Each pattern names a kind (the `X` of `[REDACTED:X]`) and the regex group that holds the
secret itself (0: the whole match), so that `password=` or `https://user:` stay readable.
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


def _p(
    kind: str, pattern: str, group: int = 0, random_only: bool = False, by_context: bool = False
) -> Pattern:
    return Pattern(kind, re.compile(pattern), group, random_only, by_context)


# A token cannot start or end in the middle of a longer word of the same characters.
_B = r"(?<![A-Za-z0-9_\-])"
_E = r"(?![A-Za-z0-9_\-])"

# An environment variable that holds a secret (upper case, as in .env files).
ENV_SECRET_NAME = (
    r"[A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|PWD|AUTH|CREDENTIALS?|PRIVATE"
    r"|SIGNATURE|SALT|DSN)[A-Z0-9_]*"
)

PATTERNS: tuple[Pattern, ...] = (
    _p(
        "private-key",
        r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
        r"[\s\S]*?(?:-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\Z)",
    ),
    _p("anthropic", _B + r"sk-ant-[A-Za-z0-9]{2,10}-[A-Za-z0-9_\-]{20,}" + _E),
    _p(
        "openai", _B + r"sk-(?!ant-)(?:[A-Za-z0-9]+-)?(?=[A-Za-z0-9_\-]*\d)[A-Za-z0-9_\-]{20,}" + _E
    ),
    _p("stripe", _B + r"(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}" + _E),
    _p("stripe", _B + r"whsec_[A-Za-z0-9]{24,}" + _E),
    _p("google", _B + r"AIza[0-9A-Za-z_\-]{35}" + _E),
    _p("google", _B + r"ya29\.[0-9A-Za-z_\-]{20,}" + _E),
    _p("google", _B + r"GOCSPX-[0-9A-Za-z_\-]{20,}" + _E),
    _p("github", _B + r"gh[pousr]_[A-Za-z0-9]{30,}" + _E),
    _p("github", _B + r"github_pat_[A-Za-z0-9_]{40,}" + _E),
    _p(
        "gitlab",
        _B + r"gl(?:pat|dt|rt|ptt|cbt|imt|soat|ft|agent|oas)-[A-Za-z0-9_\-]{20,}" + _E,
    ),
    _p("slack", _B + r"xox[abposr]-[A-Za-z0-9\-]{10,}" + _E),
    _p("slack", r"https://hooks\.slack\.com/services/[A-Za-z0-9/_\-]{20,}"),
    _p(
        "aws-access-key",
        r"(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Z0-9])",
    ),
    _p(
        "aws-secret-key",
        r"(?i)aws[A-Za-z0-9_.\-]{0,30}?(?:secret|key)[A-Za-z0-9_.\-]*[\"']?\s*(?:[:=]|=>)\s*[\"']?"
        r"([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])",
        1,
    ),
    _p(
        "jwt",
        _B + r"eyJ[A-Za-z0-9_\-]{5,}\.eyJ[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]*" + _E,
    ),
    _p(
        "url-password",
        r"(?i)\b[a-z][a-z0-9+.\-]{1,20}://[^\s:/@\"'<>]+:([^\s@/\"'<>]+)@",
        1,
        by_context=True,
    ),
    # .env-like lines: NAME=value where NAME names a secret (value kept out of quotes).
    _p(
        "env-value",
        r"(?m)^[ \t]*(?:export[ \t]+)?" + ENV_SECRET_NAME + r"[ \t]*=[ \t]*[\"']?"
        r"([^\s\"'#$][^\n\"']*?)[\"']?[ \t]*$",
        1,
        by_context=True,
    ),
    # A random-looking token right after a word like key/token/secret/password.
    _p(
        "high-entropy",
        r"(?i)(?:key|token|secret|passw(?:or)?d|pwd|bearer|auth(?:orization)?|credentials?)s?"
        r"[\"']?\s*(?:[:=]|=>|is)?\s*[\"']?([A-Za-z0-9+/_\-.~]{15,}[A-Za-z0-9+/_\-~]={0,2})",
        1,
        random_only=True,
    ),
)
