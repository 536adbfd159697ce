"""The demo store's conversations (``pitui --demo``), as data: projects and scripted steps.

Each :class:`DemoScript` is one session; :mod:`pitui.demo.store` plays its steps.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

DEMO_PROJECTS: dict[str, str] = {
    "webshop": "/home/demo/projects/webshop",
    "pitui": "/home/demo/projects/pitui",
    "dotfiles": "/home/demo/projects/dotfiles",
    "blog": "/home/demo/writing/blog",
}

Step = tuple[Any, ...]


@dataclass
class DemoScript:
    """One demo session: project key, name, start offset (minutes after the base) and steps."""

    key: str
    project: str
    name: str | None
    start_min: int
    steps: list[Step]
    fork_of: str | None = None


def _ai(text: str | None, think: str | None = None, tools: Sequence[Step] = ()) -> Step:
    """Assistant step: optional thinking, optional text, then tool calls (name, args, output)."""
    return ("ai", think, text, list(tools))


DEMO_SCRIPTS: tuple[DemoScript, ...] = (
    DemoScript(
        "checkout-bug",
        "webshop",
        "Fix rounding bug in checkout totals",
        0,
        [
            ("model", 0),
            ("thinking", "medium"),
            (
                "user",
                "Customers report that the checkout total is sometimes one cent off. "
                "Can you find out why?",
            ),
            _ai(
                "I'll start by reading the cart total calculation.",
                "Off-by-one-cent errors are almost always floating point. Let me look at how "
                "the cart sums line items.",
                [
                    (
                        "read",
                        {"path": "src/checkout/cart.ts"},
                        "export function cartTotal(items: LineItem[]): number {\n"
                        "  return items.reduce((sum, item) => sum + item.price * item.qty, 0);\n"
                        "}\n",
                    )
                ],
            ),
            ("mark", "diagnosis"),
            _ai(
                "Found it: prices are stored as floating-point euros, so `0.1 * 3` becomes "
                "`0.30000000000000004` and rounding at the end sometimes goes the wrong way. "
                "The robust fix is to keep money in integer cents."
            ),
            ("user", "Ok, switch everything to integer cents."),
            _ai(
                "I'll update the type and the reducer.",
                None,
                [
                    (
                        "edit",
                        {
                            "path": "src/checkout/cart.ts",
                            "oldText": "item.price * item.qty",
                            "newText": "item.priceCents * item.qty",
                        },
                        "Successfully replaced text in src/checkout/cart.ts.",
                    ),
                    (
                        "bash",
                        {"command": "npm test -- cart"},
                        "PASS src/checkout/cart.test.ts\n  cartTotal\n    ✓ sums integer cents "
                        "(3 ms)\n    ✓ handles empty carts (1 ms)\n\nTests: 2 passed, 2 total\n",
                    ),
                ],
            ),
            ("mark", "fixed"),
            _ai(
                "Done. `cartTotal` now works in integer cents and the tests pass. The API still "
                "returns euros, converted once at the boundary."
            ),
            ("label", "fixed", "cents fix"),
            (
                "user",
                "Great. Please also add a regression test with the exact basket "
                "from the bug report.",
            ),
            _ai(
                "Added a test with three items at €0.10 and one at €19.99; "
                "it fails on the old code and passes now.",
                None,
                [
                    (
                        "write",
                        {"path": "src/checkout/regression.test.ts", "content": "…"},
                        "Successfully wrote 412 bytes to src/checkout/regression.test.ts",
                    )
                ],
            ),
            _ai("The regression test is in `src/checkout/regression.test.ts`."),
        ],
    ),
    DemoScript(
        "checkout-fork",
        "webshop",
        "Checkout: try decimal.js instead",
        95,
        [
            ("user", "Let's see what the decimal.js approach would look like instead of cents."),
            _ai(
                "With decimal.js we keep euros but do exact decimal arithmetic. It adds a "
                "32 KB dependency; integer cents need none. I'd still recommend cents.",
                "The user forked to compare approaches; be concise and honest about trade-offs.",
            ),
        ],
        fork_of="checkout-bug",
    ),
    DemoScript(
        "search-perf",
        "webshop",
        "Speed up product search",
        300,
        [
            ("model", 2),
            ("user", "Product search takes two seconds with 50k products. Profile it please."),
            _ai(
                "Let me run the profiler on the search endpoint.",
                "Two seconds for 50k rows smells like a missing index or an N+1 query.",
                [
                    (
                        "bash",
                        {
                            "command": "python -m cProfile -s cumtime scripts/search_bench.py"
                            " | head -12"
                        },
                        "   ncalls  tottime  percall  cumtime  percall filename:lineno(function)\n"
                        "        1    0.002    0.002    2.104    2.104 search.py:14(search)\n"
                        "    50000    1.710    0.000    1.980    0.000 search.py:31(score)\n"
                        "    50000    0.190    0.000    0.190    0.000 {method 'lower' of 'str'}\n",
                    )
                ],
            ),
            ("mark", "profiled"),
            _ai(
                "Nearly all the time is in `score()`, called once per product, which lower-cases "
                "the product name every time. Two options: precompute lower-cased names, or move "
                "search into PostgreSQL full-text search."
            ),
            ("user", "Try the PostgreSQL full-text search."),
            _ai(
                "Adding a generated tsvector column and a GIN index.",
                None,
                [
                    (
                        "write",
                        {"path": "migrations/0043_search_index.sql", "content": "…"},
                        "Successfully wrote 388 bytes to migrations/0043_search_index.sql",
                    ),
                    (
                        "bash",
                        {"command": "make migrate && python scripts/search_bench.py"},
                        "Applying 0043_search_index... OK\nsearch: 50000 products, 100 queries, "
                        "median 41 ms\n",
                    ),
                ],
            ),
            _ai("Median query time dropped from 2.1 s to 41 ms. The migration is reversible."),
            ("goto", "profiled"),
            (
                "branch_summary",
                "Tried PostgreSQL full-text search: 41 ms median, but needs a migration.",
            ),
            ("user", "Let's compare with the simpler fix: precompute the lower-cased names."),
            _ai(
                "Caching `name.lower()` on load.",
                None,
                [
                    (
                        "edit",
                        {
                            "path": "search.py",
                            "oldText": "name.lower()",
                            "newText": "self._lower[i]",
                        },
                        "Successfully replaced text in search.py.",
                    ),
                    (
                        "bash",
                        {"command": "python scripts/search_bench.py"},
                        "search: 50000 products, 100 queries, median 380 ms\n",
                    ),
                ],
            ),
            _ai(
                "The simple fix gets us to 380 ms. That's 5x better but the database approach is "
                "10x faster again, so I'd keep the full-text search branch."
            ),
            ("label", "profiled", "profile"),
        ],
    ),
    DemoScript(
        "tree-widget",
        "pitui",
        "Tree view: indentation only at branch points",
        1440,
        [
            ("model", 0),
            ("thinking", "high"),
            (
                "user",
                "The tree view indents every child, so a 500-message session is unreadable. "
                "Pi only indents at branch points. Can you do the same?",
            ),
            _ai(
                "Let me read the current tree rendering code.",
                "Single-child chains should be rendered flat; only nodes with two or more children "
                "start a new indentation level. That is an iterative walk with an explicit stack.",
                [
                    (
                        "read",
                        {"path": "pitui/ui/tree.py"},
                        "def render(node, depth=0):\n    yield depth, node\n"
                        "    for child in node.children:\n"
                        "        yield from render(child, depth + 1)\n",
                    )
                ],
            ),
            _ai(
                "The recursion increases the depth for every child and would also hit Python's "
                "recursion limit on long sessions. I'll rewrite it iteratively and only indent "
                "when a node has several children.",
                None,
                [
                    (
                        "edit",
                        {
                            "path": "pitui/ui/tree.py",
                            "oldText": "def render(",
                            "newText": "def flatten(",
                        },
                        "Successfully replaced text in pitui/ui/tree.py.",
                    ),
                    (
                        "bash",
                        {"command": ".venv/bin/pytest tests/ui/test_tree.py -q"},
                        "........                                                  [100%]\n"
                        "8 passed in 0.41s\n",
                    ),
                ],
            ),
            ("mark", "rewritten"),
            _ai("All tree tests pass, including a new one with a 10,000-entry chain."),
            ("user_img", "Here's how it looks now. The active path marker is missing on the root."),
            _ai(
                "Right, the marker was only applied to children. Fixed by marking the root before "
                "walking the stack.",
                "The screenshot shows the bullet missing on the first row.",
            ),
            ("label", "rewritten", "iterative tree"),
        ],
    ),
    DemoScript(
        "reader-compaction",
        "pitui",
        "Session reader: handle compactions",
        2000,
        [
            ("model", 1),
            ("user", "Implement context building for compactions, following Pi's rules."),
            _ai(
                "I'll read Pi's documentation on compaction first.",
                None,
                [
                    (
                        "read",
                        {"path": "docs/compaction.md"},
                        "When the context grows too large, pi summarizes older messages...\n"
                        "firstKeptEntryId identifies the first entry retained from before the "
                        "compaction entry.\n",
                    )
                ],
            ),
            ("mark", "kept"),
            _ai(
                "The context is: the latest compaction on the path, then the kept entries from "
                "`firstKeptEntryId` up to it (minus system messages), then everything after it."
            ),
            ("user", "What happens with a retain-none compaction?"),
            _ai(
                "It stores its own id in `firstKeptEntryId`, so no earlier entry matches and only "
                "the summary plus later entries remain."
            ),
            (
                "compact",
                "kept",
                "## Goal\nImplement compaction-aware context building.\n\n"
                "## Progress\n- Read docs/compaction.md\n- Rules understood",
                84_312,
            ),
            ("user", "Good, now write the code and tests."),
            _ai(
                "Implemented `build_context()` with tests for normal, retain-none and nested "
                "compactions.",
                None,
                [
                    (
                        "bash",
                        {"command": ".venv/bin/pytest tests/core/test_context.py -q"},
                        "..............                                            [100%]\n"
                        "14 passed in 0.22s\n",
                    )
                ],
            ),
            _ai("All 14 context tests pass."),
            (
                "compact",
                None,
                "## Goal\nCompaction-aware context.\n\n## Done\nCode and tests.",
                97_004,
            ),
            ("user", "Summarise what we did for the changelog."),
            _ai("- Context building now honours compactions, including retain-none ones."),
        ],
    ),
    DemoScript(
        "picker-search",
        "pitui",
        None,
        2600,
        [
            ("model", 2),
            ("user", "How does the session picker search work in Pi? I want the same behaviour."),
            _ai(
                "Tokens are AND-ed and case-insensitive; a quoted phrase matches literally; "
                "`re:` starts a regular expression. Name matches rank above id, message and cwd "
                "matches, which rank above fuzzy matches.",
                "Answer from the reference; no tools needed.",
            ),
            ("user", "And the threaded sort?"),
            _ai(
                "Forked sessions are nested under the session whose file path is their "
                "`parentSession`."
            ),
        ],
    ),
    DemoScript(
        "ui-theme",
        "pitui",
        "Dark theme tweaks",
        3100,
        [
            ("model", 0),
            ("user", "The thinking blocks are too bright in the dark theme. Dim them a bit."),
            _ai(
                "Changing the thinking block style to use `$text-muted`.",
                None,
                [
                    (
                        "edit",
                        {
                            "path": "pitui.tcss",
                            "oldText": "color: $text;",
                            "newText": "color: $text-muted;",
                        },
                        "Successfully replaced text in pitui.tcss.",
                    )
                ],
            ),
            _ai("Done; thinking blocks now use the muted text colour."),
            (
                "custom_message",
                "screenshot-check",
                "Snapshot tests updated: 3 changed, 41 unchanged.",
            ),
            ("context_edit_last_user", "Dim the thinking blocks in the dark theme."),
            ("name", "Dark theme: dim thinking blocks"),
        ],
    ),
    DemoScript(
        "zsh-startup",
        "dotfiles",
        "Speed up zsh startup",
        4300,
        [
            ("model", 0),
            ("thinking", "low"),
            ("user", "My shell takes almost a second to start. Can you find out why?"),
            _ai(
                "Let me time the startup with zprof.",
                None,
                [
                    (
                        "bash",
                        {
                            "command": "zsh -i -c 'zmodload zsh/zprof; source ~/.zshrc; zprof'"
                            " | head -6"
                        },
                        "num  calls            time                   self            name\n"
                        "-----------------------------------------------------------------------\n"
                        " 1)    1   612.41   612.41   71.02%   612.41   612.41   71.02%  nvm_auto\n"
                        " 2)    1   134.90   134.90   15.64%   134.90   134.90   15.64% compinit\n",
                    )
                ],
            ),
            _ai(
                "`nvm` accounts for 71% of the startup time. Loading it lazily, on the first call "
                "to `node`, `npm` or `nvm`, saves about 600 ms."
            ),
            ("bash", "exec zsh -l && echo ready", "ready\n", 0),
            ("user", "Do it, and cache compinit too."),
            _ai(
                "Updated `.zshrc`: lazy nvm loading and `compinit -C` with a daily dump refresh.",
                None,
                [
                    (
                        "edit",
                        {
                            "path": "zsh/.zshrc",
                            "oldText": "source $NVM_DIR/nvm.sh",
                            "newText": "lazy_nvm",
                        },
                        "Successfully replaced text in zsh/.zshrc.",
                    ),
                    (
                        "bash",
                        {"command": "for i in 1 2 3; do /usr/bin/time zsh -i -c exit; done"},
                        "0.09 real 0.05 user 0.03 sys\n0.08 real 0.05 user 0.02 sys\n"
                        "0.08 real 0.05 user 0.02 sys\n",
                    ),
                ],
            ),
            _ai("Startup went from 0.86 s to 0.08 s."),
        ],
    ),
    DemoScript(
        "git-aliases",
        "dotfiles",
        None,
        5000,
        [
            ("model", 3),
            ("user", "Suggest a few git aliases for a cleaner log."),
            _ai(
                "Here are three I use:\n\n```ini\n[alias]\n"
                "  lg = log --graph --oneline --decorate\n"
                "  last = log -1 HEAD --stat\n  unstage = reset HEAD --\n```"
            ),
            ("user", "Add them to my gitconfig."),
            _ai(
                "Added.",
                None,
                [
                    (
                        "bash",
                        {
                            "command": "git config --global alias.lg"
                            " 'log --graph --oneline --decorate'"
                        },
                        "",
                    )
                ],
            ),
            _ai("`git lg` now shows the graph log."),
            ("name", "temp"),
            ("name", ""),
        ],
    ),
    DemoScript(
        "nvim-lsp",
        "dotfiles",
        "Neovim: set up pyright",
        5600,
        [
            ("model", 0),
            ("user", "Set up pyright in my Neovim config; I use lazy.nvim."),
            _ai(
                "I'll add an `nvim-lspconfig` spec with pyright.",
                "Keep it minimal: one plugin spec and the on_attach keymaps.",
                [
                    (
                        "write",
                        {"path": "nvim/lua/plugins/lsp.lua", "content": "…"},
                        "Successfully wrote 640 bytes to nvim/lua/plugins/lsp.lua",
                    )
                ],
            ),
            ("mark", "written"),
            _ai(
                "Restart Neovim and run `:LspInfo` in a Python file to check that pyright attaches."
            ),
            ("user", "It says pyright is not executable."),
            _ai(
                "Pyright isn't installed. Installing it with npm.",
                None,
                [
                    (
                        "bash",
                        {"command": "npm install -g pyright"},
                        "npm ERR! code EACCES\nnpm ERR! syscall mkdir\n"
                        "npm ERR! path /usr/lib/node_modules/pyright\n",
                        True,
                    )
                ],
            ),
            _ai(
                "The global npm prefix isn't writable. Use `mason.nvim` instead, which installs "
                "language servers into your Neovim data directory."
            ),
            ("label", "written", "lsp config"),
            ("label", "written", None),
            ("label", "written", "lsp spec"),
        ],
    ),
    DemoScript(
        "blog-post",
        "blog",
        "Draft: why append-only session logs",
        7000,
        [
            ("model", 1),
            ("thinking", "high"),
            (
                "user",
                "Help me outline a blog post on why an agent's session log should be append-only.",
            ),
            _ai(
                "Outline:\n\n1. Crash safety: a partial last line is the worst case.\n"
                "2. Branching without rewriting: new entries point at older parents.\n"
                "3. Cheap tailing: readers only parse what is new.\n"
                "4. Edits as data: labels and context edits are entries too.",
                "The user wants an outline, not a full draft. Four sections feel right.",
            ),
            ("mark", "outline"),
            ("user", "Expand section 2 into two paragraphs."),
            _ai(
                "Branching is just a new entry whose parent is an older entry. Nothing already "
                "written changes, so a reader that saw the file a second ago stays valid.\n\n"
                "The cost is that the file holds every abandoned attempt, so tools must compute "
                "the active path from the leaf, not read the file top to bottom."
            ),
            ("goto", "outline"),
            (
                "branch_summary",
                "Expanded section 2 on branching; the user wants a different angle.",
            ),
            ("user", "Actually, start with the crash-safety argument and make it concrete."),
            _ai(
                "Picture the agent killed mid-write: an append-only log loses at most the line "
                "being written, and a reader can ignore a last line without a newline."
            ),
        ],
    ),
    DemoScript(
        "blog-typos",
        "blog",
        None,
        7400,
        [
            ("model", 2),
            ("user", "Fix the typos in posts/2025-12-append-only.md."),
            _ai(
                "Fixed four typos.",
                None,
                [
                    (
                        "bash",
                        {"command": "codespell -w posts/2025-12-append-only.md"},
                        "FIXED: posts/2025-12-append-only.md:12: recieve ==> receive\n"
                        "FIXED: posts/2025-12-append-only.md:30: seperate ==> separate\n",
                    )
                ],
            ),
            _ai("`codespell` fixed them in place; please review the diff."),
        ],
    ),
)
