/**
 * @module Vars and secrets (docs/api.md#access) → one validated, typed, frozen config object with defaults. Every
 * problem is one sentence naming the var and showing an accepted form, tagged with the areas it breaks.
 */
import * as z from "zod";
import { lazy } from "./lazy";
import { parseZone } from "./time";

/** What a config problem breaks: a route family (admin, tools, telegram), the watchers or the agent. */
export type ConfigArea = "admin" | "tools" | "telegram" | "watchers" | "agent";

/** One invalid value: the sentence `/healthz` lists and the affected routes answer with `config_error`. */
export type ConfigIssue = Readonly<{ message: string; areas: readonly ConfigArea[] }>;

/** The validated configuration. An invalid value is replaced by its default, and reported as an issue. */
export type Config = Readonly<{
  /** `CUCKOO_DEV=1`: routes whose token is unset are open to localhost pages. */
  dev: boolean;
  /** `CUCKOO_DEV_SPEEDUP`, honoured under `CUCKOO_DEV=1` only: leases and the offer deadline are divided by it (`leaseMs`); else 1. */
  speedup: number;
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
  agent: Readonly<{
    kind: "echo" | "llm";
    /** Without a trailing slash; `${baseUrl}/chat/completions` is called. */
    baseUrl: string | null;
    apiKey: string | null;
    model: string | null;
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

export const DEFAULTS = Object.freeze({
  telegramApiBase: "https://api.telegram.org",
  defaultTimeZone: "UTC",
  maxJobsPerChat: 50,
  defaultScriptTimeout: 300,
  maxTurnsPerDay: 200,
  llmTimeoutSeconds: 60,
  maxWakeupsPerDay: 48,
});

/** The longest `LLM_INSTRUCTIONS` taken: it goes into every model call's system prompt. */
const MAX_INSTRUCTIONS = 4000;

/**
 * Which areas each var breaks when invalid (the mapping of docs/api.md#access "each affected route"): zone, limit and
 * timeout break the admin and tools routes; Telegram vars break /telegram; runner vars break watchers.
 */
const AREAS = {
  CUCKOO_DEV: ["admin", "tools"],
  // No route depends on it: a wrong value, or one set outside dev, is reported on /healthz and otherwise ignored.
  CUCKOO_DEV_SPEEDUP: [],
  ADMIN_TOKEN: ["admin"],
  TOOLS_TOKEN: ["tools"],
  DEFAULT_TIMEZONE: ["admin", "tools"],
  MAX_JOBS_PER_CHAT: ["admin", "tools"],
  DEFAULT_SCRIPT_TIMEOUT: ["admin", "tools"],
  TELEGRAM_BOT_TOKEN: ["telegram"],
  TELEGRAM_WEBHOOK_SECRET: ["telegram"],
  TELEGRAM_API_BASE: ["telegram"],
  ALLOWED_USER_IDS: ["telegram"],
  ALLOWED_CHAT_IDS: ["telegram"],
  MINI_APP_NAME: ["telegram"],
  RUNNER_URL: ["watchers"],
  RUNNER_SECRET: ["watchers"],
  PUBLIC_URL: ["watchers"],
  RUNNER_INTERNET: ["watchers"],
  AGENT: ["agent"],
  LLM_BASE_URL: ["agent"],
  LLM_API_KEY: ["agent"],
  LLM_MODEL: ["agent"],
  LLM_INSTRUCTIONS: ["agent"],
  LLM_MAX_TURNS_PER_DAY: ["agent"],
  LLM_TIMEOUT_SECONDS: ["agent"],
  MAX_WAKEUPS_PER_DAY: ["watchers"],
} as const satisfies Record<string, readonly ConfigArea[]>;

type VarName = keyof typeof AREAS;

/** The zod schemas of the vars, built on first use (nothing at module scope). */
const schemas = lazy(() => {
  const wholeNumber = (min: number, max: number) =>
    z
      .string()
      .regex(/^\d{1,9}$/)
      .transform(Number)
      .pipe(z.number().int().min(min).max(max));
  return {
    /** http(s) with a host name, an IPv4 or a bracketed IPv6 address (z.httpUrl() wants a dotted domain). */
    httpUrl: z
      .url({ protocol: /^https?$/, hostname: new RegExp(`${z.regexes.hostname.source}|^\\[[0-9a-fA-F:.]+\\]$`) })
      .transform((url) => url.replace(/\/+$/, "")),
    jobLimit: wholeNumber(1, 100_000),
    turnLimit: wholeNumber(0, 1_000_000),
    llmTimeout: wholeNumber(1, 240),
    scriptTimeout: wholeNumber(1, 3600),
    speedup: wholeNumber(1, 600),
    telegramSecret: z.string().regex(/^[A-Za-z0-9_-]{1,256}$/),
    botToken: z.string().regex(/^\d{1,20}:[A-Za-z0-9_-]{20,}$/),
    userId: z.string().regex(/^[1-9]\d{0,15}$/),
    groupId: z.string().regex(/^-[1-9]\d{0,15}$/),
    appName: z.string().regex(/^[A-Za-z0-9_]{3,30}$/),
    dev: z.enum(["0", "1"]),
    agent: z.enum(["echo", "llm"]),
  };
});

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

function readConfig(env: Env): LoadedConfig {
  const { httpUrl, jobLimit, turnLimit, llmTimeout, scriptTimeout, telegramSecret, botToken, dev: devFlag, agent } = schemas();
  const issues: ConfigIssue[] = [];
  const report = (name: VarName, message: string) => issues.push(Object.freeze({ message, areas: AREAS[name] }));

  // Every var read once: unset, empty and blank all mean unset; a non-string (a JSON var) is reported.
  const raw = new Map<VarName, string>();
  for (const name of Object.keys(AREAS) as VarName[]) {
    const value: unknown = env[name];
    if (value === undefined || value === null) continue;
    if (typeof value !== "string") report(name, `${name} must be plain text, not a JSON value.`);
    else if (value.trim() !== "") raw.set(name, value.trim());
  }
  const text = (name: VarName): string | null => raw.get(name) ?? null;

  /** Parses a set var with `schema`; on failure reports `sentence` and returns null. */
  const parse = <T>(name: VarName, schema: z.ZodType<T, string>, sentence: (value: string) => string): T | null => {
    const value = raw.get(name);
    if (value === undefined) return null;
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    report(name, sentence(value));
    return null;
  };

  const dev = parse("CUCKOO_DEV", devFlag, (v) => `CUCKOO_DEV must be 0 or 1; got ${shown(v)}.`) === "1";
  // Production can never be shortened by it: outside dev it is reported and left at 1.
  const speedup = parse(
    "CUCKOO_DEV_SPEEDUP",
    schemas().speedup,
    (v) => `CUCKOO_DEV_SPEEDUP must be a whole number from 1 to 600, such as 30; got ${shown(v)}.`,
  );
  if (speedup !== null && !dev) report("CUCKOO_DEV_SPEEDUP", "CUCKOO_DEV_SPEEDUP is for local tests and is ignored without CUCKOO_DEV=1; remove it.");

  // Time and limits.
  let defaultTimeZone: string = DEFAULTS.defaultTimeZone;
  const zoneRaw = text("DEFAULT_TIMEZONE");
  if (zoneRaw !== null) {
    const zone = parseZone(zoneRaw);
    if (zone.ok) defaultTimeZone = zone.value;
    else report("DEFAULT_TIMEZONE", `DEFAULT_TIMEZONE ${shown(zoneRaw)} is not a time zone; use an IANA name such as Europe/Berlin.`);
  }
  const maxJobsPerChat =
    parse("MAX_JOBS_PER_CHAT", jobLimit, (v) => `MAX_JOBS_PER_CHAT must be a whole number from 1 to 100000, such as 50; got ${shown(v)}.`) ??
    DEFAULTS.maxJobsPerChat;
  const defaultScriptTimeout =
    parse("DEFAULT_SCRIPT_TIMEOUT", scriptTimeout, (v) => `DEFAULT_SCRIPT_TIMEOUT must be a whole number of seconds from 1 to 3600; got ${shown(v)}.`) ??
    DEFAULTS.defaultScriptTimeout;
  const maxWakeupsPerDay =
    parse("MAX_WAKEUPS_PER_DAY", turnLimit, (v) => `MAX_WAKEUPS_PER_DAY must be a whole number from 0 to 1000000, such as 48; got ${shown(v)}.`) ??
    DEFAULTS.maxWakeupsPerDay;

  // Telegram. Secrets are never echoed in a sentence: /healthz is public.
  const botTokenValue = parse(
    "TELEGRAM_BOT_TOKEN",
    botToken,
    () => "TELEGRAM_BOT_TOKEN does not look like a Bot API token; use the one @BotFather gave you (123456789:AAE…).",
  );
  const webhookSecret = parse("TELEGRAM_WEBHOOK_SECRET", telegramSecret, () => "TELEGRAM_WEBHOOK_SECRET must be 1–256 characters of A–Z, a–z, 0–9, _ and -.");
  if (raw.has("TELEGRAM_BOT_TOKEN") && !raw.has("TELEGRAM_WEBHOOK_SECRET"))
    report(
      "TELEGRAM_WEBHOOK_SECRET",
      "TELEGRAM_WEBHOOK_SECRET is required with TELEGRAM_BOT_TOKEN; set one with wrangler secret put TELEGRAM_WEBHOOK_SECRET (1–256 characters of A–Z, a–z, 0–9, _ and -).",
    );
  const apiBase =
    parse("TELEGRAM_API_BASE", httpUrl, () => "TELEGRAM_API_BASE must be an http(s) URL such as https://api.telegram.org.") ?? DEFAULTS.telegramApiBase;
  const allowedUserIds = readIds(text("ALLOWED_USER_IDS"), schemas().userId, (id) =>
    report("ALLOWED_USER_IDS", `ALLOWED_USER_IDS must be comma-separated decimal Telegram user ids such as 123456789,987654321; got ${shown(id)}.`),
  );
  const allowedChatIds = readIds(text("ALLOWED_CHAT_IDS"), schemas().groupId, (id) =>
    report(
      "ALLOWED_CHAT_IDS",
      `ALLOWED_CHAT_IDS must be comma-separated group chat ids, negative like -1001234567890 (a supergroup) or -4012345678 (a group); got ${shown(id)}.`,
    ),
  );
  const miniAppName = parse(
    "MINI_APP_NAME",
    schemas().appName,
    (v) =>
      `MINI_APP_NAME must be the Mini App's short name from @BotFather (/newapp), 3–30 characters of A–Z, a–z, 0–9 and _, such as scheduler; got ${shown(v)}.`,
  );

  // Runner: RUNNER_URL wins when set (dev, tests, a runner on any host); else the container binding, once
  // RUNNER_SECRET is set. wrangler.toml always binds the container, so without the secret the runner is
  // off (watchers fail "did not start", naming the secret) rather than every deploy being misconfigured.
  const binding = "RUNNER" in env && env.RUNNER !== undefined && env.RUNNER !== null;
  const container = !raw.has("RUNNER_URL") && binding && raw.has("RUNNER_SECRET");
  const runnerUrl = parse("RUNNER_URL", httpUrl, () => "RUNNER_URL must be an http(s) URL such as http://127.0.0.1:8788.");
  if (raw.has("RUNNER_URL") && !raw.has("RUNNER_SECRET"))
    report("RUNNER_SECRET", "RUNNER_SECRET is required with the runner; set the secret it shares with the runner with wrangler secret put RUNNER_SECRET.");
  const publicUrl = parse("PUBLIC_URL", httpUrl, () => "PUBLIC_URL must be an http(s) URL such as https://cuckoo.example.workers.dev.");
  const internet = parse("RUNNER_INTERNET", devFlag, (v) => `RUNNER_INTERNET must be 1 (scripts may reach the internet) or 0; got ${shown(v)}.`) ?? "1";
  if (raw.has("RUNNER_URL") && !container && !dev && !raw.has("PUBLIC_URL"))
    report("PUBLIC_URL", "PUBLIC_URL is required with RUNNER_URL outside dev; set it to this Worker's base URL, such as https://cuckoo.example.workers.dev.");

  // Agent: llm when LLM_BASE_URL is set, else echo; an explicit AGENT wins.
  const baseUrl = parse("LLM_BASE_URL", httpUrl, () => "LLM_BASE_URL must be an http(s) URL of an OpenAI-compatible API such as https://api.openai.com/v1.");
  const agentChoice = parse("AGENT", agent, (v) => `AGENT must be echo or llm; got ${shown(v)}.`);
  let agentKind = agentChoice ?? (raw.has("LLM_BASE_URL") ? "llm" : "echo");
  if (agentKind === "llm" && !raw.has("LLM_BASE_URL"))
    report("AGENT", "AGENT=llm needs LLM_BASE_URL, an OpenAI-compatible endpoint such as https://api.openai.com/v1.");
  if (agentKind === "llm" && baseUrl !== null && !raw.has("LLM_MODEL"))
    report("LLM_MODEL", "LLM_MODEL is required with LLM_BASE_URL; set the model's name, such as gpt-4o-mini or llama3.1.");
  if (agentKind === "llm" && baseUrl === null) agentKind = "echo";
  const maxTurnsPerDay =
    parse("LLM_MAX_TURNS_PER_DAY", turnLimit, (v) => `LLM_MAX_TURNS_PER_DAY must be a whole number from 0 to 1000000, such as 200; got ${shown(v)}.`) ??
    DEFAULTS.maxTurnsPerDay;
  const llmTimeoutSeconds =
    parse("LLM_TIMEOUT_SECONDS", llmTimeout, (v) => `LLM_TIMEOUT_SECONDS must be a whole number of seconds from 1 to 240, such as 60; got ${shown(v)}.`) ??
    DEFAULTS.llmTimeoutSeconds;
  const instructions = text("LLM_INSTRUCTIONS");
  if (instructions !== null && instructions.length > MAX_INSTRUCTIONS)
    report("LLM_INSTRUCTIONS", `LLM_INSTRUCTIONS must be at most ${MAX_INSTRUCTIONS} characters; it has ${instructions.length}.`);

  const config: Config = Object.freeze({
    dev,
    speedup: dev ? (speedup ?? 1) : 1,
    adminToken: text("ADMIN_TOKEN"),
    toolsToken: text("TOOLS_TOKEN"),
    telegram: Object.freeze({
      mode: raw.has("TELEGRAM_BOT_TOKEN") ? "webhook" : "off",
      botToken: botTokenValue,
      webhookSecret,
      apiBase,
      allowedUserIds,
      allowedChatIds,
      miniAppName,
    }),
    runner: Object.freeze({
      mode: container ? "container" : raw.has("RUNNER_URL") ? "url" : "off",
      url: runnerUrl,
      secret: text("RUNNER_SECRET"),
      publicUrl,
      internet: internet === "1",
    }),
    defaultTimeZone,
    maxJobsPerChat,
    defaultScriptTimeout,
    maxWakeupsPerDay,
    agent: Object.freeze({
      kind: agentKind,
      baseUrl,
      apiKey: text("LLM_API_KEY"),
      model: text("LLM_MODEL"),
      instructions: instructions !== null && instructions.length <= MAX_INSTRUCTIONS ? instructions : null,
      maxTurnsPerDay,
      timeoutSeconds: llmTimeoutSeconds,
    }),
  });
  const frozen = Object.freeze(issues.slice());
  return Object.freeze({ config, errors: Object.freeze(frozen.map((i) => i.message)), issues: frozen });
}

/**
 * `ALLOWED_USER_IDS` and `ALLOWED_CHAT_IDS`: comma-separated decimal ids, blanks around commas ignored; empty =
 * none. One id not of `form` is reported (`bad`) and the whole list is empty: a typo must not serve a stranger.
 */
function readIds(raw: string | null, form: z.ZodType<string>, bad: (id: string) => void): readonly string[] {
  if (raw === null) return Object.freeze([]);
  const ids: string[] = [];
  for (const part of raw.split(",")) {
    const id = part.trim();
    if (id === "") continue;
    if (!form.safeParse(id).success) {
      bad(id);
      return Object.freeze([]);
    }
    if (!ids.includes(id)) ids.push(id);
  }
  return Object.freeze(ids);
}

/** A value quoted for a sentence, cut to 60 characters so one bad var cannot flood /healthz. */
function shown(raw: string): string {
  return JSON.stringify(raw.length > 60 ? `${raw.slice(0, 57)}…` : raw);
}
