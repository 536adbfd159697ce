#!/usr/bin/env node
// A whole Node process doing with Pi's own code what a pitui session command does, printing
// the answer (the counterpart of `pitui context FILE --json`, `pitui tree FILE [--json]`).
// Usage: node benchmarks/pi_session_print.mjs context|tree|tree-json FILE
//   context:   loadEntriesFromFile + migrateSessionEntries + buildSessionContext(leaf), as JSON
//   tree:      SessionManager.open + getTree + Pi's /tree component (TreeSelectorComponent:
//              flatten, active path, default filter), its first screen rendered at 80 columns,
//              then every row's display text (Pi's getEntryDisplayText), one per line
//   tree-json: the same tree, one JSON object per row before the filter (id, parentId, type,
//              role, label, depth, active, shown: kept by the default filter)
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const oracleDir = process.env.PITUI_ORACLE_DIR || resolve(here, "..", ".oracle");
const dist = join(oracleDir, "node_modules", "@earendil-works", "pi-coding-agent", "dist");
const load = (path) => import(pathToFileURL(join(dist, path)).href);

const [mode, file] = process.argv.slice(2);
if (!["context", "tree", "tree-json"].includes(mode) || !file) {
	console.error("usage: pi_session_print.mjs context|tree|tree-json FILE");
	process.exit(2);
}
const sm = await load("core/session-manager.js");
const write = (text) => process.stdout.write(text);

if (mode === "context") {
	const all = sm.loadEntriesFromFile(file);
	sm.migrateSessionEntries(all);
	const entries = all.filter((e) => e.type !== "session");
	const ctx = sm.buildSessionContext(entries, entries.at(-1)?.id);
	write(`${JSON.stringify(ctx)}\n`);
} else {
	const { initTheme } = await load("modes/interactive/theme/theme.js");
	const { TreeSelectorComponent } = await load("modes/interactive/components/tree-selector.js");
	initTheme("dark", false);
	const mgr = sm.SessionManager.open(file);
	const noop = () => {};
	const selector = new TreeSelectorComponent(mgr.getTree(), mgr.getLeafId(), 24, noop, noop, noop);
	const screen = selector.render(80);
	const list = selector.getTreeList();
	const chunks = [];
	if (mode === "tree") {
		chunks.push(screen.join("\n"));
		for (const flat of list.filteredNodes) chunks.push(list.getEntryDisplayText(flat.node, false));
	} else {
		const shown = new Set(list.filteredNodes.map((flat) => flat.node));
		for (const { node, indent } of list.flatNodes) {
			const { entry } = node;
			chunks.push(
				JSON.stringify({
					id: entry.id,
					parentId: entry.parentId,
					type: entry.type,
					role: entry.message?.role ?? null,
					label: node.label ?? null,
					depth: indent,
					active: list.activePathIds.has(entry.id),
					shown: shown.has(node),
				}),
			);
		}
	}
	write(`${chunks.join("\n")}\n`);
}
