#!/usr/bin/env node
// Conformance oracle: runs Pi's own session code (the installed npm package) on request.
//
// Protocol: one JSON request per line on stdin, one JSON response per line on stdout:
//   {"ok":true,"result":...} or {"ok":false,"error":"..."}.
// Ops: ping, context, listAll, list, listAllDefault, listDefault, open, roundtrip, labelTimes, treeText, treeRows,
// branch, contextEdit, search
// (see tests/oracle.py).
// Package location: $PITUI_ORACLE_DIR (default <repo>/.oracle).
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const oracleDir = process.env.PITUI_ORACLE_DIR || resolve(here, "..", "..", ".oracle");
const pkg = join(oracleDir, "node_modules", "@earendil-works", "pi-coding-agent");

// Pi's code must never write to our protocol channel.
const out = process.stdout.write.bind(process.stdout);
console.log = (...args) => console.error(...args);
console.info = console.log;
console.debug = console.log;

const sm = await import(pathToFileURL(join(pkg, "dist/core/session-manager.js")).href);
const compaction = await import(pathToFileURL(join(pkg, "dist/core/compaction/compaction.js")).href);
const { loadEntriesFromFile, migrateSessionEntries, buildSessionProjection, SessionManager } = sm;
const { estimateProjectedContextTokens } = compaction;
const selectorSearch = await import(
	pathToFileURL(join(pkg, "dist/modes/interactive/components/session-selector-search.js")).href
);

/** Run fn on a private copy of file (Pi appends "\n" to files with a partial last line). */
function withCopy(file, fn) {
	const dir = mkdtempSync(join(tmpdir(), "pi-oracle-"));
	const copy = join(dir, basename(file));
	try {
		copyFileSync(file, copy);
		return fn(copy);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

function opContext({ file, leafIndex = null, leafId = null }) {
	return withCopy(file, (copy) => {
		const all = loadEntriesFromFile(copy);
		migrateSessionEntries(all);
		const entries = all.filter((e) => e.type !== "session");
		let leaf;
		if (leafId !== null && leafId !== undefined) leaf = leafId;
		else if (leafIndex !== null && leafIndex !== undefined) {
			if (leafIndex < 0 || leafIndex >= entries.length) throw new Error(`leafIndex ${leafIndex} out of range`);
			leaf = entries[leafIndex].id;
		}
		const ctx = buildSessionProjection(entries, leaf);
		return {
			messages: ctx.messages,
			thinkingLevel: ctx.thinkingLevel,
			model: ctx.model,
			// as Pi's getContextUsage: usage from before a later edit or compaction not trusted
			tokens: estimateProjectedContextTokens(ctx, branchOf(entries, leaf)).tokens,
			leafIds: entries.map((e) => e.id),
		};
	});
}

/** The entries from the root to `leaf` (the last entry when undefined), as getBranch. */
function branchOf(entries, leaf) {
	const byId = new Map(entries.map((e) => [e.id, e]));
	const path = [];
	let current = byId.get(leaf === undefined ? entries.at(-1)?.id : leaf);
	while (current) {
		path.push(current);
		current = current.parentId ? byId.get(current.parentId) : undefined;
	}
	return path.reverse();
}

function isoOrNull(d) {
	if (!(d instanceof Date)) return d ?? null;
	return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

function infos(list, withText) {
	return list.map((s) => {
		const o = { ...s, created: isoOrNull(s.created), modified: isoOrNull(s.modified) };
		if (!withText) delete o.allMessagesText;
		return o;
	});
}

function flattenTree(roots) {
	const rows = [];
	const stack = roots.map((n) => [n, 0]).reverse();
	while (stack.length) {
		const [node, depth] = stack.pop();
		const e = node.entry;
		rows.push({ id: e.id, parentId: e.parentId ?? null, type: e.type, label: node.label ?? null, depth });
		for (let i = node.children.length - 1; i >= 0; i--) stack.push([node.children[i], depth + 1]);
	}
	return rows;
}

function opOpen({ file }) {
	const mgr = SessionManager.open(file);
	const labels = {};
	for (const e of mgr.getEntries()) {
		const label = mgr.getLabel(e.id);
		if (label !== undefined) labels[e.id] = label;
	}
	return {
		sessionName: mgr.getSessionName() ?? null,
		labels,
		leafId: mgr.getLeafId(),
		entryCount: mgr.getEntryCount(),
		tree: flattenTree(mgr.getTree()),
	};
}

/** Lines of file that JSON.stringify(JSON.parse(line)) would not reproduce byte for byte. */
function opRoundtrip({ file }) {
	const lines = readFileSync(file, "utf8").split("\n");
	if (lines[lines.length - 1] === "") lines.pop();
	const mismatches = [];
	lines.forEach((line, i) => {
		if (JSON.stringify(JSON.parse(line)) !== line) mismatches.push(i);
	});
	return { lines: lines.length, mismatches };
}

/** One method of Pi's tree selector, an unexported class: its own source text, taken from
 * the package, made a function of `params`. */
function treeSelectorMethod(signature, ...params) {
	const file = join(pkg, "dist/modes/interactive/components/tree-selector.js");
	const source = readFileSync(file, "utf8");
	const start = source.indexOf(`    ${signature} {`);
	const end = source.indexOf("\n    }\n", start);
	if (start < 0 || end < 0) throw new Error(`${signature} not found in tree-selector.js`);
	return new Function(...params, source.slice(source.indexOf("{", start) + 1, end));
}

let formatLabelTimestamp;
function opLabelTimes({ timestamps }) {
	formatLabelTimestamp ??= treeSelectorMethod("formatLabelTimestamp(timestamp)", "timestamp");
	return timestamps.map((t) => formatLabelTimestamp(t));
}

/** The tree's hasTextContent (which assistant messages the filters hide) and formatToolCall
 * (how a tool result names its call), with HOME set to `home`. */
let treeText;
async function opTreeText({ home, contents, calls }) {
	if (!treeText) {
		const { shortenHomePath } = await import(pathToFileURL(join(pkg, "dist/utils/paths.js")).href);
		const renderUtils = join(pkg, "dist/core/tools/render-utils.js");
		const { formatReadLineRange } = await import(pathToFileURL(renderUtils).href);
		const hasTextContent = treeSelectorMethod("hasTextContent(content)", "content");
		const formatToolCall = treeSelectorMethod(
			"formatToolCall(name, args)",
			"shortenHomePath",
			"formatReadLineRange",
			"name",
			"args",
		);
		treeText = {
			hasTextContent,
			formatToolCall: (name, args) => formatToolCall(shortenHomePath, formatReadLineRange, name, args),
		};
	}
	process.env.HOME = home;
	delete process.env.USERPROFILE;
	return {
		hasText: contents.map((content) => treeText.hasTextContent(content)),
		calls: calls.map(([name, args]) => treeText.formatToolCall(name, args)),
	};
}

/** Pi's /tree rows of a session before any filter: its own flattenTree (which also fills the
 * tool-call map, in its walking order), each row's getEntryDisplayText (the theme reduced to
 * plain text) and what search looks in (getSearchableText, lowercased). Where Pi throws, the
 * value is {error}. */
let rowText;
async function opTreeRows({ file, home }) {
	await opTreeText({ home, contents: [], calls: [] }); // loads formatToolCall
	rowText ??= {
		flattenTree: treeSelectorMethod("flattenTree(roots)", "roots"),
		extractFullContent: treeSelectorMethod("extractFullContent(content)", "content"),
		extractContent: treeSelectorMethod("extractContent(content)", "content"),
		getEntryDisplayText: treeSelectorMethod("getEntryDisplayText(node, isSelected)", "theme", "node", "isSelected"),
		getSearchableText: treeSelectorMethod("getSearchableText(node)", "node"),
	};
	const plain = { fg: (_color, text) => text, italic: (text) => text, bold: (text) => text };
	return withCopy(file, (copy) => {
		const mgr = SessionManager.open(copy);
		const roots = mgr.getTree();
		const self = {
			...rowText,
			formatToolCall: treeText.formatToolCall,
			toolCallMap: new Map(),
			currentLeafId: mgr.getLeafId(),
			multipleRoots: roots.length > 1,
		};
		const attempt = (fn) => {
			try {
				return fn();
			} catch (err) {
				return { error: String(err) };
			}
		};
		return self.flattenTree(roots).map(({ node }) => ({
			id: node.entry.id,
			text: attempt(() => self.getEntryDisplayText.call(self, plain, node, false)),
			search: attempt(() => self.getSearchableText(node).toLowerCase()),
		}));
	});
}

import { existsSync } from "node:fs";

/** Pi's createBranchedSession(leafId) on a copy: the new file's name and parsed lines (the
 * header's parentSession names the copy). Null when Pi wrote no file. */
function opBranch({ file, leafId }) {
	return withCopy(file, (copy) => {
		const mgr = SessionManager.open(copy);
		const created = mgr.createBranchedSession(leafId);
		if (!created || !existsSync(created)) return null;
		const lines = readFileSync(created, "utf8").split("\n");
		if (lines[lines.length - 1] === "") lines.pop();
		return { name: basename(created), source: copy, text: lines, lines: lines.map((l) => JSON.parse(l)) };
	});
}

/** Pi's appendContextEdit(targetId, replacement) on a copy: the appended line, or {error}. */
function opContextEdit({ file, targetId, replacement }) {
	return withCopy(file, (copy) => {
		const mgr = SessionManager.open(copy);
		try {
			mgr.appendContextEdit(targetId, replacement);
		} catch (err) {
			return { error: String(err?.message ?? err) };
		}
		const lines = readFileSync(copy, "utf8").split("\n");
		if (lines[lines.length - 1] === "") lines.pop();
		return { line: JSON.parse(lines[lines.length - 1]) };
	});
}

/** Pi's picker search: filterAndSortSessions over listAll() of the agent dir, for each query
 * the paths it shows, in order. */
async function opSearch({ agentDir, queries, sortMode, nameFilter = "all" }) {
	process.env.PI_CODING_AGENT_DIR = agentDir;
	const sessions = await SessionManager.listAll();
	return queries.map((query) =>
		selectorSearch.filterAndSortSessions(sessions, query, sortMode, nameFilter).map((s) => s.path),
	);
}

async function handle(req) {
	switch (req.op) {
		case "ping":
			return { pong: true, node: process.version, pkg };
		case "context":
			return opContext(req);
		case "listAll":
			return infos(await SessionManager.listAll(req.sessionDir), req.withText);
		case "list":
			return infos(await SessionManager.list(req.cwd, req.sessionDir), req.withText);
		case "listAllDefault":
			process.env.PI_CODING_AGENT_DIR = req.agentDir; // getSessionsDir() reads it per call
			return infos(await SessionManager.listAll(), req.withText);
		case "listDefault": // what `pi --resume` lists in cwd (Pi makes the cwd's folder if missing)
			process.env.PI_CODING_AGENT_DIR = req.agentDir; // getAgentDir() reads it per call
			return infos(await SessionManager.list(req.cwd), req.withText);
		case "open":
			return opOpen(req);
		case "roundtrip":
			return opRoundtrip(req);
		case "labelTimes":
			return opLabelTimes(req);
		case "treeText":
			return opTreeText(req);
		case "treeRows":
			return opTreeRows(req);
		case "branch":
			return opBranch(req);
		case "contextEdit":
			return opContextEdit(req);
		case "search":
			return opSearch(req);
		default:
			throw new Error(`unknown op: ${req.op}`);
	}
}

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of rl) {
	if (!line.trim()) continue;
	let response;
	try {
		response = { ok: true, result: await handle(JSON.parse(line)) };
	} catch (err) {
		response = { ok: false, error: String(err?.stack || err) };
	}
	out(`${JSON.stringify(response)}\n`);
}
