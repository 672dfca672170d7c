/** src/config.ts: vars → a frozen config with defaults, and one sentence per invalid value, tagged by area. */
import { describe, expect, it } from "vitest";
import { errorsFor, leaseMs, leaseText, loadConfig } from "../../src/config";
import { deployed, envWith } from "./helpers";

const BOT = "123456789:AAEabcdefghijklmnopqrstuvwxyz012345";

describe("loadConfig", () => {
  it("gives the defaults of docs/api.md#access when nothing is set", () => {
    const { config, errors } = loadConfig(
      deployed({
        DEFAULT_TIMEZONE: undefined,
        MAX_JOBS_PER_CHAT: undefined,
        DEFAULT_SCRIPT_TIMEOUT: undefined,
        TELEGRAM_API_BASE: undefined,
        CUCKOO_DEV: undefined,
      }),
    );
    expect(errors).toEqual([]);
    expect(config).toEqual({
      dev: false,
      speedup: 1,
      clockOffsetMs: 0,
      adminToken: null,
      toolsToken: null,
      telegram: {
        mode: "off",
        botToken: null,
        webhookSecret: null,
        apiBase: "https://api.telegram.org",
        allowedUserIds: [],
        allowedChatIds: [],
        miniAppName: null,
      },
      runner: { mode: "off", url: null, secret: null, publicUrl: null, internet: true },
      defaultTimeZone: "UTC",
      maxJobsPerChat: 50,
      defaultScriptTimeout: 300,
      maxWakeupsPerDay: 48,
      emailDomain: null,
      agent: {
        kind: "echo",
        provider: "openai",
        note: null,
        baseUrl: null,
        apiKey: null,
        model: null,
        models: [],
        instructions: null,
        maxTurnsPerDay: 200,
        timeoutSeconds: 60,
      },
    });
  });

  it("is frozen, and computed once per env object", () => {
    const testEnv = envWith();
    const loaded = loadConfig(testEnv);
    expect(loadConfig(testEnv)).toBe(loaded);
    expect(loadConfig(envWith())).not.toBe(loaded);
    expect(Object.isFrozen(loaded.config)).toBe(true);
    expect(Object.isFrozen(loaded.config.telegram)).toBe(true);
    expect(Object.isFrozen(loaded.config.telegram.allowedUserIds)).toBe(true);
  });

  it("reads set values, trimmed, with canonical zone names and URLs without a trailing slash", () => {
    const { config, errors } = loadConfig(
      envWith({
        DEFAULT_TIMEZONE: " W. Europe Standard Time ",
        MAX_JOBS_PER_CHAT: "7",
        DEFAULT_SCRIPT_TIMEOUT: "3600",
        MAX_WAKEUPS_PER_DAY: "0",
        TELEGRAM_API_BASE: "http://127.0.0.1:9000/",
        ALLOWED_USER_IDS: " 42, 1234567890 ,42,",
        ALLOWED_CHAT_IDS: "-1001234567890, -4012345678,-1001234567890",
        MINI_APP_NAME: " scheduler ",
        ADMIN_TOKEN: "a",
        TOOLS_TOKEN: "",
      }),
    );
    expect(errors).toEqual([]);
    expect(config).toMatchObject({
      dev: true,
      adminToken: "a",
      toolsToken: null,
      defaultTimeZone: "Europe/Berlin",
      maxJobsPerChat: 7,
      defaultScriptTimeout: 3600,
      maxWakeupsPerDay: 0,
      telegram: {
        apiBase: "http://127.0.0.1:9000",
        allowedUserIds: ["42", "1234567890"],
        allowedChatIds: ["-1001234567890", "-4012345678"],
        miniAppName: "scheduler",
      },
    });
  });

  it("picks the agent: llm when LLM_BASE_URL is set, unless AGENT says echo", () => {
    expect(loadConfig(envWith({ LLM_BASE_URL: "http://localhost:11434/v1" })).config.agent.kind).toBe("llm");
    expect(loadConfig(envWith({ LLM_BASE_URL: "http://localhost:11434/v1", AGENT: "echo" })).config.agent.kind).toBe("echo");
  });

  it("allows RUNNER_URL without PUBLIC_URL in dev", () => {
    const { config, errors } = loadConfig(envWith({ RUNNER_URL: "http://127.0.0.1:8788", RUNNER_SECRET: "s" }));
    expect(errors).toEqual([]);
    expect(config.runner).toEqual({ mode: "url", url: "http://127.0.0.1:8788", secret: "s", publicUrl: null, internet: true });
  });

  it("uses the container binding (wrangler.toml always has it) only once RUNNER_SECRET is set; RUNNER_URL wins", () => {
    expect("RUNNER" in envWith()).toBe(true);
    const off = loadConfig(envWith());
    expect(off.errors).toEqual([]);
    expect(off.config.runner.mode).toBe("off");
    const container = loadConfig(deployed({ RUNNER_SECRET: "runner-secret" }));
    expect(container.errors).toEqual([]);
    expect(container.config.runner).toEqual({ mode: "container", url: null, secret: "runner-secret", publicUrl: null, internet: true });
    const url = loadConfig(
      deployed({ RUNNER_SECRET: "runner-secret", RUNNER_URL: "https://runner.example.com", PUBLIC_URL: "https://cuckoo.example.workers.dev" }),
    );
    expect(url.config.runner.mode).toBe("url");
    expect(loadConfig(envWith({ RUNNER: undefined, RUNNER_SECRET: "runner-secret" })).config.runner.mode).toBe("off");
  });

  const cases: [string, Record<string, string>, string, string[]][] = [
    [
      "an unknown zone",
      { DEFAULT_TIMEZONE: "Mars/Olympus" },
      'DEFAULT_TIMEZONE "Mars/Olympus" is not a time zone; use an IANA name such as Europe/Berlin.',
      ["admin", "tools"],
    ],
    [
      "a bare offset as zone",
      { DEFAULT_TIMEZONE: "+03:00" },
      'DEFAULT_TIMEZONE "+03:00" is not a time zone; use an IANA name such as Europe/Berlin.',
      ["admin", "tools"],
    ],
    [
      "a zero timeout",
      { DEFAULT_SCRIPT_TIMEOUT: "0" },
      'DEFAULT_SCRIPT_TIMEOUT must be a whole number of seconds from 1 to 3600; got "0".',
      ["admin", "tools"],
    ],
    [
      "a long timeout",
      { DEFAULT_SCRIPT_TIMEOUT: "3601" },
      'DEFAULT_SCRIPT_TIMEOUT must be a whole number of seconds from 1 to 3600; got "3601".',
      ["admin", "tools"],
    ],
    [
      "a fractional job limit",
      { MAX_JOBS_PER_CHAT: "2.5" },
      'MAX_JOBS_PER_CHAT must be a whole number from 1 to 100000, such as 50; got "2.5".',
      ["admin", "tools"],
    ],
    ["a bad CUCKOO_DEV", { CUCKOO_DEV: "yes" }, 'CUCKOO_DEV must be 0 or 1; got "yes".', ["admin", "tools"]],
    [
      "a token without a webhook secret",
      { TELEGRAM_BOT_TOKEN: BOT },
      "TELEGRAM_WEBHOOK_SECRET is required with TELEGRAM_BOT_TOKEN; set one with wrangler secret put TELEGRAM_WEBHOOK_SECRET (1–256 characters of A–Z, a–z, 0–9, _ and -).",
      ["telegram"],
    ],
    [
      "a malformed bot token",
      { TELEGRAM_BOT_TOKEN: "not-a-token", TELEGRAM_WEBHOOK_SECRET: "s" },
      "TELEGRAM_BOT_TOKEN does not look like a Bot API token; use the one @BotFather gave you (123456789:AAE…).",
      ["telegram"],
    ],
    [
      "a webhook secret with spaces",
      { TELEGRAM_WEBHOOK_SECRET: "a b" },
      "TELEGRAM_WEBHOOK_SECRET must be 1–256 characters of A–Z, a–z, 0–9, _ and -.",
      ["telegram"],
    ],
    [
      "a non-http API base",
      { TELEGRAM_API_BASE: "ftp://example.com" },
      "TELEGRAM_API_BASE must be an http(s) URL such as https://api.telegram.org.",
      ["telegram"],
    ],
    [
      "a user id that is not decimal",
      { ALLOWED_USER_IDS: "42,@alice" },
      'ALLOWED_USER_IDS must be comma-separated decimal Telegram user ids such as 123456789,987654321; got "@alice".',
      ["telegram"],
    ],
    [
      "a group id that is not negative",
      { ALLOWED_CHAT_IDS: "-1001234567890,1001234567890" },
      'ALLOWED_CHAT_IDS must be comma-separated group chat ids, negative like -1001234567890 (a supergroup) or -4012345678 (a group); got "1001234567890".',
      ["telegram"],
    ],
    [
      "a group named by its @username",
      { ALLOWED_CHAT_IDS: "@team" },
      'ALLOWED_CHAT_IDS must be comma-separated group chat ids, negative like -1001234567890 (a supergroup) or -4012345678 (a group); got "@team".',
      ["telegram"],
    ],
    [
      "a Mini App name with a slash",
      { MINI_APP_NAME: "bot/app" },
      'MINI_APP_NAME must be the Mini App\'s short name from @BotFather (/newapp), 3–30 characters of A–Z, a–z, 0–9 and _, such as scheduler; got "bot/app".',
      ["telegram"],
    ],
    [
      "a runner URL that is not a URL",
      { RUNNER_URL: "runner:8788", RUNNER_SECRET: "s" },
      "RUNNER_URL must be an http(s) URL such as http://127.0.0.1:8788.",
      ["watchers"],
    ],
    [
      "an internet switch that is not 0 or 1",
      { RUNNER_INTERNET: "yes" },
      'RUNNER_INTERNET must be 1 (scripts may reach the internet) or 0; got "yes".',
      ["watchers"],
    ],
    [
      "a runner without its secret",
      { RUNNER_URL: "http://127.0.0.1:8788" },
      "RUNNER_SECRET is required with the runner; set the secret it shares with the runner with wrangler secret put RUNNER_SECRET.",
      ["watchers"],
    ],
    ["an unknown agent", { AGENT: "gpt" }, 'AGENT must be echo or llm; got "gpt".', ["agent"]],
    ["llm without an endpoint", { AGENT: "llm" }, "AGENT=llm needs LLM_BASE_URL, an OpenAI-compatible endpoint such as https://api.openai.com/v1.", ["agent"]],
    [
      "a bad LLM endpoint",
      { LLM_BASE_URL: "api.openai.com" },
      "LLM_BASE_URL must be an http(s) URL of an OpenAI-compatible API such as https://api.openai.com/v1.",
      ["agent"],
    ],
    [
      "an endpoint without a model",
      { LLM_BASE_URL: "https://api.openai.com/v1" },
      "LLM_MODEL is required with LLM_BASE_URL; set the model's name, such as gpt-4o-mini or llama3.1.",
      ["agent"],
    ],
    [
      "a turn budget that is not a number",
      { LLM_MAX_TURNS_PER_DAY: "lots" },
      'LLM_MAX_TURNS_PER_DAY must be a whole number from 0 to 1000000, such as 200; got "lots".',
      ["agent"],
    ],
    [
      "a wake-up budget that is not a number",
      { MAX_WAKEUPS_PER_DAY: "-1" },
      'MAX_WAKEUPS_PER_DAY must be a whole number from 0 to 1000000, such as 48; got "-1".',
      ["watchers"],
    ],
    [
      "a speedup that is not a whole number",
      { CUCKOO_DEV_SPEEDUP: "fast" },
      'CUCKOO_DEV_SPEEDUP must be a whole number from 1 to 600, such as 30; got "fast".',
      [],
    ],
    ["instructions over 4,000 characters", { LLM_INSTRUCTIONS: "x".repeat(4001) }, "LLM_INSTRUCTIONS must be at most 4000 characters; it has 4001.", ["agent"]],
  ];
  for (const [what, vars, sentence, areas] of cases)
    it(`reports ${what} as one sentence, tagged with the areas it breaks`, () => {
      const loaded = loadConfig(envWith(vars));
      expect(loaded.errors).toEqual([sentence]);
      expect(loaded.issues).toEqual([{ message: sentence, areas }]);
      for (const area of ["admin", "tools", "telegram", "watchers", "agent"] as const)
        expect(errorsFor(loaded, area)).toEqual(areas.includes(area) ? [sentence] : []);
    });

  it("shortens leases by CUCKOO_DEV_SPEEDUP in dev only: deployed, it is reported and the leases stay whole", () => {
    const dev = loadConfig(envWith({ CUCKOO_DEV_SPEEDUP: "30" }));
    expect(dev.errors).toEqual([]);
    expect(dev.config.speedup).toBe(30);
    expect(leaseMs(10 * 60_000, dev.config.speedup)).toBe(20_000);
    expect(leaseMs(2 * 60_000, 7)).toBe(17_143);
    const prod = loadConfig(deployed({ CUCKOO_DEV_SPEEDUP: "30" }));
    expect(prod.config.speedup).toBe(1);
    expect(prod.errors).toEqual(["CUCKOO_DEV_SPEEDUP is for local tests and is ignored without CUCKOO_DEV=1; remove it."]);
    expect(prod.issues[0]!.areas).toEqual([]);
    expect(leaseText(2 * 60_000)).toBe("2 min");
    expect(leaseText(4_000)).toBe("4 s");
  });

  it("runs the chats' clock ahead by CUCKOO_DEV_CLOCK_OFFSET in dev only: deployed, it is reported and the clock is the machine's", () => {
    expect(loadConfig(envWith({ CUCKOO_DEV_CLOCK_OFFSET: "10800" })).config.clockOffsetMs).toBe(10_800_000);
    const prod = loadConfig(deployed({ CUCKOO_DEV_CLOCK_OFFSET: "10800" }));
    expect([prod.config.clockOffsetMs, prod.errors]).toEqual([
      0,
      ["CUCKOO_DEV_CLOCK_OFFSET is for local tries and is ignored without CUCKOO_DEV=1; remove it."],
    ]);
    expect(loadConfig(envWith({ CUCKOO_DEV_CLOCK_OFFSET: "-5" })).errors).toEqual([
      'CUCKOO_DEV_CLOCK_OFFSET must be a whole number of seconds from 0 to 31622400 (a year), such as 10800; got "-5".',
    ]);
  });

  it("requires PUBLIC_URL with RUNNER_URL outside dev", () => {
    const loaded = loadConfig(deployed({ RUNNER_URL: "http://runner.internal:8788", RUNNER_SECRET: "s" }));
    expect(loaded.errors).toEqual([
      "PUBLIC_URL is required with RUNNER_URL outside dev; set it to this Worker's base URL, such as https://cuckoo.example.workers.dev.",
    ]);
    expect(errorsFor(loaded, "watchers")).toEqual(loaded.errors);
  });

  it("keeps the default in place of an invalid value", () => {
    const { config } = loadConfig(envWith({ DEFAULT_TIMEZONE: "Mars/Olympus", DEFAULT_SCRIPT_TIMEOUT: "0", CUCKOO_DEV: "yes" }));
    expect(config).toMatchObject({ defaultTimeZone: "UTC", defaultScriptTimeout: 300, dev: false });
  });

  it("never echoes a secret in a sentence", () => {
    const secret = "sUp3r-s3cret value";
    const loaded = loadConfig(envWith({ TELEGRAM_BOT_TOKEN: secret, TELEGRAM_WEBHOOK_SECRET: secret }));
    expect(loaded.errors).toHaveLength(2);
    for (const message of loaded.errors) expect(message).not.toContain(secret);
  });
});
