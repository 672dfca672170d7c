/**
 * @module The lines `npm run dev` (scripts/dev.mjs) prints once the Worker is ready: the page's address, the
 * runner's, the zone and the agent in use, and Telegram's mode. Pure: the zone from the configuration's texts,
 * the rest from `/healthz`'s answer.
 */

/**
 * `DEFAULT_TIMEZONE` as `wrangler dev` will give it to the Worker, and where it was set: `--var
 * DEFAULT_TIMEZONE:…` among the arguments wins over the env files (the last one that sets it), which win over
 * wrangler.toml's `[vars]`; else the Worker's default, UTC.
 * @param {{ args: string[]; envFiles: { name: string; text: string }[]; toml: string }} config
 * @returns {{ zone: string; from: string }}
 */
export function configuredZone({ args, envFiles, toml }) {
  /** @type {string | undefined} */
  let fromArgs;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    const value = arg === "--var" ? args[i + 1] : arg.startsWith("--var=") ? arg.slice("--var=".length) : undefined;
    const set = /^DEFAULT_TIMEZONE:(.+)$/.exec(value ?? "");
    if (set) fromArgs = set[1];
  }
  if (fromArgs !== undefined) return { zone: fromArgs, from: "--var" };
  for (const { name, text } of [...envFiles].reverse()) {
    const set = /^[ \t]*(?:export[ \t]+)?DEFAULT_TIMEZONE[ \t]*=[ \t]*(.*)$/m.exec(text);
    if (set) return { zone: unquote(set[1] ?? ""), from: name };
  }
  const vars = /^\[vars\][ \t]*$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(toml)?.[1] ?? "";
  const set = /^[ \t]*DEFAULT_TIMEZONE[ \t]*=[ \t]*"([^"]*)"/m.exec(vars);
  if (set) return { zone: set[1] ?? "", from: "wrangler.toml" };
  return { zone: "UTC", from: "the default" };
}

/**
 * A dotenv value without its quotes, or up to a comment when unquoted.
 * @param {string} value
 */
function unquote(value) {
  const quoted = /^(["'])(.*)\1/.exec(value.trim());
  return quoted ? (quoted[2] ?? "") : (value.split(" #")[0] ?? "").trim();
}

/**
 * What `/healthz` answered (docs/api.md), as far as the summary reads it.
 * @typedef {{ ok: true; telegram: string; runner: string; agent: string; agentProvider?: string; agentNote?: string }
 *   | { ok: false; errors: string[] }} Health
 */

/**
 * The summary, one line each.
 * @param {{ page: string; runner: { url: string; started: boolean }; zone: { zone: string; from: string }; health: Health | null }} facts
 *   `page`: wrangler's address; `runner`: the runner's address, and whether dev started it (else RUNNER_URL);
 *   `health`: `/healthz`'s answer, or null when it did not answer.
 * @returns {string[]}
 */
export function summaryLines({ page, runner, zone, health }) {
  const lines = [
    `cuckoo: the page: ${page.replace(/\/?$/, "/")}`,
    `cuckoo: the runner: ${runner.url}${runner.started ? "" : " (RUNNER_URL; none started)"}`,
    `cuckoo: the zone: ${zone.zone} (DEFAULT_TIMEZONE, ${zone.from})`,
  ];
  if (health === null) return [...lines, "cuckoo: the Worker did not answer /healthz within 30 s; its agent and mode are unknown."];
  if (!health.ok) return [...lines, ...health.errors.map((error) => `cuckoo: /healthz: ${error}`)];
  return [...lines, `cuckoo: the agent: ${agentLine(health)}`, `cuckoo: Telegram: ${telegramLine(health.telegram)}`];
}

/**
 * @param {Extract<Health, { ok: true }>} health
 */
function agentLine({ agent, agentProvider, agentNote }) {
  if (agentNote) return `${agent}: ${agentNote}`;
  if (agent === "echo") return "echo, it answers without a model (docs/agent.md says how to give it one)";
  return agentProvider === "workers-ai" ? "llm, Workers AI" : "llm, LLM_BASE_URL's model";
}

/** @param {string} mode */
function telegramLine(mode) {
  return mode === "off" ? "off, no bot token: each chat's replies go to its transcript (docs/operations.md#trying-it)" : mode;
}
