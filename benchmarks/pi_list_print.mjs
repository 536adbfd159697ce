#!/usr/bin/env node
// A whole Node process doing what `pitui list --all --json` does with Pi's own code: list
// every session of an agent dir (SessionManager.listAll()) and print them as JSON (Pi's keys,
// without allMessagesText, which pitui does not print either).
// Usage: node benchmarks/pi_list_print.mjs AGENT_DIR
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const oracleDir = process.env.PITUI_ORACLE_DIR || resolve(here, "..", ".oracle");
const pkg = join(oracleDir, "node_modules", "@earendil-works", "pi-coding-agent");
process.env.PI_CODING_AGENT_DIR = resolve(process.argv[2]);
const { SessionManager } = await import(pathToFileURL(join(pkg, "dist/core/session-manager.js")).href);
const sessions = await SessionManager.listAll();
const shown = sessions.map(({ allMessagesText, ...info }) => info);
process.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
