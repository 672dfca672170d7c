/**
 * @module `npm run deploy`'s calls of wrangler (docs/operations.md): the project's own wrangler, run with this Node (or
 * the script at `CUCKOO_WRANGLER`, which the tests point at a recording stand-in), its output captured, bounded in
 * time, with a secret only ever on its stdin. What Cloudflare said when a call fails becomes one sentence.
 */
import { spawn } from "node:child_process";
import { stripVTControlCharacters } from "node:util";
import { wranglerBin, wranglerEnv } from "./local.mjs";

/** The wrangler script to run. */
const bin = () => process.env.CUCKOO_WRANGLER?.trim() || wranglerBin();

/**
 * Runs `wrangler <args>`: `stdin` is written to it (a secret goes there, never in `args`); `timeoutMs` bounds it.
 * Resolves with its exit code and its output, stdout and stderr together, as a person would have seen them.
 * @param {string[]} args
 * @param {{ stdin?: string, timeoutMs?: number, cwd: string }} options
 * @returns {Promise<{ code: number, out: string }>}
 */
export function wrangler(args, { stdin, timeoutMs = 120_000, cwd }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin(), ...args], {
      cwd,
      // No terminal on stdin: wrangler asks nothing and takes its defaults. No banner, and so no update check.
      env: { ...wranglerEnv(), WRANGLER_HIDE_BANNER: "true" },
      stdio: [stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    let out = "";
    child.stdout?.on("data", (chunk) => {
      out += chunk;
    });
    child.stderr?.on("data", (chunk) => {
      out += chunk;
    });
    const timer = setTimeout(() => {
      out += `\nwrangler ${args[0]} took longer than ${Math.round(timeoutMs / 1000)} s and was stopped.`;
      child.kill("SIGTERM");
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ code: 1, out: `${out}\n${error.message}` });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, out });
    });
    if (stdin !== undefined) child.stdin?.end(stdin);
  });
}

/** wrangler's words for a login it does not have or Cloudflare did not accept. */
const NOT_SIGNED_IN = /not logged in|wrangler login|set a CLOUDFLARE_API_TOKEN|authentication error|\[code: 10000\]|\[code: 9109\]|invalid access token/i;

/**
 * What a failed wrangler call means, as one sentence: a missing login, or the first error wrangler printed with
 * Cloudflare's own words and code.
 * @param {string} what what was being done, such as "creating the D1 database cuckoo"
 * @param {string} out
 */
export function cloudflareError(what, out) {
  if (NOT_SIGNED_IN.test(out)) return `Cloudflare did not accept wrangler's login while ${what}: run npx wrangler login, then npm run deploy again.`;
  const lines = out
    .split("\n")
    .map((line) => stripVTControlCharacters(line).trim())
    .filter((line) => line !== "");
  const at = lines.findIndex((line) => /\[ERROR\]|^✘|^Error:/.test(line));
  const said = at === -1 ? (lines.at(-1) ?? "no output") : [lines[at], lines[at + 1]].filter(Boolean).join(" ");
  const text = said
    .replace(/^✘\s*/, "")
    .replace(/^\[ERROR\]\s*/, "")
    .replace(/^Error:\s*/, "")
    .slice(0, 300);
  return `Cloudflare refused ${what}: ${text.replace(/\.?$/, ".")} Nothing after this step was changed; run npm run deploy again once it is fixed.`;
}
