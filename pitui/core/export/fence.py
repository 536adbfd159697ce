"""Markdown building blocks that survive any content: fences, inline code, languages."""

from __future__ import annotations

import re
from functools import lru_cache

_BACKTICKS = re.compile(r"`+")

LANGUAGES = {
    ".py": "python", ".pyi": "python", ".js": "javascript", ".mjs": "javascript",
    ".cjs": "javascript", ".jsx": "jsx", ".ts": "typescript", ".tsx": "tsx", ".json": "json",
    ".jsonl": "json", ".md": "markdown", ".sh": "sh", ".bash": "bash", ".zsh": "sh",
    ".rs": "rust", ".go": "go", ".java": "java", ".kt": "kotlin", ".c": "c", ".h": "c",
    ".cc": "cpp", ".cpp": "cpp", ".hpp": "cpp", ".cs": "csharp", ".rb": "ruby",
    ".php": "php", ".swift": "swift", ".scala": "scala", ".sql": "sql", ".html": "html",
    ".htm": "html", ".css": "css", ".scss": "scss", ".xml": "xml", ".yaml": "yaml",
    ".yml": "yaml", ".toml": "toml", ".ini": "ini", ".cfg": "ini", ".lua": "lua",
    ".r": "r", ".dart": "dart", ".vue": "vue", ".svelte": "svelte", ".tf": "hcl",
    ".diff": "diff", ".patch": "diff", ".dockerfile": "dockerfile", ".ex": "elixir",
    ".exs": "elixir", ".hs": "haskell", ".ml": "ocaml", ".zig": "zig", ".nix": "nix",
}  # fmt: skip
NAMES = {"dockerfile": "dockerfile", "makefile": "makefile", ".env": "sh"}


def language_for(path: object) -> str:
    """The fence language of a file path ("" when unknown)."""
    if not isinstance(path, str) or not path:
        return ""
    return _language_of(path)


@lru_cache(maxsize=1024)
def _language_of(path: str) -> str:
    """A session reads the same files again and again: their languages are found once."""
    name = path.replace("\\", "/").rpartition("/")[2].lower()
    if name in NAMES:
        return NAMES[name]
    dot = name.rfind(".")
    return LANGUAGES.get(name[dot:], "") if dot > 0 else ""


def fenced(text: str, language: str = "") -> str:
    """A fenced code block holding `text` verbatim: the fence is longer than any run of
    backticks inside, so content with its own fences cannot close it."""
    opener, closer = fence_around(text, language)
    return f"{opener}{text}{closer}"


def fence_around(text: str, language: str = "") -> tuple[str, str]:
    """What `fenced` puts before `text` (the fence and its info string, a newline) and after
    it (a newline unless it ends in one, the fence)."""
    longest = max((len(m) for m in _BACKTICKS.findall(text)), default=0) if "`" in text else 0
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info_string(language)}\n", f"{closing_newline(text)}{fence}"


def closing_newline(text: str) -> str:
    """What ends a code block's last line: a newline, unless it has one (or is empty)."""
    return "" if text.endswith("\n") or not text else "\n"


@lru_cache(maxsize=256)
def info_string(language: str) -> str:
    """A fence's info string: the language with only the characters a language name has."""
    return re.sub(r"[^A-Za-z0-9_+\-.#]", "", language)


def inline_code(text: str) -> str:
    """`text` as inline code on one line, whatever backticks it holds."""
    flat = text.replace("\n", " ").replace("\r", " ")
    if "`" not in flat and flat.strip() == flat and flat:
        return f"`{flat}`"
    longest = max((len(m) for m in _BACKTICKS.findall(flat)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if flat.startswith("`") or flat.endswith("`") or not flat.strip() else ""
    return f"{ticks}{pad}{flat}{pad}{ticks}"


def quoted(text: str) -> str:
    """Every line of `text` as a Markdown quote."""
    return "\n".join(f"> {line}" if line else ">" for line in text.split("\n"))


_MD_SPECIAL = re.compile(r"([\\`*_\[\]#|<>~&])")


def escape_inline(text: str) -> str:
    """Plain text made literal in Markdown, on one line."""
    return _MD_SPECIAL.sub(r"\\\1", " ".join(text.split()))
