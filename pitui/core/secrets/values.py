"""What a value found next to a secret's name is: a documentation stand-in, a digest or an
identifier (not secrets), a word or a piece of code (not a password), or a secret."""

from __future__ import annotations

import re

_PLACEHOLDER = re.compile(
    r".*(?:\.\.\.|…)|<[^<>]*>|\$\{[^}]*\}+|\$[A-Za-z_][A-Za-z0-9_]*|\{\{[^}]*\}\}|%[A-Za-z_]+%"
    r"|\*+|[xX]+|.*EXAMPLE.*|\[?(?i:redacted|hidden|masked|removed)\]?"
    r"|(?i:.*(?:changeme|dummy|fake|placeholder|example|sample|your[-_ ]).*)"
    r"|(?i:none|null|true|false|password|passwd|pass|pwd|secret|token|string)"
)
_UUID = re.compile(r"[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}")
# A hash named by what it hashes (`node-modules-<sha>`, `linux-pip-<sha>`): a cache key.
_NAMED_HASH = re.compile(r"(?:[A-Za-z][A-Za-z0-9.]*[-_])+[0-9a-f]{7,}")
_GIT_OR_SHA256 = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
# Code, not a value: `str`, `DB_PASSWORD`, `os.environ`, `request.password??`, `a?.b||c`.
_CODE = re.compile(r"[A-Za-z_][A-Za-z_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
_MEMBER = re.compile(r"[A-Za-z_$#][\w$#]*(?:\??\.[A-Za-z_$#][\w$#]*)+")
_OPERATORS = ("??", "||", "&&", "=", "?.")
_ENV_NAME = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")
_PIECE = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")
_VOWELS = frozenset("aeiouy")
_IDENTIFIER_CHARS = re.compile(r"[A-Za-z0-9_.\-]+")
_NOT_A_VALUE_START = frozenset("$%@&*!:=-/\\#")
MIN_PASSWORD = 4
_NOT_SECRET_NAME_END = re.compile(
    r"_(?:PATH|FILE|DIR|URL|URI|ENDPOINT|HOST|PORT|ID|NAME|USER|USERNAME|LENGTH|LEN|SIZE|TTL"
    r"|TIMEOUT|LIMIT|COUNT|ENABLED|MODE|TYPE|HEADER|ALGORITHM|VERSION|REGION|PREFIX|FORMAT"
    r"|FIELD|EXPIRY|EXPIRES|EXPIRE|EXPIRATION|LIFETIME|ROTATION|POLICY)$"
)


def is_placeholder(value: str) -> bool:
    """A stand-in of documentation, not a secret: `sk-ant-...`, `<your key>`, `xxxx`, `${KEY}`,
    `$TOKEN`, the word `password`, AWS's `...EXAMPLE` keys."""
    return bool(_PLACEHOLDER.fullmatch(value.strip()))


def is_digest(value: str, after_key: bool) -> bool:
    """A UUID, or a hash named by what it hashes; after the word `key`, a git or SHA-256 hash
    too (a cache key). Found after `token`, `key` or `Idempotency-Key`, none is a secret."""
    if _UUID.fullmatch(value) or _NAMED_HASH.fullmatch(value):
        return True
    return after_key and bool(_GIT_OR_SHA256.fullmatch(value))


def is_code(value: str) -> bool:
    """An expression, not a value: `request.password??`, `opts?.secret||x`, `Uint8Array.from`."""
    core = value.rstrip("=")  # base64's padding
    return any(op in core for op in _OPERATORS) or bool(_MEMBER.match(core))


def is_identifier(value: str) -> bool:
    """A name in code made of words (`getBearerTokenEnvKey2`, `x-aws-ec2-metadata-token`,
    `SMITHY_CONTEXT_KEY3`), not random characters, which make many pieces of one letter or
    without a vowel, and digits everywhere."""
    if not _IDENTIFIER_CHARS.fullmatch(value):
        return False
    pieces = _PIECE.findall(value)
    odd = sum(1 for p in pieces if p.isalpha() and _odd_piece(p))
    numbers = [p for p in pieces[:-1] if p.isdigit()]  # a number may end a name (`Keys10`)
    digits = sum(len(p) for p in pieces if p.isdigit())
    return len(pieces) >= 2 and odd <= 1 and len(numbers) <= 1 and digits <= 4


def _odd_piece(piece: str) -> bool:
    """One letter, or a word without a vowel that is not an acronym (`API`, `JS`)."""
    if len(piece) == 1:
        return True
    return not (piece.isupper() and len(piece) <= 4) and not _VOWELS & set(piece.lower())


def is_password(value: str, quoted: bool) -> bool:
    """A value after `password`/`secret` that is a password: not a stand-in, not a word, not
    code (`str`, `os.environ`, `a.b||c`) or a variable's name, no spaces."""
    if len(value) < MIN_PASSWORD or is_placeholder(value) or any(c.isspace() for c in value):
        return False
    word = value.rstrip(".,:;")
    if word.isalpha() or (value.isdigit() and len(value) < 6) or _ENV_NAME.fullmatch(value):
        return False
    if quoted:
        return True
    return value[0] not in _NOT_A_VALUE_START and not (_CODE.fullmatch(word) or is_code(value))


def names_a_secret(name: str) -> bool:
    """An environment variable that holds a secret: not `KEY_PATH`, `AUTH_URL`, `TOKEN_LIMIT`,
    nor the shell's `PWD` (the working directory)."""
    return name not in ("PWD", "OLDPWD") and not _NOT_SECRET_NAME_END.search(name)


def is_secret_setting(value: str) -> bool:
    """The value of such a variable: not a flag, a number or a stand-in."""
    if is_placeholder(value) or value.lower() in ("yes", "no", "on", "off"):
        return False
    return not (value.isdigit() and len(value) < 10)
