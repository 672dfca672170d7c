/**
 * The pure parts of watchers (issue 6): the alert and its failure streak, the output handed to the agent, the
 * stored runner call, the `test` reply and redaction. (The signature, now one implementation shared with the
 * runner, is tested in runner/test/contract.test.ts and test/unit/runner-contract.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config";
import {
  alertText,
  boundTail,
  clipOutput,
  failedLabel,
  fitOutput,
  isNewFailure,
  MAX_PROMPT_MESSAGE_BYTES,
  MAX_PROMPT_OUTPUT_CHARS,
  testReplyText,
  watcherCallSchema,
} from "../../src/jobs/watcher";
import { redact, secretsOf } from "../../src/runner-client/redact";

const job = { id: "k7m2q", name: "Price" };

describe("the alert", () => {
  it("has the label of docs/api.md#how-a-job-fires and the tail in a code block", () => {
    expect(alertText(job, { exitCode: 3, timedOut: false, tail: "a\nb\n", didNotStart: false })).toBe('⚠️ Job "Price" (k7m2q) failed (exit 3):\n```\na\nb\n```');
    expect(failedLabel({ exitCode: 137, timedOut: true, didNotStart: false })).toBe("failed (exit 137, timed out)");
    expect(failedLabel({ exitCode: null, timedOut: true, didNotStart: false })).toBe("failed (timed out)");
    expect(failedLabel({ exitCode: null, timedOut: false, didNotStart: true })).toBe("failed (did not start)");
    expect(alertText(job, { exitCode: null, timedOut: true, tail: "  \n", didNotStart: false })).toBe('⚠️ Job "Price" (k7m2q) failed (timed out).');
  });

  it("fences a tail that holds backticks with a longer fence", () => {
    expect(alertText(job, { exitCode: 1, timedOut: false, tail: "```\nx", didNotStart: false })).toBe(
      '⚠️ Job "Price" (k7m2q) failed (exit 1):\n````\n```\nx\n````',
    );
  });

  it("keeps at most 4000 characters of a tail, from a line start", () => {
    const tail = Array.from({ length: 20 }, (_, i) => `${i}:${"x".repeat(300)}`).join("\n");
    const kept = boundTail(tail);
    expect(kept.length).toBeLessThanOrEqual(4000);
    expect(kept.startsWith("7:")).toBe(true);
    expect(tail.endsWith(kept)).toBe(true);
  });
});

describe("the failure streak", () => {
  it.each([
    [null, { exitCode: 3, timedOut: false }, true],
    [{ exitCode: 3, timedOut: false }, { exitCode: 3, timedOut: false }, false],
    [{ exitCode: 3, timedOut: false }, { exitCode: 4, timedOut: false }, true],
    [{ exitCode: 3, timedOut: false }, { exitCode: 3, timedOut: true }, true],
    [{ exitCode: null, timedOut: true }, { exitCode: null, timedOut: true }, false],
    [{ exitCode: null, timedOut: false }, { exitCode: null, timedOut: true }, true],
    // A runner that stays unreachable: reported once.
    [{ exitCode: null, timedOut: false }, { exitCode: null, timedOut: false }, false],
  ])("in the streak %j, a failure %j is new: %s", (streak, failure, expected) => {
    expect(isNewFailure(streak, failure)).toBe(expected);
  });
});

describe("output for the agent", () => {
  it("is kept as printed up to the limit, else head and tail with the middle left out", () => {
    expect(clipOutput("price 42\n")).toBe("price 42\n");
    const long = "a".repeat(20_000) + "b".repeat(20_000);
    const clipped = clipOutput(long);
    expect(clipped).toBe(`${"a".repeat(12_000)}\n… [24000 characters left out] …\n${"b".repeat(4_000)}`);
    expect(clipped.length).toBeLessThan(MAX_PROMPT_OUTPUT_CHARS + 100);
  });
});

describe("the prompt of a match", () => {
  const build = (body: string) => ({ text: `header\n${body}`, body });
  const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

  it("keeps ordinary output as clipOutput cuts it", () => {
    const out = "price 42\n".repeat(3000);
    expect(fitOutput(out, build)).toEqual(build(clipOutput(out)));
  });

  it("cuts further when the JSON would pass the queue's limit: control characters take six bytes each", () => {
    const nul = "\u0000".repeat(64 * 1024);
    expect(bytes(build(clipOutput(nul)))).toBeGreaterThan(MAX_PROMPT_MESSAGE_BYTES);
    const message = fitOutput(nul, build);
    expect(bytes(message)).toBeLessThanOrEqual(MAX_PROMPT_MESSAGE_BYTES);
    expect(message.body).toBe(clipOutput(nul, MAX_PROMPT_OUTPUT_CHARS / 2));
    // Three-byte characters, twice 16,000 of them, still fit whole.
    const euros = "€".repeat(64 * 1024);
    expect(fitOutput(euros, build)).toEqual(build(clipOutput(euros)));
  });
});

describe("the stored runner call", () => {
  it("parses a call, and refuses a prompt's message, an empty command or an unknown field", () => {
    const call = { command: "echo hi", timeoutSeconds: 30, timeZone: "Europe/Berlin" };
    expect(watcherCallSchema().parse(JSON.parse(JSON.stringify(call)))).toEqual(call);
    expect(watcherCallSchema().safeParse({ v: 1, key: "k" }).success).toBe(false);
    expect(watcherCallSchema().safeParse({ ...call, command: "" }).success).toBe(false);
    expect(watcherCallSchema().safeParse({ ...call, timeoutSeconds: 3601 }).success).toBe(false);
    expect(watcherCallSchema().safeParse({ ...call, extra: 1 }).success).toBe(false);
  });
});

describe("the test reply", () => {
  it("says when the output was cut", () => {
    const text = testReplyText({ status: "output", exitCode: 0, timedOut: false, stdout: "x\n", stderrTail: "", truncated: { stdout: true, stderr: false } });
    expect(text).toBe(
      "The script exited 0 and printed (cut to its first 48 KiB and last 16 KiB):\n```\nx\n```\nAs a watcher it would wake the agent with this output. Nothing was scheduled.",
    );
    expect(testReplyText({ status: "failed", exitCode: null, timedOut: true, stdout: "", stderrTail: "", truncated: { stdout: false, stderr: false } })).toBe(
      "The script failed (timed out).\nAs a watcher it would alert the chat. Nothing was scheduled.",
    );
  });
});

describe("redaction", () => {
  it("covers every secret the Worker holds (docs/api.md#how-a-job-fires), longest first, and none shorter than 4 characters", () => {
    const env = {
      TELEGRAM_BOT_TOKEN: "123456789:AAE_bot_token_abcdefghijklmn",
      TELEGRAM_WEBHOOK_SECRET: "hook-secret-1",
      ADMIN_TOKEN: "admin-token-22",
      TOOLS_TOKEN: "tools-token-333",
      RUNNER_URL: "http://127.0.0.1:8788",
      RUNNER_SECRET: "runner-secret-4444",
      LLM_BASE_URL: "http://127.0.0.1:11434/v1",
      LLM_API_KEY: "sk-55555",
    } as unknown as Env;
    expect(secretsOf(loadConfig(env).config)).toEqual([
      "123456789:AAE_bot_token_abcdefghijklmn",
      "runner-secret-4444",
      "tools-token-333",
      "admin-token-22",
      "hook-secret-1",
      "sk-55555",
    ]);
    expect(secretsOf(loadConfig({ ADMIN_TOKEN: "abc" } as unknown as Env).config)).toEqual([]);
  });

  it("replaces every occurrence, the longest secret first", () => {
    expect(redact("a=abcdef123 b=abcdef123456 c=abcdef123", ["abcdef123456", "abcdef123"])).toBe("a=[REDACTED] b=[REDACTED] c=[REDACTED]");
    expect(redact("nothing here", ["abcdef123"])).toBe("nothing here");
  });
});
