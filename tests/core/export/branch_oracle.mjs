// Pi's own createBranchedSession, for the export tests: one JSON request a line on stdin,
// {"file", "leafId", "dir"} -> {"ok": true, "lines": [...]} (the new file's lines).
// Runs on a copy in `dir`, as Pi rewrites an old-format file it opens.
import { copyFileSync } from "node:fs";
import { basename, join } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const pkg = join(process.env.PITUI_ORACLE_DIR, "node_modules", "@earendil-works", "pi-coding-agent");
const { SessionManager } = await import(pathToFileURL(join(pkg, "dist/core/session-manager.js")).href);
const out = process.stdout.write.bind(process.stdout);
console.log = (...args) => console.error(...args);

for await (const line of createInterface({ input: process.stdin })) {
	try {
		const { file, leafId, dir } = JSON.parse(line);
		const copy = join(dir, basename(file));
		copyFileSync(file, copy);
		const manager = SessionManager.open(copy, dir);
		manager.createBranchedSession(leafId);
		// What Pi writes (now, or with the first message when the path has none yet).
		const lines = manager.fileEntries.map((entry) => JSON.stringify(entry));
		out(JSON.stringify({ ok: true, lines, source: copy }) + "\n");
	} catch (error) {
		out(JSON.stringify({ ok: false, error: String(error?.stack ?? error) }) + "\n");
	}
}
