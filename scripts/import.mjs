#!/usr/bin/env node
/**
 * `npm run import -- --format F [--chat ID] [--settings FILE] [--all-problems] PATH` (issue 16): reads a store
 * Cuckoo replaces and sends it to `POST /admin/import` (docs/imports.md). PATH is Playa's jobs.json, acpbot's
 * schedules folder (`<repo>/.acpbot/schedules`: every `*.json` in it; a script it names without its content is
 * read from the repo when it is there) or commitments.jsonl. Playa's chat-settings.json is `--settings`, else
 * found beside jobs.json or in `../telegram/`. The Worker is `CUCKOO_URL` (default http://localhost:8787), with
 * `ADMIN_TOKEN` when set. Prints what was created, skipped and left out (the first 20 problems, all of them
 * with `--all-problems`); exits 1 when the request failed.
 *
 * Nothing of an acpbot repo is read from outside it (issue 22): every path is resolved through its links
 * (`realpath`) first, so a script, a schedule file or a folder on the way that links outside the repo leaves
 * its schedule out with a sentence naming the link and where it leads. A watcher's command is run by the
 * runner; a link to /etc/passwd or ~/.ssh must not become one.
 */
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

const USAGE = "Usage: npm run import -- --format playa|acpbot|commitments [--chat ID] [--settings FILE] [--all-problems] PATH";
/** Problems printed without `--all-problems`. */
const SHOWN_PROBLEMS = 20;

/** @param {string} message @returns {never} */
function fail(message) {
  console.error(message);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
    options: {
      format: { type: "string" },
      chat: { type: "string" },
      settings: { type: "string" },
      "all-problems": { type: "boolean" },
      help: { type: "boolean" },
    },
    allowPositionals: true,
  });
} catch (error) {
  fail(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
}
const { values, positionals } = parsed;
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const format = values.format;
if (format !== "playa" && format !== "acpbot" && format !== "commitments") fail(`--format must be playa, acpbot or commitments.\n${USAGE}`);
if (positionals.length !== 1)
  fail(`Give one PATH: ${format === "acpbot" ? "the .acpbot/schedules folder" : format === "playa" ? "Playa's jobs.json" : "commitments.jsonl"}.\n${USAGE}`);
// `npm run` starts scripts in the package's folder; INIT_CWD is where the user typed the command.
const here = process.env.INIT_CWD || process.cwd();
const source = path.resolve(here, positionals[0] ?? "");
if (!existsSync(source)) fail(`${source} does not exist.`);

/** Notes of the CLI's own (a file it could not read), printed with the Worker's problems. @type {string[]} */
const notes = [];

/** @param {string} file @param {string} [label] the name a sentence gives it */
function readJsonFile(file, label = path.basename(file)) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    notes.push(`${label} is not JSON (${error instanceof Error ? error.message : String(error)}); it was left out.`);
    return undefined;
  }
}

/**
 * Where `file` (a path below `repo`, as written) really is, or why it may not be read: the first link on its way
 * from the repo (a folder, or the file itself) that resolves outside the repo, named with where it leads. A path
 * that does not exist is `{ missing }`: nothing to read, and nothing read.
 * @param {string} repo @param {string} realRepo @param {string} file
 * @returns {{ real: string } | { missing: true } | { link: string, target: string }}
 */
function resolveInside(repo, realRepo, file) {
  const inside = (/** @type {string} */ real) => real === realRepo || real.startsWith(realRepo + path.sep);
  let at = repo;
  let real = realRepo;
  for (const part of path.relative(repo, file).split(path.sep)) {
    at = path.join(at, part);
    try {
      real = realpathSync(at);
    } catch {
      return { missing: true };
    }
    // The part before resolved inside, so this one is a link (`..` cannot remain after path.resolve).
    if (!inside(real)) return { link: path.relative(repo, at), target: real };
  }
  return { real };
}

/** acpbot's schedule files, each with its script's content when the file names a script the repo has. */
function acpbotFiles() {
  if (!statSync(source).isDirectory()) fail(`For acpbot, PATH is the schedules folder (.acpbot/schedules), not a file.`);
  const repo = path.resolve(source, "..", "..");
  const realRepo = realpathSync(repo);
  /** @param {string} link @param {string} target */
  const through = (link, target) => `(${JSON.stringify(link)} links to ${target})`;
  const files = [];
  for (const name of readdirSync(source)
    .filter((n) => n.endsWith(".json"))
    .sort()) {
    const where = resolveInside(repo, realRepo, path.join(source, name));
    if ("link" in where) {
      notes.push(`${name} is outside the repo ${through(where.link, where.target)}; it was left out.`);
      continue;
    }
    if ("missing" in where) {
      notes.push(`${name} is a link to nothing that exists; it was left out.`);
      continue;
    }
    const file = readJsonFile(where.real, name);
    if (file === undefined) continue;
    if (file && typeof file === "object" && typeof file.script === "string" && typeof file.scriptContent !== "string") {
      const named = JSON.stringify(file.script);
      const script = path.resolve(repo, file.script);
      // Scripts are relative to the repo root, never outside it (acpbot refuses `..` as well).
      if (!script.startsWith(repo + path.sep)) {
        notes.push(`${name} runs the script ${named}, which is outside the repo; it was left out.`);
        continue;
      }
      const found = resolveInside(repo, realRepo, script);
      if ("link" in found) {
        notes.push(`${name} runs the script ${named}, which is outside the repo ${through(found.link, found.target)}; it was left out.`);
        continue;
      }
      // A script the repo does not have goes without its content; the Worker's sentence says what to do.
      if ("real" in found && statSync(found.real).isFile()) file.scriptContent = readFileSync(found.real, "utf8");
    }
    files.push(file);
  }
  return files;
}

/** Playa's chat-settings.json: `--settings`, else beside jobs.json, else in ../telegram/ (Playa's layout). */
function playaSettings() {
  const candidates = values.settings
    ? [path.resolve(here, values.settings)]
    : [path.join(path.dirname(source), "chat-settings.json"), path.join(path.dirname(source), "..", "telegram", "chat-settings.json")];
  const found = candidates.find((file) => existsSync(file));
  if (values.settings && !found) fail(`${candidates[0]} does not exist.`);
  return found ? readJsonFile(found) : undefined;
}

/** @type {{ format: string; data: unknown; settings?: unknown; chatId?: string }} */
const body = { format, data: undefined, ...(values.chat ? { chatId: values.chat } : {}) };
if (format === "acpbot") body.data = acpbotFiles();
else if (format === "commitments") body.data = readFileSync(source, "utf8");
else {
  body.data = readJsonFile(source) ?? null;
  const settings = playaSettings();
  if (settings !== undefined) body.settings = settings;
}

const base = (process.env.CUCKOO_URL?.trim() || "http://localhost:8787").replace(/\/+$/, "");
const token = process.env.ADMIN_TOKEN?.trim();
let response;
try {
  response = await fetch(`${base}/admin/import`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
} catch (error) {
  console.error(
    `Could not reach ${base}/admin/import: ${error instanceof Error ? error.message : String(error)}. Is the Worker running (npm run dev), or is CUCKOO_URL set?`,
  );
  process.exit(1);
}
/** @type {any} */
const answer = await response.json().catch(() => null);
if (!response.ok) {
  console.error(`${response.status}: ${answer?.error?.message ?? "the Worker refused the import."}`);
  process.exit(1);
}
/** @param {number} n @param {string} one @param {string} many */
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
console.log(`Created ${plural(answer.created, "job", "jobs")}; skipped ${plural(answer.skipped, "entry", "entries")} imported before.`);
const problems = [...notes, ...answer.problems];
const shown = values["all-problems"] ? problems : problems.slice(0, SHOWN_PROBLEMS);
for (const problem of shown) console.log(`- ${problem}`);
if (shown.length < problems.length) {
  console.log(
    `… and ${plural(problems.length - shown.length, "more problem", "more problems")} (${problems.length} in all); add --all-problems to print every one.`,
  );
}
