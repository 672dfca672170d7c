/**
 * @module Vars and secrets (docs/api.md#access) → one validated, typed, frozen config object with defaults. Each var
 * is read as its row in src/vars.ts declares; the rules across vars (a webhook secret with a bot token, the runner's
 * mode, the agent's kind, PUBLIC_URL with RUNNER_URL) are here. Every problem is one sentence naming the var and
 * showing an accepted form, tagged with the areas it breaks.
 */
import { type ConfigArea, readVars, VARS, type VarName } from "./vars";

export type { ConfigArea };

/** The model `LLM_PROVIDER=workers-ai` runs without `LLM_MODEL`: Llama 4 Scout, which takes tools (docs/agent.md#workers-ai). */
export const DEFAULT_WORKERS_AI_MODEL = "@cf/meta/llama-4-scout-17b-16e-instruct";

/** One invalid value: the sentence `/healthz` lists and the affected routes answer with `config_error`. */
export type ConfigIssue = Readonly<{ message: string; areas: readonly ConfigArea[] }>;

/** The validated configuration. An invalid value is replaced by its default, and reported as an issue. */
export type Config = Readonly<{
  /** `CUCKOO_DEV=1`: routes whose token is unset are open to localhost pages. */
  dev: boolean;
  /** `CUCKOO_DEV_SPEEDUP`, honoured under `CUCKOO_DEV=1` only: leases and the offer deadline are divided by it (`leaseMs`); else 1. */
  speedup: number;
  /**
   * `CUCKOO_DEV_CLOCK_OFFSET`, honoured under `CUCKOO_DEV=1` only, in ms: the chats' objects run this far ahead of the
   * machine's clock, to try locally what jobs do after the bot was offline (docs/time.md#missed-runs); else 0.
   */
  clockOffsetMs: number;
  adminToken: string | null;
  toolsToken: string | null;
  telegram: Readonly<{
    /** `webhook` when a bot token is set; `off` is transcript mode. */
    mode: "off" | "webhook";
    botToken: string | null;
    webhookSecret: string | null;
    /** Without a trailing slash. */
    apiBase: string;
    /** Decimal Telegram user ids; empty = nobody. */
    allowedUserIds: readonly string[];
    /** Group and supergroup chat ids (negative decimals) the bot serves; empty = none. */
    allowedChatIds: readonly string[];
    /** The Mini App's short name registered with @BotFather (`/newapp`), for the link a group opens it by; null = no link. */
    miniAppName: string | null;
  }>;
  runner: Readonly<{
    mode: "off" | "url" | "container";
    url: string | null;
    secret: string | null;
    /** This Worker's base URL for runner callbacks, without a trailing slash. */
    publicUrl: string | null;
    /** Whether scripts in the runner container may reach the internet (`RUNNER_INTERNET`, default on). */
    internet: boolean;
  }>;
  /** A canonical IANA name. */
  defaultTimeZone: string;
  maxJobsPerChat: number;
  /** Seconds, 1–3600. */
  defaultScriptTimeout: number;
  /** Watcher matches per chat per local day that wake the agent (`MAX_WAKEUPS_PER_DAY`). */
  maxWakeupsPerDay: number;
  /** Mail to `<token>@<emailDomain>` runs the job whose hook has the token (docs/hooks.md); null: hooks have no address. */
  emailDomain: string | null;
  agent: Readonly<{
    kind: "echo" | "llm";
    /** Which model `llm` calls (`LLM_PROVIDER`): LLM_BASE_URL's server, or Workers AI through the `AI` binding. */
    provider: "openai" | "workers-ai";
    /** Why the agent is echo when the config asked for a model, and what to do (`/healthz`'s `agentNote`); else null. */
    note: string | null;
    /** Without a trailing slash; `${baseUrl}/chat/completions` is called (provider `openai`). */
    baseUrl: string | null;
    apiKey: string | null;
    /** LLM_MODEL; with Workers AI, its default model when unset. */
    model: string | null;
    /**
     * The models a job or a chat may choose (docs/agent.md#models): the model first, then LLM_MODELS; empty without
     * one.
     */
    models: readonly string[];
    /** The owner's words about who the bot is, added to the system prompt. */
    instructions: string | null;
    /** Model turns per chat per local day (`LLM_MAX_TURNS_PER_DAY`). */
    maxTurnsPerDay: number;
    /** How long one model call may take (`LLM_TIMEOUT_SECONDS`; a local model on a CPU may need long). */
    timeoutSeconds: number;
  }>;
}>;

export type LoadedConfig = Readonly<{
  config: Config;
  /** Every issue's sentence, in a fixed order (what `/healthz` shows). */
  errors: readonly string[];
  issues: readonly ConfigIssue[];
}>;

const cache = new WeakMap<object, LoadedConfig>();

/**
 * The config of an `env`, computed once per env object (so once per isolate in production, and once per
 * modified env in tests), never at module scope.
 */
export function loadConfig(env: Env): LoadedConfig {
  let loaded = cache.get(env);
  if (!loaded) {
    loaded = readConfig(env);
    cache.set(env, loaded);
  }
  return loaded;
}

/**
 * Whether a chat may use the bot (docs/api.md, docs/telegram.md): with Telegram connected, the private chats of the users in
 * `ALLOWED_USER_IDS` (a private chat's id is its user's id) and the groups in `ALLOWED_CHAT_IDS`; in transcript
 * mode, every chat. A supergroup a listed group became is served too, but only its chat's object knows that
 * (`ChatInfo.allowed`), and the webhook asks the D1 directory (`http/served.ts`).
 */
export function isAllowedChat(config: Config, chatId: string): boolean {
  const t = config.telegram;
  return t.mode === "off" || t.allowedUserIds.includes(chatId) || t.allowedChatIds.includes(chatId);
}

/** Whether a chat id is a group's or a supergroup's (Telegram gives them negative ids; a user's chat is positive). */
export const isGroupId = (chatId: string): boolean => chatId.startsWith("-");

/**
 * A lease or deadline of `ms` (docs/agent.md#the-lease) as this Worker keeps it, given `Config.speedup`: `ms`, or
 * divided by `CUCKOO_DEV_SPEEDUP` under `CUCKOO_DEV=1` (rounded up), so that a local test runs the crash and lease
 * paths in seconds.
 */
export const leaseMs = (ms: number, speedup: number): number => Math.ceil(ms / speedup);

/** A lease or deadline as a log line says it: `2 min`, or `4 s` once a local test shortened it (`leaseMs`). */
export const leaseText = (ms: number): string => (ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`);

/** The sentences of the issues that break `area`, in order; empty when it is configured correctly. */
export function errorsFor(loaded: LoadedConfig, area: ConfigArea): string[] {
  return loaded.issues.filter((issue) => issue.areas.includes(area)).map((issue) => issue.message);
}

/** Each var as its row in src/vars.ts reads it, then the rules across vars; the config object every part reads. */
function readConfig(env: Env): LoadedConfig {
  const issues: ConfigIssue[] = [];
  const report = (name: VarName, message: string) => issues.push(Object.freeze({ message, areas: VARS[name].areas }));
  const { values: v, set } = readVars(env, report);

  // Production can never be shortened by the test speedup: outside dev it is reported and left at 1.
  if (set.has("CUCKOO_DEV_SPEEDUP") && !v.CUCKOO_DEV && !issues.some((issue) => issue.message.startsWith("CUCKOO_DEV_SPEEDUP ")))
    report("CUCKOO_DEV_SPEEDUP", "CUCKOO_DEV_SPEEDUP is for local tests and is ignored without CUCKOO_DEV=1; remove it.");
  if (set.has("CUCKOO_DEV_CLOCK_OFFSET") && !v.CUCKOO_DEV && !issues.some((issue) => issue.message.startsWith("CUCKOO_DEV_CLOCK_OFFSET ")))
    report("CUCKOO_DEV_CLOCK_OFFSET", "CUCKOO_DEV_CLOCK_OFFSET is for local tries and is ignored without CUCKOO_DEV=1; remove it.");

  // Telegram: a bot token needs the webhook's secret.
  if (set.has("TELEGRAM_BOT_TOKEN") && !set.has("TELEGRAM_WEBHOOK_SECRET"))
    report(
      "TELEGRAM_WEBHOOK_SECRET",
      "TELEGRAM_WEBHOOK_SECRET is required with TELEGRAM_BOT_TOKEN; set one with wrangler secret put TELEGRAM_WEBHOOK_SECRET " +
        "(1–256 characters of A–Z, a–z, 0–9, _ and -).",
    );

  // Runner: RUNNER_URL wins when set (dev, tests, a runner on any host); else the container binding, once
  // RUNNER_SECRET is set. wrangler.toml always binds the container, so without the secret the runner is
  // off (watchers fail "did not start", naming the secret) rather than every deploy being misconfigured.
  const binding = "RUNNER" in env && env.RUNNER !== undefined && env.RUNNER !== null;
  const container = !set.has("RUNNER_URL") && binding && set.has("RUNNER_SECRET");
  if (set.has("RUNNER_URL") && !set.has("RUNNER_SECRET"))
    report("RUNNER_SECRET", "RUNNER_SECRET is required with the runner; set the secret it shares with the runner with wrangler secret put RUNNER_SECRET.");
  if (set.has("RUNNER_URL") && !container && !v.CUCKOO_DEV && !set.has("PUBLIC_URL"))
    report("PUBLIC_URL", "PUBLIC_URL is required with RUNNER_URL outside dev; set it to this Worker's base URL, such as https://cuckoo.example.workers.dev.");

  // Agent: llm when LLM_BASE_URL is set, or with LLM_PROVIDER=workers-ai when the AI binding is there; else echo; an
  // explicit AGENT wins. Workers AI has a default model; without its binding (wrangler.toml never declares it:
  // wrangler has no local Workers AI) the agent is echo, and /healthz says why rather than listing an error.
  const workersAi = v.LLM_PROVIDER === "workers-ai";
  const aiBinding = "AI" in env && env.AI !== undefined && env.AI !== null;
  let agentKind = v.AGENT ?? ((workersAi ? aiBinding : set.has("LLM_BASE_URL")) ? "llm" : "echo");
  let agentNote: string | null = null;
  if (workersAi && !aiBinding && v.AGENT !== "echo") {
    agentNote =
      "The agent is echo: LLM_PROVIDER=workers-ai needs the AI binding, which only the configuration npm run deploy deploys declares " +
      "(wrangler has no local Workers AI); deploy with npm run deploy, or set LLM_BASE_URL to an OpenAI-compatible server instead.";
    agentKind = "echo";
  }
  if (!workersAi && agentKind === "llm" && !set.has("LLM_BASE_URL"))
    report("AGENT", "AGENT=llm needs LLM_BASE_URL, an OpenAI-compatible endpoint such as https://api.openai.com/v1.");
  if (!workersAi && agentKind === "llm" && v.LLM_BASE_URL !== null && !set.has("LLM_MODEL"))
    report("LLM_MODEL", "LLM_MODEL is required with LLM_BASE_URL; set the model's name, such as gpt-4o-mini or llama3.1.");
  if (!workersAi && agentKind === "llm" && v.LLM_BASE_URL === null) agentKind = "echo";
  const model = v.LLM_MODEL ?? (workersAi ? DEFAULT_WORKERS_AI_MODEL : null);

  const config: Config = Object.freeze({
    dev: v.CUCKOO_DEV,
    speedup: v.CUCKOO_DEV ? v.CUCKOO_DEV_SPEEDUP : 1,
    clockOffsetMs: v.CUCKOO_DEV ? v.CUCKOO_DEV_CLOCK_OFFSET * 1000 : 0,
    adminToken: v.ADMIN_TOKEN,
    toolsToken: v.TOOLS_TOKEN,
    telegram: Object.freeze({
      mode: set.has("TELEGRAM_BOT_TOKEN") ? "webhook" : "off",
      botToken: v.TELEGRAM_BOT_TOKEN,
      webhookSecret: v.TELEGRAM_WEBHOOK_SECRET,
      apiBase: v.TELEGRAM_API_BASE,
      allowedUserIds: v.ALLOWED_USER_IDS,
      allowedChatIds: v.ALLOWED_CHAT_IDS,
      miniAppName: v.MINI_APP_NAME,
    }),
    runner: Object.freeze({
      mode: container ? "container" : set.has("RUNNER_URL") ? "url" : "off",
      url: v.RUNNER_URL,
      secret: v.RUNNER_SECRET,
      publicUrl: v.PUBLIC_URL,
      internet: v.RUNNER_INTERNET,
    }),
    defaultTimeZone: v.DEFAULT_TIMEZONE,
    maxJobsPerChat: v.MAX_JOBS_PER_CHAT,
    defaultScriptTimeout: v.DEFAULT_SCRIPT_TIMEOUT,
    maxWakeupsPerDay: v.MAX_WAKEUPS_PER_DAY,
    emailDomain: v.EMAIL_DOMAIN,
    agent: Object.freeze({
      kind: agentKind,
      provider: v.LLM_PROVIDER,
      note: agentNote,
      baseUrl: v.LLM_BASE_URL,
      apiKey: v.LLM_API_KEY,
      model,
      models: Object.freeze(model === null ? [] : [...new Set([model, ...(v.LLM_MODELS ?? [])])]),
      instructions: v.LLM_INSTRUCTIONS,
      maxTurnsPerDay: v.LLM_MAX_TURNS_PER_DAY,
      timeoutSeconds: v.LLM_TIMEOUT_SECONDS,
    }),
  });
  const frozen = Object.freeze(issues.slice());
  return Object.freeze({ config, errors: Object.freeze(frozen.map((i) => i.message)), issues: frozen });
}
