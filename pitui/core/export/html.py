"""One self-contained HTML page from an export document.

Session content is untrusted: markdown-it renders it with raw HTML disabled (a `<script>`
in a message is shown as text), images are never loaded (they become links), links get
`rel="noopener noreferrer"` and only http(s) and mailto targets. The page has no script and
requests nothing: its style is inline.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterator, Sequence

from markdown_it import MarkdownIt
from markdown_it.common.utils import unescapeAll
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

from pitui.core.export.document import CHUNK, Block, Document, inert, is_inert
from pitui.core.export.fence import closing_newline, escape_inline, info_string
from pitui.core.export.simple_html import simple_html

SAFE_SCHEMES = ("http://", "https://", "mailto:")
REL = "noopener noreferrer nofollow"

STYLE = """
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1f2328; --muted: #59636e;
  --code-bg: #f6f8fa; --border: #d1d9e0; --accent: #0969da; --quote: #656d76;
  --added: #116329; --added-bg: #dafbe1; --removed: #82071e; --removed-bg: #ffebe9; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --code-bg: #161b22;
    --border: #3d444d; --accent: #4493f8; --quote: #9198a1;
    --added: #7ee787; --added-bg: #12261e; --removed: #ffa198; --removed-bg: #25171c; }
}
.language-diff .added { color: var(--added); background: var(--added-bg); }
.language-diff .removed { color: var(--removed); background: var(--removed-bg); }
body { background: var(--bg); color: var(--fg); margin: 0 auto; max-width: 60rem;
  padding: 1.5rem; font: 16px/1.5 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; }
h1 { font-size: 1.6rem; border-bottom: 1px solid var(--border); padding-bottom: .3rem; }
h3 { font-size: 1.05rem; margin: 1.6rem 0 .4rem; border-top: 1px solid var(--border);
  padding-top: .8rem; }
header ul { color: var(--muted); padding-left: 1.2rem; }
pre { background: var(--code-bg); border: 1px solid var(--border); border-radius: 6px;
  padding: .7rem; overflow-x: auto; font-size: 13px; line-height: 1.4; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  background: var(--code-bg); border-radius: 4px; padding: .1em .3em; font-size: 90%; }
pre code { background: none; padding: 0; font-size: inherit; white-space: pre; }
blockquote { margin: 0; padding: 0 1rem; color: var(--quote);
  border-left: .25rem solid var(--border); }
details { border: 1px solid var(--border); border-radius: 6px; padding: .3rem .7rem;
  margin: .5rem 0; }
summary { cursor: pointer; color: var(--muted); }
a { color: var(--accent); }
table { border-collapse: collapse; }
td, th { border: 1px solid var(--border); padding: .2rem .5rem; }
em { color: var(--muted); }
main > * { content-visibility: auto; contain-intrinsic-size: auto 3rem; }
nav { margin: 1rem 0; color: var(--muted); }
"""
# Past these, a block is folded in a <details> (a browser then lays out only its summary: a
# 100k-entry page opens in seconds); its summary says its size and begins its first line.
FOLD_LINES = 12
FOLD_CHARS = 2_000
PREVIEW_CHARS = 80


def _renderer() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable(["table", "strikethrough"])
    md.add_render_rule("link_open", _link_open)
    md.add_render_rule("image", _image)
    md.add_render_rule("fence", _fence)
    return md


def _fence(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    """A fence as markdown-it renders it; a diff's lines marked as `_code_body` marks them."""
    token = tokens[idx]
    info = unescapeAll(token.info).strip()
    if not info or info.split(maxsplit=1)[0] != "diff":
        return RendererHTML.fence(self, tokens, idx, options, env)
    return f'<pre><code class="language-diff">{_code_body(token.content, "diff")}</code></pre>\n'


def _link_open(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    token = tokens[idx]
    href = str(token.attrGet("href") or "")
    token.attrs = {"href": href, "rel": REL} if href.lower().startswith(SAFE_SCHEMES) else {}
    return self.renderToken(tokens, idx, options, env)


def _image(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    """An image is shown as a link to it, never loaded."""
    token = tokens[idx]
    src = str(token.attrGet("src") or "")
    alt = html.escape(self.renderInlineAsText(token.children or [], options, env))
    label = f"[image: {alt}]" if alt else "[image]"
    if not src.lower().startswith(SAFE_SCHEMES):
        return label
    return f'<a href="{html.escape(src)}" rel="{REL}">{label}</a>'


_MD = _renderer()


def render_markdown(text: str, *, is_inert: bool = False) -> str:
    """The HTML of Markdown `text`; `is_inert`: it is known to be inert already."""
    return _inert_html(text if is_inert else inert(text))


def _inert_html(text: str) -> str:
    """The HTML of inert Markdown: a fence or a simple block made directly, markdown-it
    for the rest."""
    fast = _fence_html(text)
    if fast is None:
        fast = simple_html(text)
    return fast if fast is not None else _MD.render(text)


def _fence_html(text: str) -> str | None:
    """A block that is one fenced code block, as markdown-it renders it, without parsing:
    most of a large export is tool output in fences. None when the text is anything else."""
    if not text.startswith("```"):
        return None
    newline = text.find("\n")
    opener = text[:newline] if newline != -1 else ""
    fence = opener[: len(opener) - len(opener.lstrip("`"))]
    info = opener[len(fence) :]
    if not opener or "`" in info or not text.endswith("\n" + fence):
        return None
    body = text[newline + 1 : len(text) - len(fence)]
    if fence in body or (info and not info.split()[0].isascii()):
        return None
    language = info.split()[0] if info.strip() else ""
    attribute = f' class="language-{_escape(language)}"' if language else ""
    return f"<pre><code{attribute}>{_code_body(body, language)}</code></pre>\n"


def code_html(text: str, language: str) -> str:
    """`_fence_html(fenced(text, language))` without making the fence and checking it: its
    info string holds none of `` ` &<>" `` nor spaces, no run of backticks in `text` is as
    long as its fence, and its body is `text` ending with a newline (or empty)."""
    info = info_string(language)
    attribute = f' class="language-{info}"' if info else ""
    body = _code_body(text, language) + closing_newline(text)
    return f"<pre><code{attribute}>{body}</code></pre>\n"


def _code_body(text: str, language: str) -> str:
    """A code block's text escaped; a diff's removed and added lines marked for the style
    (each line keeps its sign, so the diff reads without it)."""
    if language != "diff":
        return _escape(text)
    lines = []
    for line in text.split("\n"):
        kind = _DIFF_CLASSES.get(line[:1])
        escaped = _escape(line)
        lines.append(f'<span class="{kind}">{escaped}</span>' if kind else escaped)
    return "\n".join(lines)


_DIFF_CLASSES = {"+": "added", "-": "removed"}


def _escape(text: str) -> str:
    """markdown-it's escapeHtml: &, <, > and double quotes."""
    return html.escape(text, quote=False).replace('"', "&quot;")


def html_parts(
    document: Document, progress: Callable[[int, int], None] | None = None
) -> Iterator[str]:
    """The page in pieces (one a block), each made when it is asked for;
    `progress(done, total)` counts the blocks."""
    yield page_head(document.title, document.header)
    yield from blocks_html(document.blocks, progress)
    yield page_end()


def page_head(title: str, header: list[str], nav: str = "") -> str:
    """A page's head, its title and header (Markdown list items), `nav` (HTML) after them,
    and the opening of its `<main>`."""
    head = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="referrer" content="no-referrer">',
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'\">",
        f"<title>{html.escape(inert(title))}</title>",
        f"<style>{STYLE}</style>",
        "</head>",
        "<body>",
        "<header>",
        render_markdown(f"# {escape_inline(title)}"),
        render_markdown("\n".join(f"- {line}" for line in header)),
        "</header>",
        *([nav] if nav else []),
        "<main>",
    ]
    return "".join(part + "\n" for part in head)


def page_end(nav: str = "") -> str:
    """The end of a page: its `<main>` closed, `nav` (HTML) after it."""
    return "</main>\n" + (nav + "\n" if nav else "") + "</body>\n</html>\n"


def blocks_html(
    blocks: list[Block],
    progress: Callable[[int, int], None] | None = None,
    done: int = 0,
    total: int | None = None,
) -> Iterator[str]:
    """Blocks' HTML a few hundred at a time; `progress(done + n, total)` as they are made."""
    total = len(blocks) if total is None else total
    for at in range(0, len(blocks), CHUNK):  # written a few hundred blocks at a time
        if progress is not None:
            progress(done + at, total)
        chunk = blocks[at : at + CHUNK]
        # a code block's fences are inert: its text tells
        yield _chunk_html(chunk, is_inert("".join(block.text for block in chunk)))


def _chunk_html(blocks: list[Block], clean: bool) -> str:
    """Blocks' HTML, each followed by a newline; `clean`: their Markdown is inert already.
    (One loop, the pieces joined once: a large export has hundreds of thousands of blocks.)"""
    out: list[str] = []
    for block in blocks:
        if block.language is not None and clean:
            body = code_html(block.text, block.language)
        else:
            body = _inert_html(block.markdown if clean else inert(block.markdown))
        if block.summary is None and _long(block.text):
            out.append(f"<details><summary>{_fold_summary(block)}</summary>\n{body}</details>\n")
        elif block.summary is None:
            out += (body, "\n")
        else:
            summary = html.escape(inert(block.summary))
            out.append(f"<details><summary>{summary}</summary>\n{body}</details>\n")
    return "".join(out)


def _long(text: str) -> bool:
    return len(text) > FOLD_CHARS or text.count("\n", 0, FOLD_CHARS) >= FOLD_LINES


def _fold_summary(block: Block) -> str:
    """ "Output · 240 lines: first line…" (a code block), "Long message · ..." (escaped)."""
    lines = block.text.count("\n") + (not block.text.endswith("\n"))
    first = next((line for line in block.text.splitlines() if line.strip()), "").strip()
    if len(first) > PREVIEW_CHARS:
        first = first[:PREVIEW_CHARS] + "…"
    kind = "Output" if block.language is not None else "Long message"
    size = f"{lines:,} line{'s' * (lines != 1)}" if lines > 1 else f"{len(block.text):,} characters"
    return html.escape(inert(f"{kind} · {size}: {first}"))
