#!/usr/bin/env node
// Pi's own session listing time over a whole sessions root (every project folder).
// Usage: node benchmarks/pi_list.mjs SESSIONS_DIR [REPEATS=3]
// SessionManager.listAll(dir) would treat dir as ONE project folder, so this points
// PI_CODING_AGENT_DIR at an agent dir whose "sessions" is SESSIONS_DIR and calls listAll().
// Prints {"list_s": best seconds, "count": sessions, "files": n, "peak_rss_mb": ...}.
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const oracleDir = process.env.PITUI_ORACLE_DIR || resolve(here, "..", ".oracle");
const pkg = join(oracleDir, "node_modules", "@earendil-works", "pi-coding-agent");

const [dirArg, repeatsArg] = process.argv.slice(2);
if (!dirArg) {
	console.error("usage: pi_list.mjs SESSIONS_DIR [REPEATS]");
	process.exit(2);
}
const sessionsDir = resolve(dirArg);
let tempAgent = null;
let agentDir = dirname(sessionsDir);
if (basename(sessionsDir) !== "sessions") {
	tempAgent = mkdtempSync(join(tmpdir(), "pi-list-agent-"));
	symlinkSync(sessionsDir, join(tempAgent, "sessions"), "dir");
	agentDir = tempAgent;
}
process.env.PI_CODING_AGENT_DIR = agentDir; // read by getSessionsDir() on every call
const { SessionManager } = await import(pathToFileURL(join(pkg, "dist/core/session-manager.js")).href);

const repeats = Math.max(1, Number(repeatsArg ?? 3));
let best = Infinity;
let count = 0;
try {
	for (let i = 0; i < repeats; i++) {
		const start = process.hrtime.bigint();
		const sessions = await SessionManager.listAll();
		best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e9);
		count = sessions.length;
	}
} finally {
	if (tempAgent) rmSync(tempAgent, { recursive: true, force: true });
}
console.log(
	JSON.stringify({ list_s: best, repeats, count, peak_rss_mb: process.resourceUsage().maxRSS / 1024 }),
);
