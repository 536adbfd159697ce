"""The secret patterns: provider keys with a fixed shape, and secrets found by their context.

Each pattern names a kind (the `X` of `[REDACTED:X]`) and the regex group that holds the
secret itself (0: the whole match), so that `password=` or `https://user:` stay readable.
Each pattern starts with one of a few literal `anchors` (any case: the regex checks it): the
regex is tried only where an anchor occurs, all anchors being found in one pass.
The shapes follow the public rule sets of secret scanners (gitleaks, trufflehog).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypedDict, Unpack

from pitui.core.secrets.values import (
    is_code,
    is_digest,
    is_identifier,
    is_password,
    is_secret_setting,
    names_a_secret,
)

Accept = Callable[[re.Match[str]], bool]


@dataclass(frozen=True, slots=True)
class Pattern:
    kind: str
    regex: re.Pattern[str]
    # The regex matches only where one of these starts.
    anchors: tuple[str, ...]
    group: int = 0
    # Only a match whose secret looks random (see entropy.looks_random) counts.
    random_only: bool = False
    # Found by what surrounds it (a name, a URL): a documentation stand-in is not a secret.
    by_context: bool = False
    # A key cut at the end of a long line goes on at the start of the next (a terminal's width).
    wraps: bool = False
    # Whether the match is a secret, when its shape does not tell.
    accept: Accept | None = None


class _KeyOptions(TypedDict, total=False):
    """A `Pattern`'s options but `wraps` (every provider key wraps)."""

    group: int
    random_only: bool
    by_context: bool
    accept: Accept | None


class _Options(_KeyOptions, total=False):
    wraps: bool


def _p(kind: str, pattern: str, anchors: tuple[str, ...], **options: Unpack[_Options]) -> Pattern:
    return Pattern(kind, re.compile(pattern), anchors, **options)


def _key(kind: str, pattern: str, *anchors: str, **options: Unpack[_KeyOptions]) -> Pattern:
    """A provider's key: a fixed prefix (an anchor), not inside a longer token."""
    return _p(kind, _B + pattern + _E, anchors, wraps=True, **options)


# A token cannot start or end in the middle of a longer word of the same characters.
_B = r"(?<![A-Za-z0-9_\-])"
_E = r"(?![A-Za-z0-9_\-])"

GITLAB_KINDS = ("pat", "dt", "rt", "ptt", "cbt", "imt", "soat", "ft", "agent", "oas")

# Names of environment variables that hold a secret (upper case, as in .env files).
ENV_WORDS: tuple[str, ...] = ("KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASS", "PWD", "AUTH")
ENV_WORDS += ("CREDENTIAL", "CREDENTIALS", "PRIVATE", "SIGNATURE", "SALT", "DSN")
_ENV_WORD = "|".join(sorted(ENV_WORDS, key=len, reverse=True))
# The value of a variable: up to a space, a quote or a shell operator; not `$VAR`.
_ENV_VALUE = r"([\"']?)([^\s\"'`$#;|&<>(){}\[\]][^\s\"'`;|&<>(){}\[\]]*)\1"

# Words after which a random-looking token is a secret: lower case and UPPER case words
# must not follow a letter or digit; Title case may follow a lower-case letter (camelCase:
# `apiKey`). A separator (`:`, `=`, a space) must come between word and token.
CONTEXT_WORDS: tuple[str, ...] = ("key", "token", "secret", "password", "passwd", "pwd", "bearer")
CONTEXT_WORDS += ("authorization", "auth", "credentials", "credential")
CONTEXT_WORDS += ("session", "sessionid", "jsessionid", "phpsessid")
_LOWER = "|".join(CONTEXT_WORDS)
_TITLE = "|".join(w.title() for w in CONTEXT_WORDS)
_UPPER = "|".join(w.upper() for w in CONTEXT_WORDS)
_CONTEXT_WORD = (
    rf"(?:(?<![A-Za-z0-9])(?:{_LOWER}|{_UPPER})|(?<![A-Z0-9])(?:{_TITLE}))(?:s|S)?(?![A-Za-z])"
)
_SEPARATOR = r"[\"']?(?:[ \t]*(?:[:=]|=>)[ \t]*|[ \t]+(?:is[ \t]+)?)[\"']?"

# Names whose value is a password whatever it looks like: `db_password`, `client_secret`,
# `secretKey`, `PASSWORD`; not `password_hash`, `passwordless`, `secretName`.
COMMAND_LINE = 400  # how far back an option's command is looked for

PASSWORD_WORDS = ("passw", "pwd", "passphrase", "secret")
_PASSWORD_NAME = (
    r"(?i:passw(?:or)?d|pwd|passphrase|secret)"
    r"(?:[_\-.]?(?i:key|token|value|phrase|access[_\-]?key))?[0-9]*(?![A-Za-z0-9_\-])"
)
# Only `password`, `passwd`, `passphrase` may be followed by a space alone (`my password is
# x`, a .netrc's `password x`).
_PASSWORD_SEPARATOR = (
    r"[\"']?(?:[ \t]*(?:=|=>|:=)[ \t]*|[ \t]*:[ \t]+"
    r"|(?<=[oO][rR][dD]|[sS][wW][dD]|[aA][sS][eE])[ \t]+(?:is[ \t]+)?)"
)
# A quoted value may follow `:` at once (JSON).
_QUOTED_SEPARATOR = r"[\"']?(?:[ \t]*(?:[:=]|=>|:=)[ \t]*|[ \t]+(?:is[ \t]+)?)"


def _random_token(match: re.Match[str]) -> bool:
    """Not a UUID or a digest (`Idempotency-Key: <uuid>`, `cache key: <sha>`), not a public
    key, not a Stripe publishable key, not AWS's documentation key."""
    value = match[1]
    after_key = match[0][:3].lower() == "key"
    before = match.string[max(0, match.start() - 7) : match.start()].lower()
    if before.rstrip(" _-").endswith("public") or value.startswith("pk_"):
        return False
    if is_code(value) or is_identifier(value):
        return False
    return not (is_digest(value, after_key) or "EXAMPLE" in value)


def _not_example(match: re.Match[str]) -> bool:
    return "EXAMPLE" not in match[0]


def _env_secret(match: re.Match[str]) -> bool:
    text, start = match.string, match.start()
    while start > 0 and (text[start - 1].isupper() or text[start - 1] in _NAME_CHARS):
        start -= 1
    line_start = max(text.rfind("\n", 0, start) + 1, start - COMMAND_LINE)
    if not _ENV_LINE_START.fullmatch(text, line_start, start):
        return False  # a constant in code (`var TOKEN_LIMIT=`), not a variable being set
    name = text[start : match.end()].partition("=")[0]
    value = match[2]
    if not match[1] and name.endswith((" ", "\t")) and not is_password(value, quoted=False):
        return False  # code (`SECRET_KEY = env("X")`), not a .env line
    return names_a_secret(name.strip()) and is_secret_setting(value)


# What may come before a variable set on a line: `export`, a list's `- `, a Dockerfile's
# `ENV`, other variables set for a command, or an option that sets one (`docker run -e`).
_ENV_LINE_START = re.compile(
    r"[ \t]*(?:(?:export|ENV|set|env)[ \t]+|-[ \t]+)?(?:[A-Za-z0-9_]+=\S*[ \t]+)*"
    r"|.*[ \t](?:-e|--env|--build-arg|--set(?:-string)?|-var)[ \t=]+"
)
_NAME_CHARS = frozenset("0123456789_")


def _after_command(*commands: str) -> Accept:
    """An option of one of these commands: the command starts a word before it, on its line."""
    command = re.compile(rf"(?<![A-Za-z0-9_\-])(?:{'|'.join(commands)})(?![A-Za-z0-9_\-])")

    def accept(match: re.Match[str]) -> bool:
        text, start = match.string, match.start()
        line_start = max(text.rfind("\n", 0, start) + 1, start - COMMAND_LINE)
        return command.search(text, line_start, start) is not None

    return accept


def _quoted_password(match: re.Match[str]) -> bool:
    return is_password(match[1], quoted=True)


def _bare_password(match: re.Match[str]) -> bool:
    called = match.string.startswith("(", match.end())  # `secret=toUint8Array(...)`
    return not called and is_password(match[1], quoted=False)


PATTERNS: tuple[Pattern, ...] = (
    _p(
        "private-key",
        r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
        r"[\s\S]*?(?:-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\Z)",
        ("-----BEGIN",),
    ),
    _key("anthropic", r"sk-ant-[A-Za-z0-9]{2,10}-[A-Za-z0-9_\-]{20,}", "sk-ant-"),
    _key("openai", r"sk-(?!ant-)(?:[A-Za-z0-9]+-)?(?=[A-Za-z0-9_\-]*\d)[A-Za-z0-9_\-]{20,}", "sk-"),
    _key(
        "stripe",
        r"(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{16,}",
        *(f"{a}_{b}_" for a in ("sk", "rk") for b in ("live", "test", "prod")),
    ),
    _key("stripe", r"whsec_[A-Za-z0-9]{24,}", "whsec_"),
    _key("google", r"AIza[0-9A-Za-z_\-]{35}", "AIza"),
    _key("google", r"ya29\.[0-9A-Za-z_\-]{20,}", "ya29."),
    _key("google", r"GOCSPX-[0-9A-Za-z_\-]{20,}", "GOCSPX-"),
    _key("github", r"gh[pousr]_[A-Za-z0-9]{30,}", "ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
    _key("github", r"github_pat_[A-Za-z0-9_]{40,}", "github_pat_"),
    _key(
        "gitlab",
        rf"gl(?:{'|'.join(GITLAB_KINDS)})-[A-Za-z0-9_\-]{{20,}}",
        *(f"gl{p}-" for p in GITLAB_KINDS),
    ),
    _key("slack", r"xox[abposre]-[A-Za-z0-9\-]{10,}", *(f"xox{c}-" for c in "abposre")),
    _p(
        "slack",
        r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_\-+]{20,}",
        ("https://hooks.slack.com/",),
    ),
    _p(
        "aws-access-key",
        r"(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Z0-9])",
        ("AKIA", "ASIA", "ABIA", "ACCA", "A3T"),
        accept=_not_example,
    ),
    _p(
        "aws-secret-key",
        r"(?i)aws[A-Za-z0-9_.\-]{0,30}?(?:secret|key)[A-Za-z0-9_.\-]{0,60}[\"']?\s*(?:[:=]|=>)\s*[\"']?"
        r"([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])",
        ("aws",),
        group=1,
        accept=_not_example,
    ),
    _key("sendgrid", r"SG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}", "SG."),
    # The bot's id before the colon is public; the part after it is the secret.
    _p("telegram", r"(?<=[0-9]{8}):(AA[A-Za-z0-9_\-]{33})" + _E, (":AA",), group=1, wraps=True),
    _key("groq", r"gsk_[A-Za-z0-9]{48,}", "gsk_"),
    _key("xai", r"xai-[A-Za-z0-9]{70,}", "xai-"),
    _key("shopify", r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}", "shpat_", "shpca_", "shppa_", "shpss_"),
    _key("digitalocean", r"do[opr]_v1_[a-f0-9]{64}", "dop_v1_", "doo_v1_", "dor_v1_"),
    _key("docker", r"dckr_(?:pat|oat)_[A-Za-z0-9_\-]{24,}", "dckr_pat_", "dckr_oat_"),
    _key("linear", r"lin_(?:api|oauth)_[A-Za-z0-9]{40}", "lin_api_", "lin_oauth_"),
    _key("notion", r"(?:ntn_[0-9]{11}[A-Za-z0-9]{35}|secret_[A-Za-z0-9]{43})", "ntn_", "secret_"),
    _key("huggingface", r"(?:hf|api_org)_[A-Za-z]{34}", "hf_", "api_org_"),
    _key("npm", r"npm_[A-Za-z0-9]{36}", "npm_"),
    _key("pypi", r"pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_\-]{50,}", "pypi-"),
    _key("vault", r"hv[sb]\.[A-Za-z0-9_\-]{90,}", "hvs.", "hvb."),
    _p("age", r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}", ("AGE-SECRET-KEY-1",)),
    _key("jwt", r"eyJ[A-Za-z0-9_\-]{5,}\.eyJ[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]*", "eyJ"),
    _p(
        "url-password",
        r"(?<=[A-Za-z0-9])://[^\s:/@\"'<>]*:([^\s@/\"'<>]+)@",
        ("://",),
        group=1,
        by_context=True,
    ),
    # `Authorization: Basic <base64 of user:password>`.
    _p(
        "basic-auth",
        r"(?i:authorization)[\"']?[ \t]*[:=][ \t]*[\"']?(?i:basic)[ \t]+([A-Za-z0-9+/]{6,}={0,2})",
        ("authorization",),
        group=1,
    ),
    # `curl -u user:password`, `mysql -pPASSWORD`, `sshpass -p PASSWORD`.
    _p(
        "basic-auth",
        r"(?<![A-Za-z0-9_\-])(?:-u|--user)(?:[ \t]+|=)([\"']?)[^\s:\"']*:([^\s\"']+)\1",
        ("-u", "--user"),
        group=2,
        by_context=True,
        accept=_after_command("curl"),
    ),
    _p(
        "password",
        r"(?<![A-Za-z0-9_\-])-p([^\s\"'$][^\s\"']*)",
        ("-p",),
        group=1,
        by_context=True,
        accept=_after_command("mysql", "mysqldump", "mysqladmin", "mysqlsh", "mariadb"),
    ),
    _p(
        "password",
        r"(?<![A-Za-z0-9_\-])-p[ \t]*([\"']?)([^\s\"'$][^\s\"']*)\1",
        ("-p",),
        group=2,
        by_context=True,
        accept=_after_command("sshpass"),
    ),
    # NAME=value where NAME names a secret, in a .env file or a command line (the match
    # starts at the word of the name that tells: `API_KEY` at `KEY`).
    _p(
        "env-value",
        rf"(?:{_ENV_WORD})(?![a-z])[A-Z0-9_]{{0,40}}[ \t]*=[ \t]*" + _ENV_VALUE,
        ENV_WORDS,
        group=2,
        by_context=True,
        accept=_env_secret,
    ),
    # A random-looking token right after a word like key/token/secret/password.
    _p(
        "high-entropy",
        _CONTEXT_WORD + _SEPARATOR + r"([A-Za-z0-9+/_\-.~]{15,}[A-Za-z0-9+/_\-~]={0,2})",
        tuple(CONTEXT_WORDS),
        group=1,
        random_only=True,
        wraps=True,
        accept=_random_token,
    ),
    # A password named as such, in configuration (JSON, YAML, INI, code) or in prose.
    _p(
        "password",
        _PASSWORD_NAME + _QUOTED_SEPARATOR + r"[\"']([^\"'\n]{1,200})[\"']",
        PASSWORD_WORDS,
        group=1,
        accept=_quoted_password,
    ),
    _p(
        "password",
        _PASSWORD_NAME + _PASSWORD_SEPARATOR + r"([^\s\"'`,;(){}\[\]<>]{1,200})",
        PASSWORD_WORDS,
        group=1,
        accept=_bare_password,
    ),
)
