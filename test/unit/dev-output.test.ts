/**
 * What `npm run dev` shows of wrangler's and the runner's output (scripts/lib/dev-output.mjs; issue 38 item 3),
 * on wrangler 4.164's real output captured from `npm run dev` (test/fixtures/dev-output/: through a pipe, and
 * with FORCE_COLOR=1 as a terminal gets it; the project's path in the containers line replaced), and workerd's
 * alarm note as wrangler's logger formats a warning (esbuild's formatMessagesSync, colours on). And the summary it prints once ready (scripts/lib/dev-summary.mjs).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs module without types
import { ROOT_WARNING, runnerLine, wranglerFilter } from "../../scripts/lib/dev-output.mjs";
// @ts-expect-error: a plain .mjs module without types
import { configuredZone, summaryLines } from "../../scripts/lib/dev-summary.mjs";

type Filter = { line(line: string): string | null; readonly ready: string | null; probe(): void };

/** The project's directory as the fixtures name it (the capturing machine's own path replaced by this one). */
const root = "/home/dev/cuckoo";
const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/dev-output");

/** A fixture's lines, without the last line break. */
function fixture(name: string): string[] {
  return readFileSync(path.join(fixtures, name), "utf8").replace(/\n$/, "").split("\n");
}

/** The lines the filter prints of `lines`. */
function shown(filter: Filter, lines: string[]): string[] {
  return lines.map((line) => filter.line(line)).filter((line): line is string => line !== null);
}

const ESC = "\u001b";

describe("wrangler's output in npm run dev", () => {
  it("shows only the Ready line of start-up, then every line but the tables of modules", () => {
    const filter: Filter = wranglerFilter({ root });
    const lines = fixture("wrangler-pipe.stdout.txt");
    expect(lines.length).toBe(132);
    expect(shown(filter, lines)).toEqual([
      "[wrangler:info] Ready on http://localhost:18787",
      "[wrangler:info] GET /healthz 200 OK (2377ms)",
      "[wrangler:info] GET /healthz 200 OK (4ms)",
      "[wrangler:info] GET /healthz 200 OK (7ms)",
      "⎔ Reloading local server...",
      "[wrangler:info] ✨ Parsed 1 valid header rule.",
      "⎔ Local server updated and ready",
      "[wrangler:info] POST /admin/preview 400 Bad Request (73ms)",
      "[wrangler:info] POST /admin/preview 400 Bad Request (11ms)",
      "[wrangler:info] GET /healthz 200 OK (5ms)",
      "[wrangler:info] POST /admin/preview 400 Bad Request (6ms)",
      "⎔ Reloading local server...",
      "[wrangler:info] ✨ Parsed 1 valid header rule.",
      "⎔ Local server updated and ready",
      "[wrangler:info] GET / 200 OK (12ms)",
    ]);
    expect(filter.ready).toBe("http://localhost:18787");
  });

  it("removes colour codes unless the output is a terminal, and keeps them when it is", () => {
    const lines = fixture("wrangler-tty.stdout.txt");
    expect(lines.filter((line) => line.includes(ESC)).length).toBe(53);
    const plain = shown(wranglerFilter({ root }), lines);
    expect(plain).toEqual([
      "[wrangler:info] Ready on http://localhost:18787",
      "[wrangler:info] GET /healthz 200 OK (1341ms)",
      "[wrangler:info] POST /admin/chats/5/messages 202 Accepted (79ms)",
      "[wrangler:info] QUEUE prompts 1/1 (25ms)",
    ]);
    const coloured = shown(wranglerFilter({ root, color: true }), lines);
    expect(coloured[0]).toBe(`${ESC}[32m[wrangler:info]${ESC}[39m Ready on ${ESC}[32mhttp://localhost:18787${ESC}[39m`);
    expect(coloured[3]).toBe(
      `${ESC}[32m[wrangler:info]${ESC}[39m ${ESC}[0m${ESC}[1mQUEUE${ESC}[22m prompts ${ESC}[32m1/1${ESC}[39m${ESC}[90m (25ms)${ESC}[39m${ESC}[0m`,
    );
  });

  it("with --verbose shows the banner, the tables and the start-up lines, never the containers or a file outside the project", () => {
    const lines = fixture("wrangler-tty.stdout.txt");
    const out = shown(wranglerFilter({ root, verbose: true }), lines);
    expect(out.length).toBe(56);
    expect(out.slice(0, 4)).toEqual([
      " ⛅️ wrangler 4.164.0 (update available 4.168.0)",
      "───────────────────────────────────────────────",
      "Your Worker has access to the following bindings:",
      "Binding                                                      Resource                  Mode",
    ]);
    expect(out).toContain("Attaching additional modules:");
    expect(out).toContain("│ chrono/uk.mjs               │ esm  │ 13.28 KiB  │");
    expect(out.slice(-6)).toEqual([
      "⎔ Starting local server...",
      "[wrangler:info] ✨ Parsed 1 valid header rule.",
      "[wrangler:info] Ready on http://localhost:18787",
      "[wrangler:info] GET /healthz 200 OK (1341ms)",
      "[wrangler:info] POST /admin/chats/5/messages 202 Accepted (79ms)",
      "[wrangler:info] QUEUE prompts 1/1 (25ms)",
    ]);
    expect(lines.some((line) => line.startsWith("The following containers are available:"))).toBe(true);
    expect(out.filter((line) => /containers|cuckoo-runnercontainer|\/tmp\//.test(line))).toEqual([]);
  });

  it("names a secrets file of the project, and none outside it", () => {
    const filter: Filter = wranglerFilter({ root });
    expect(filter.line("Using secrets defined in .dev.vars")).toBe("Using secrets defined in .dev.vars");
    expect(filter.line("Using secrets defined in ../../tmp/cuckoo-dev-pnhiaL/runner.env")).toBe(null);
    expect(filter.line("Using secrets defined in /tmp/cuckoo-dev-pnhiaL/runner.env")).toBe(null);
  });

  it("keeps workerd's alarm note and its blank lines out, and the next line in", () => {
    const filter: Filter = wranglerFilter({ root });
    filter.line("[wrangler:info] Ready on http://localhost:8787");
    const note = fixture("nosentry.stderr.txt");
    expect(note[0]).toContain("NOSENTRY SQLite alarm overdue");
    expect(note.length).toBe(3);
    expect(shown(filter, [...note, "[wrangler:info] QUEUE prompts 1/1 (25ms)", ""])).toEqual(["[wrangler:info] QUEUE prompts 1/1 (25ms)", ""]);
  });

  it("passes other warnings and blank lines after start-up as wrangler prints them", () => {
    const filter: Filter = wranglerFilter({ root });
    expect(filter.line("")).toBe(null);
    expect(filter.line("▲ [WARNING] Something to fix")).toBe("▲ [WARNING] Something to fix");
    filter.line("[wrangler:info] Ready on http://localhost:8787");
    expect(filter.line("")).toBe("");
    expect(filter.line("⎔ Starting local server...")).toBe("⎔ Starting local server...");
  });

  it("leaves out the request log line of its own /healthz probe, once", () => {
    const filter: Filter = wranglerFilter({ root });
    filter.line("[wrangler:info] Ready on http://localhost:8787");
    filter.probe();
    expect(
      shown(filter, ["[wrangler:info] GET / 200 OK (12ms)", "[wrangler:info] GET /healthz 200 OK (2377ms)", "[wrangler:info] GET /healthz 200 OK (4ms)"]),
    ).toEqual(["[wrangler:info] GET / 200 OK (12ms)", "[wrangler:info] GET /healthz 200 OK (4ms)"]);
  });
});

describe("the runner's output in npm run dev", () => {
  const rootWarning =
    "cuckoo-runner: it runs as root without RUNNER_SCRIPT_UID and RUNNER_SCRIPT_GID, so scripts run as root too and can read its secret; set both to an unprivileged user's ids, such as RUNNER_SCRIPT_UID=65534 RUNNER_SCRIPT_GID=65534 (nobody) with a WORKSPACE_ROOT that user can reach, or run the runner as another user.";
  const listening = "cuckoo-runner listening on http://127.0.0.1:18788 (workspaces in /tmp/i38/state-Q6jC/ws, at most 8 runs at once)";

  it("says root in one sentence with its docs section, and leaves the address to the summary", () => {
    expect(runnerLine(rootWarning)).toBe(
      "cuckoo: warning: the runner runs as root, so watchers' scripts run as root too and can read its secret (docs/operations.md#running-as-root).",
    );
    expect(ROOT_WARNING).toBe(runnerLine(rootWarning));
    expect(runnerLine(listening)).toBe(null);
    expect(runnerLine("cuckoo-runner: SIGINT, stopping 0 running run(s)")).toBe("cuckoo-runner: SIGINT, stopping 0 running run(s)");
  });

  it("with --verbose says both as the runner does", () => {
    expect(runnerLine(rootWarning, { verbose: true })).toBe(rootWarning);
    expect(runnerLine(listening, { verbose: true })).toBe(listening);
  });
});

describe("the zone npm run dev names", () => {
  const toml = '[vars]\nCUCKOO_DEV = "0"\nDEFAULT_TIMEZONE = "Europe/Berlin"\n\n[dev]\nip = "localhost"\n';

  it("is wrangler.toml's, else UTC", () => {
    expect(configuredZone({ args: [], envFiles: [], toml })).toEqual({ zone: "Europe/Berlin", from: "wrangler.toml" });
    expect(configuredZone({ args: [], envFiles: [], toml: '[vars]\nCUCKOO_DEV = "0"\n[env.x.vars]\nDEFAULT_TIMEZONE = "Asia/Tokyo"\n' })).toEqual({
      zone: "UTC",
      from: "the default",
    });
  });

  it("is an env file's over wrangler.toml's, the last file's first", () => {
    const envFiles = [
      { name: ".env", text: "DEFAULT_TIMEZONE='America/New_York'\n" },
      { name: ".env.local", text: "ADMIN_TOKEN=x\nDEFAULT_TIMEZONE=Australia/Lord_Howe # a comment\n" },
    ];
    expect(configuredZone({ args: [], envFiles, toml })).toEqual({ zone: "Australia/Lord_Howe", from: ".env.local" });
    expect(configuredZone({ args: [], envFiles: envFiles.slice(0, 1), toml })).toEqual({ zone: "America/New_York", from: ".env" });
  });

  it("is --var's over everything", () => {
    const envFiles = [{ name: ".dev.vars", text: 'DEFAULT_TIMEZONE="America/New_York"\n' }];
    expect(configuredZone({ args: ["--port", "8790", "--var", "DEFAULT_TIMEZONE:Asia/Tokyo"], envFiles, toml })).toEqual({ zone: "Asia/Tokyo", from: "--var" });
    expect(configuredZone({ args: ["--var=DEFAULT_TIMEZONE:Europe/Paris"], envFiles, toml })).toEqual({ zone: "Europe/Paris", from: "--var" });
  });
});

describe("the summary npm run dev prints once ready", () => {
  const facts = {
    page: "http://localhost:8787",
    runner: { url: "http://127.0.0.1:8788", started: true },
    zone: { zone: "UTC", from: "wrangler.toml" },
  };

  it("names the page, the runner, the zone, the agent and Telegram's mode", () => {
    expect(summaryLines({ ...facts, health: { ok: true, telegram: "off", runner: "url", agent: "echo", agentProvider: "openai" } })).toEqual([
      "cuckoo: the page: http://localhost:8787/",
      "cuckoo: the runner: http://127.0.0.1:8788",
      "cuckoo: the zone: UTC (DEFAULT_TIMEZONE, wrangler.toml)",
      "cuckoo: the agent: echo, it answers without a model (docs/agent.md says how to give it one)",
      "cuckoo: Telegram: off, no bot token: each chat's replies go to its transcript (docs/operations.md#trying-it)",
    ]);
  });

  it("says whose model the agent calls, or why it is echo, and a runner of RUNNER_URL", () => {
    const runner = { url: "https://runner.example.com", started: false };
    expect(
      summaryLines({ ...facts, runner, health: { ok: true, telegram: "webhook", runner: "url", agent: "llm", agentProvider: "openai" } }).slice(1),
    ).toEqual([
      "cuckoo: the runner: https://runner.example.com (RUNNER_URL; none started)",
      "cuckoo: the zone: UTC (DEFAULT_TIMEZONE, wrangler.toml)",
      "cuckoo: the agent: llm, LLM_BASE_URL's model",
      "cuckoo: Telegram: webhook",
    ]);
    expect(summaryLines({ ...facts, health: { ok: true, telegram: "off", runner: "url", agent: "llm", agentProvider: "workers-ai" } })[3]).toBe(
      "cuckoo: the agent: llm, Workers AI",
    );
    const agentNote = "LLM_PROVIDER=workers-ai needs the AI binding.";
    expect(summaryLines({ ...facts, health: { ok: true, telegram: "off", runner: "url", agent: "echo", agentProvider: "workers-ai", agentNote } })[3]).toBe(
      "cuckoo: the agent: echo: LLM_PROVIDER=workers-ai needs the AI binding.",
    );
  });

  it("lists /healthz's errors, or says it did not answer", () => {
    const errors = ['DEFAULT_TIMEZONE "Mars/Base" is not a time zone; use an IANA name such as Europe/Berlin.'];
    expect(summaryLines({ ...facts, health: { ok: false, errors } }).slice(3)).toEqual([
      'cuckoo: /healthz: DEFAULT_TIMEZONE "Mars/Base" is not a time zone; use an IANA name such as Europe/Berlin.',
    ]);
    expect(summaryLines({ ...facts, health: null }).slice(3)).toEqual([
      "cuckoo: the Worker did not answer /healthz within 30 s; its agent and mode are unknown.",
    ]);
  });
});
