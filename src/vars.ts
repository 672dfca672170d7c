/**
 * @module The vars and secrets of docs/api.md#access, each declared once: what an invalid value breaks, where a person
 * sets it, its default and how its text is read (the accepted form, and the sentence when it is not). The defaults,
 * the type of the vars wrangler.toml does not declare (src/env.d.ts) and the tests of README's configuration table
 * and wrangler.toml's [vars] derive from this table; `src/config.ts` reads it and applies the rules across vars.
 */
import * as z from "zod";
import { printable } from "./contracts/ids";
import { lazy } from "./lazy";
import { fail, ok, type Parsed } from "./result";
import { parseZone } from "./time";

/** What a config problem breaks: a route family (admin, tools, telegram), the watchers or the agent. */
export type ConfigArea = "admin" | "tools" | "telegram" | "watchers" | "agent";

/** How a set var's text (trimmed, not blank) is read: its value, or the sentence naming the var and an accepted form. */
type Reader<T> = (text: string) => Parsed<T>;

/** One var or secret. */
type Var<T> = Readonly<{
  /**
   * What an invalid value breaks (the mapping of docs/api.md#access "each affected route"): zone, limit and timeout
   * break the admin and tools routes; Telegram vars break /telegram; runner vars break watchers.
   */
  areas: readonly ConfigArea[];
  /**
   * Where a person sets it: `vars` in wrangler.toml's [vars], written there as its default (`wrangler types` types
   * it); `secret` with `wrangler secret put`; `optional` a var left out of wrangler.toml (.dev.vars, the dashboard).
   */
  set: "vars" | "secret" | "optional";
  /** The value when unset or invalid, written as the var would be (README's default column); none: null. */
  default?: string;
  read: Reader<T>;
}>;

/** The longest `LLM_INSTRUCTIONS` taken: it goes into every model call's system prompt. */
const MAX_INSTRUCTIONS = 4000;

/**
 * The vars, in the order /healthz lists their problems (the rules across vars, in `readConfig`, follow them).
 * Adding a var: a row here, the field of `Config` that exposes it (src/config.ts), and its line in README's
 * configuration table and, for `set: "vars"`, in wrangler.toml (test/unit/config-vars.test.ts compares them).
 */
export const VARS = {
  CUCKOO_DEV: { areas: ["admin", "tools"], set: "vars", default: "0", read: matching("flag", (got) => `CUCKOO_DEV must be 0 or 1; got ${got}.`) },
  // No route depends on it: a wrong value, or one set outside dev, is reported on /healthz and otherwise ignored.
  CUCKOO_DEV_SPEEDUP: {
    areas: [],
    set: "optional",
    default: "1",
    read: matching("speedup", (got) => `CUCKOO_DEV_SPEEDUP must be a whole number from 1 to 600, such as 30; got ${got}.`),
  },
  CUCKOO_DEV_CLOCK_OFFSET: {
    areas: [],
    set: "optional",
    default: "0",
    read: matching("clockOffset", (got) => `CUCKOO_DEV_CLOCK_OFFSET must be a whole number of seconds from 0 to 31622400 (a year), such as 10800; got ${got}.`),
  },
  ADMIN_TOKEN: { areas: ["admin"], set: "secret", read: plain },
  TOOLS_TOKEN: { areas: ["tools"], set: "secret", read: plain },
  DEFAULT_TIMEZONE: { areas: ["admin", "tools"], set: "vars", default: "UTC", read: zone },
  MAX_JOBS_PER_CHAT: {
    areas: ["admin", "tools"],
    set: "vars",
    default: "50",
    read: matching("jobLimit", (got) => `MAX_JOBS_PER_CHAT must be a whole number from 1 to 100000, such as 50; got ${got}.`),
  },
  DEFAULT_SCRIPT_TIMEOUT: {
    areas: ["admin", "tools"],
    set: "vars",
    default: "300",
    read: matching("scriptTimeout", (got) => `DEFAULT_SCRIPT_TIMEOUT must be a whole number of seconds from 1 to 3600; got ${got}.`),
  },
  MAX_WAKEUPS_PER_DAY: {
    areas: ["watchers"],
    set: "optional",
    default: "48",
    read: matching("turnLimit", (got) => `MAX_WAKEUPS_PER_DAY must be a whole number from 0 to 1000000, such as 48; got ${got}.`),
  },
  // Telegram. Secrets are never echoed in a sentence: /healthz is public.
  TELEGRAM_BOT_TOKEN: {
    areas: ["telegram"],
    set: "secret",
    read: matching("botToken", () => "TELEGRAM_BOT_TOKEN does not look like a Bot API token; use the one @BotFather gave you (123456789:AAE…)."),
  },
  TELEGRAM_WEBHOOK_SECRET: {
    areas: ["telegram"],
    set: "secret",
    read: matching("telegramSecret", () => "TELEGRAM_WEBHOOK_SECRET must be 1–256 characters of A–Z, a–z, 0–9, _ and -."),
  },
  TELEGRAM_API_BASE: {
    areas: ["telegram"],
    set: "vars",
    default: "https://api.telegram.org",
    read: matching("httpUrl", () => "TELEGRAM_API_BASE must be an http(s) URL such as https://api.telegram.org."),
  },
  ALLOWED_USER_IDS: {
    areas: ["telegram"],
    set: "optional",
    default: "",
    read: ids("userId", (got) => `ALLOWED_USER_IDS must be comma-separated decimal Telegram user ids such as 123456789,987654321; got ${got}.`),
  },
  ALLOWED_CHAT_IDS: {
    areas: ["telegram"],
    set: "optional",
    default: "",
    read: ids(
      "groupId",
      (got) => `ALLOWED_CHAT_IDS must be comma-separated group chat ids, negative like -1001234567890 (a supergroup) or -4012345678 (a group); got ${got}.`,
    ),
  },
  MINI_APP_NAME: {
    areas: ["telegram"],
    set: "optional",
    read: matching(
      "appName",
      (got) =>
        `MINI_APP_NAME must be the Mini App's short name from @BotFather (/newapp), 3–30 characters of A–Z, a–z, 0–9 and _, such as scheduler; got ${got}.`,
    ),
  },
  // The runner.
  RUNNER_URL: { areas: ["watchers"], set: "optional", read: matching("httpUrl", () => "RUNNER_URL must be an http(s) URL such as http://127.0.0.1:8788.") },
  RUNNER_SECRET: { areas: ["watchers"], set: "secret", read: plain },
  PUBLIC_URL: {
    areas: ["watchers"],
    set: "optional",
    read: matching("httpUrl", () => "PUBLIC_URL must be an http(s) URL such as https://cuckoo.example.workers.dev."),
  },
  // Hooks: mail to <token>@EMAIL_DOMAIN runs the job (Cloudflare Email Routing sends the domain to the Worker).
  EMAIL_DOMAIN: {
    areas: ["admin", "tools"],
    set: "optional",
    read: matching("domain", (got) => `EMAIL_DOMAIN must be a mail domain such as hooks.example.com; got ${got}.`),
  },
  RUNNER_INTERNET: {
    areas: ["watchers"],
    set: "vars",
    default: "1",
    read: matching("flag", (got) => `RUNNER_INTERNET must be 1 (scripts may reach the internet) or 0; got ${got}.`),
  },
  // The agent.
  LLM_BASE_URL: {
    areas: ["agent"],
    set: "optional",
    read: matching("httpUrl", () => "LLM_BASE_URL must be an http(s) URL of an OpenAI-compatible API such as https://api.openai.com/v1."),
  },
  AGENT: { areas: ["agent"], set: "optional", read: matching("agent", (got) => `AGENT must be echo or llm; got ${got}.`) },
  // Which model the built-in agent calls: LLM_BASE_URL's (openai), or Workers AI through the AI binding.
  LLM_PROVIDER: {
    areas: ["agent"],
    set: "optional",
    default: "openai",
    read: matching("provider", (got) => `LLM_PROVIDER must be openai (LLM_BASE_URL's server) or workers-ai (the AI binding); got ${got}.`),
  },
  LLM_API_KEY: { areas: ["agent"], set: "secret", read: plain },
  LLM_MODEL: { areas: ["agent"], set: "optional", read: plain },
  LLM_MODELS: { areas: ["agent"], set: "optional", read: modelList },
  LLM_MAX_TURNS_PER_DAY: {
    areas: ["agent"],
    set: "optional",
    default: "200",
    read: matching("turnLimit", (got) => `LLM_MAX_TURNS_PER_DAY must be a whole number from 0 to 1000000, such as 200; got ${got}.`),
  },
  LLM_TIMEOUT_SECONDS: {
    areas: ["agent"],
    set: "optional",
    default: "60",
    read: matching("llmTimeout", (got) => `LLM_TIMEOUT_SECONDS must be a whole number of seconds from 1 to 240, such as 60; got ${got}.`),
  },
  LLM_INSTRUCTIONS: { areas: ["agent"], set: "optional", read: instructions },
} as const satisfies Record<string, Var<unknown>>;

export type VarName = keyof typeof VARS;
type Declared<K extends VarName> = (typeof VARS)[K];
/** A var's value: what its reader gives, or null for a var without a default that is unset or invalid. */
type ValueOf<K extends VarName> = Declared<K>["read"] extends Reader<infer T> ? (Declared<K> extends { default: string } ? T : T | null) : never;
export type VarValues = { readonly [K in VarName]: ValueOf<K> };

/** The vars wrangler.toml does not declare, which `wrangler types` cannot see: merged into `Env` by src/env.d.ts. */
export type OptionalVars = { [K in VarName as Declared<K>["set"] extends "vars" ? never : K]?: string };

/**
 * Every var of `env` read once, in the table's order: unset, empty and blank all mean unset; a non-string (a JSON
 * var) and a value its reader refuses are reported, and either gives the default. `set`: the vars set and not blank,
 * valid or not (the rules across vars ask whether a var was given).
 */
export function readVars(env: Env, report: (name: VarName, message: string) => void): { values: VarValues; set: ReadonlySet<VarName> } {
  const values: Record<string, unknown> = {};
  const set = new Set<VarName>();
  for (const name of Object.keys(VARS) as VarName[]) {
    const value: unknown = env[name];
    let read: Parsed<unknown> | null = null;
    if (typeof value === "string" && value.trim() !== "") {
      set.add(name);
      read = (VARS[name] as Var<unknown>).read(value.trim());
      if (!read.ok) report(name, read.error);
    } else if (value !== undefined && value !== null && typeof value !== "string") report(name, `${name} must be plain text, not a JSON value.`);
    values[name] = read?.ok ? read.value : defaults()[name];
  }
  return { values: values as VarValues, set };
}

/** Each var's default, read by its own reader on first use (test/unit/config-vars.test.ts reads every one). */
export const defaults = lazy((): VarValues => {
  const values: Record<string, unknown> = {};
  for (const [name, declared] of Object.entries(VARS) as [VarName, Var<unknown>][]) {
    const read = declared.default === undefined ? null : declared.read(declared.default);
    values[name] = read?.ok ? read.value : null;
  }
  return values as VarValues;
});

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
    domain: z
      .string()
      .regex(/^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/)
      .transform((domain) => domain.toLowerCase()),
    jobLimit: wholeNumber(1, 100_000),
    turnLimit: wholeNumber(0, 1_000_000),
    llmTimeout: wholeNumber(1, 240),
    scriptTimeout: wholeNumber(1, 3600),
    speedup: wholeNumber(1, 600),
    clockOffset: wholeNumber(0, 31_622_400),
    telegramSecret: z.string().regex(/^[A-Za-z0-9_-]{1,256}$/),
    botToken: z.string().regex(/^\d{1,20}:[A-Za-z0-9_-]{20,}$/),
    userId: z.string().regex(/^[1-9]\d{0,15}$/),
    groupId: z.string().regex(/^-[1-9]\d{0,15}$/),
    appName: z.string().regex(/^[A-Za-z0-9_]{3,30}$/),
    flag: z.enum(["0", "1"]).transform((flag) => flag === "1"),
    agent: z.enum(["echo", "llm"]),
    provider: z.enum(["openai", "workers-ai"]),
  };
});
type Schemas = ReturnType<typeof schemas>;

/** A var read by one of `schemas`; refused, the sentence, given the value as `shown` quotes it (secrets leave it out). */
function matching<K extends keyof Schemas>(schema: K, sentence: (got: string) => string): Reader<z.output<Schemas[K]>> {
  return (text) => {
    const parsed = schemas()[schema].safeParse(text);
    return parsed.success ? ok(parsed.data as z.output<Schemas[K]>) : fail(sentence(quotedValue(text)));
  };
}

/**
 * `ALLOWED_USER_IDS` and `ALLOWED_CHAT_IDS`: comma-separated decimal ids of `form`, blanks around commas ignored;
 * empty = none. One id not of `form` refuses the whole list (the sentence quotes it): a typo must not serve a stranger.
 */
function ids(form: "userId" | "groupId", sentence: (got: string) => string): Reader<readonly string[]> {
  return (text) => {
    const list: string[] = [];
    for (const part of text.split(",")) {
      const id = part.trim();
      if (id === "") continue;
      if (!schemas()[form].safeParse(id).success) return fail(sentence(quotedValue(id)));
      if (!list.includes(id)) list.push(id);
    }
    return ok(Object.freeze(list));
  };
}

/**
 * `LLM_MODELS`: the models of LLM_MODEL's provider that a job or a chat may choose besides it (docs/agent.md#models),
 * comma-separated, blanks around commas ignored, each named once; a name has no blanks and at most 200 characters.
 */
function modelList(text: string): Parsed<readonly string[]> {
  const list: string[] = [];
  for (const part of text.split(",")) {
    const name = part.trim();
    if (name === "") continue;
    if (name.length > 200 || /\s/.test(name))
      return fail(`LLM_MODELS must be comma-separated model names such as gpt-4o-mini,gpt-4o; got ${quotedValue(name)}.`);
    if (!list.includes(name)) list.push(name);
  }
  return ok(Object.freeze(list));
}

/** A token, a key or a name, taken as written. */
function plain(text: string): Parsed<string> {
  return ok(text);
}

/** `DEFAULT_TIMEZONE`: an IANA name (or one of the aliases `parseZone` reads), as its canonical name. */
function zone(text: string): Parsed<string> {
  const read = parseZone(text);
  return read.ok ? read : fail(`DEFAULT_TIMEZONE ${quotedValue(text)} is not a time zone; use an IANA name such as Europe/Berlin.`);
}

/** `LLM_INSTRUCTIONS`: the owner's words, at most `MAX_INSTRUCTIONS` characters. */
function instructions(text: string): Parsed<string> {
  return text.length > MAX_INSTRUCTIONS ? fail(`LLM_INSTRUCTIONS must be at most ${MAX_INSTRUCTIONS} characters; it has ${text.length}.`) : ok(text);
}

/** A value quoted for a sentence, printable and cut to 60 characters so one bad var cannot flood or turn /healthz around. */
function quotedValue(raw: string): string {
  const chars = [...printable(raw)];
  return JSON.stringify(chars.length > 60 ? `${chars.slice(0, 57).join("")}…` : chars.join(""));
}
