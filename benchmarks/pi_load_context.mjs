#!/usr/bin/env node
// Pi's own load + migrate + buildSessionContext time for one session file.
// Usage: node benchmarks/pi_load_context.mjs FILE [REPEATS=3]
// Prints {"load_context_s": best seconds, "messages": n, "entries": n, "peak_rss_mb": ...}.
// Note: loadEntriesFromFile appends "\n" to a file whose last line is partial; pass complete files.
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const oracleDir = process.env.PITUI_ORACLE_DIR || resolve(here, "..", ".oracle");
const pkg = join(oracleDir, "node_modules", "@earendil-works", "pi-coding-agent");
const sm = await import(pathToFileURL(join(pkg, "dist/core/session-manager.js")).href);

const [file, repeatsArg] = process.argv.slice(2);
if (!file) {
	console.error("usage: pi_load_context.mjs FILE [REPEATS]");
	process.exit(2);
}
const repeats = Math.max(1, Number(repeatsArg ?? 3));
let best = Infinity;
let messages = 0;
let entryCount = 0;
for (let i = 0; i < repeats; i++) {
	const start = process.hrtime.bigint();
	const all = sm.loadEntriesFromFile(file);
	sm.migrateSessionEntries(all);
	const entries = all.filter((e) => e.type !== "session");
	const ctx = sm.buildSessionContext(entries, entries.at(-1)?.id);
	const seconds = Number(process.hrtime.bigint() - start) / 1e9;
	best = Math.min(best, seconds);
	messages = ctx.messages.length;
	entryCount = entries.length;
}
console.log(
	JSON.stringify({
		load_context_s: best,
		repeats,
		entries: entryCount,
		messages,
		peak_rss_mb: process.resourceUsage().maxRSS / 1024,
	}),
);
