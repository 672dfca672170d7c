/**
 * @module What `npm run dev` (scripts/dev.mjs) shows of wrangler's and the runner's output: only what a person acts
 * on until the Worker is ready, then everything as wrangler prints it. Pure: lines in, lines (or nothing) out.
 *
 * Always kept out: the bindings table and the table of additional modules (wrangler prints the second on every
 * rebuild; `--verbose` shows both), the containers wrangler lists although dev runs none (wrangler.toml's
 * `[dev] enable_containers = false`), a secrets file outside the project (the session's runner secret, in a
 * temporary directory), and workerd's "NOSENTRY SQLite alarm overdue" note (an alarm delivered a few
 * milliseconds off the time its alarm manager held; workerd runs it all the same). Until wrangler's "Ready on"
 * line also blank lines, "Starting local server" and the count of header rules (`--verbose` shows them). After
 * it, every other line passes unchanged, but for the one request log line of dev's own `/healthz` probe. Colour
 * codes are removed unless the output is a terminal.
 */
import path from "node:path";
import { stripVTControlCharacters } from "node:util";

/** Where docs/operations.md explains a runner that runs as root. */
export const ROOT_DOCS = "docs/operations.md#running-as-root";

/** The runner's own warning when it runs as root with no user for its scripts (runner/src/main.ts). */
const RUNNER_AS_ROOT = /^cuckoo-runner: it runs as root without RUNNER_SCRIPT_UID and RUNNER_SCRIPT_GID\b/;

/** The one line that says the same, for `npm run dev`. */
export const ROOT_WARNING = `cuckoo: warning: the runner runs as root, so watchers' scripts run as root too and can read its secret (${ROOT_DOCS}).`;

/** Blocks of lines wrangler prints, each from its first line to where it ends. */
const BLOCKS = {
  bindings: { start: /^Your Worker has access to the following bindings:$/, endsAtBlank: true },
  containers: { start: /^The following containers are available/, endsAtBlank: true },
  modules: { start: /^Attaching additional modules:$/, endsAtBlank: false },
};

/** @typedef {keyof typeof BLOCKS} Block */

/**
 * A filter for wrangler's stdout and stderr together (one filter: wrangler's "Ready on" line on stdout marks the
 * end of start-up for both).
 * @param {{ root: string; verbose?: boolean; color?: boolean }} options `root`: the project's directory (a
 *   secrets file elsewhere is not named); `verbose`: `npm run dev -- --verbose`, the tables and start-up lines
 *   shown; `color`: the output is a terminal, so wrangler's colour codes stay.
 */
export function wranglerFilter({ root, verbose = false, color = false }) {
  /** @type {string | null} */
  let ready = null;
  /** @type {Block | null} */
  let block = null;
  /** Blank lines still to drop after a dropped warning (esbuild's format ends a warning with two). */
  let blanksAfterWarning = 0;
  let probes = 0;

  /**
   * The line to print for one line of wrangler's, or null for none.
   * @param {string} line without its line break
   * @returns {string | null}
   */
  function line(line) {
    const text = stripVTControlCharacters(line);
    const shown = color ? line : text;
    const blank = text.trim() === "";
    if (blanksAfterWarning > 0) {
      if (blank) {
        blanksAfterWarning--;
        return null;
      }
      blanksAfterWarning = 0;
    }
    if (block !== null) {
      const name = block;
      if (inBlock(name, text, blank)) return verbose && name !== "containers" ? shown : null;
    }
    if (text.includes("NOSENTRY SQLite alarm overdue")) {
      blanksAfterWarning = 2;
      return null;
    }
    for (const [name, { start }] of /** @type {[Block, (typeof BLOCKS)[Block]][]} */ (Object.entries(BLOCKS))) {
      if (start.test(text)) {
        block = name;
        return verbose && name !== "containers" ? shown : null;
      }
    }
    const secrets = /^Using secrets defined in (.+)$/.exec(text);
    if (secrets && !inside(root, secrets[1] ?? "")) return null;
    if (ready === null) {
      const readyOn = /^\[wrangler:info\] Ready on (\S+)/.exec(text);
      if (readyOn) {
        ready = readyOn[1] ?? "";
        return shown;
      }
      if (blank) return null;
      if (!verbose && STARTING.some((re) => re.test(text))) return null;
    } else if (probes > 0 && /^\[wrangler:info\] GET \/healthz \d{3} /.test(text)) {
      probes--;
      return null;
    }
    return shown;
  }

  /**
   * Whether the block goes on with this line (it is part of it); at its end `block` is cleared.
   * @param {Block} name
   * @param {string} text
   * @param {boolean} blank
   */
  function inBlock(name, text, blank) {
    if (BLOCKS[name].endsAtBlank) {
      if (blank) block = null;
      return true;
    }
    // The modules table: box-drawing lines, up to its bottom edge.
    if (/^[┌│├└]/.test(text)) {
      if (text.startsWith("└")) block = null;
      return true;
    }
    block = null;
    return false;
  }

  return {
    line,
    /** The address of wrangler's "Ready on" line once it came, else null. */
    get ready() {
      return ready;
    },
    /** Dev is about to ask `/healthz` itself: the next request log line of it is its own, and not shown. */
    probe() {
      probes++;
    },
  };
}

/** Start-up lines that say nothing to act on (shown with `--verbose`). */
const STARTING = [/^ ?⛅️ wrangler \d/, /^─+$/, /^⎔ Starting local server\.\.\.$/, /^\[wrangler:info\] ✨ Parsed \d+ valid (header|redirect) rules?\.$/];

/**
 * Whether `file` (as wrangler names it: relative to the project) is inside `root`.
 * @param {string} root
 * @param {string} file
 */
function inside(root, file) {
  const relative = path.relative(root, path.resolve(root, file));
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
}

/**
 * The line to print for one line of the runner's output started by `npm run dev`, or null: its warning about
 * root as one sentence with where the docs explain it, its "listening" line left to dev's summary (which names
 * the address) unless `verbose`; everything else unchanged.
 * @param {string} line
 * @param {{ verbose?: boolean }} [options]
 * @returns {string | null}
 */
export function runnerLine(line, { verbose = false } = {}) {
  if (RUNNER_AS_ROOT.test(line)) return verbose ? line : ROOT_WARNING;
  if (!verbose && /^cuckoo-runner listening on /.test(line)) return null;
  return line;
}
