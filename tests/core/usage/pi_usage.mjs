// Pi 1.6.0's own usage sums of session files: `getUsageCostBreakdown` (usage-totals.js) over
// the entries Pi loads (loadEntriesFromFile + migrateSessionEntries), per file.
//   node pi_usage.mjs ORACLE_DIR FILE...   -> one JSON line: {file: [{key, cost, tokens}]}
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";

const [oracleDir, ...files] = process.argv.slice(2);
const pkg = join(oracleDir, "node_modules", "@earendil-works", "pi-coding-agent", "dist", "core");
const sm = await import(pathToFileURL(join(pkg, "session-manager.js")).href);
const totals = await import(pathToFileURL(join(pkg, "usage-totals.js")).href);

const out = {};
for (const file of files) {
	const dir = mkdtempSync(join(tmpdir(), "pi-usage-"));
	try {
		const copy = join(dir, basename(file)); // Pi may append "\n" to a partial last line
		copyFileSync(file, copy);
		const all = sm.loadEntriesFromFile(copy);
		sm.migrateSessionEntries(all);
		out[file] = totals.getUsageCostBreakdown(all.filter((e) => e.type !== "session"));
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
process.stdout.write(JSON.stringify(out) + "\n");
