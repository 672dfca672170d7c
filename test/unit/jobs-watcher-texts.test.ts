/**
 * The watcher texts and rules (docs/api.md, docs/watchers.md) that test/unit/watcher.test.ts leaves out: the lease, the
 * runner's run id, the prompt of a match, every branch of the `test` reply, the alert of a script that did
 * not start, the edges of the stderr tail and of the output cut, and the stored call's limits.
 */
import { describe, expect, it } from "vitest";
import { runnerRunId } from "../../src/contracts/runner";
import {
  alertText,
  boundTail,
  clipOutput,
  decideMatch,
  EX_TEMPFAIL,
  failedLabel,
  fitOutput,
  isTransient,
  matchedPromptText,
  outputHash,
  overBudgetText,
  testReplyText,
  WATCHER_LEASE_GRACE_MS,
  watcherCallSchema,
  watcherLeaseMs,
} from "../../src/jobs/watcher";

const job = { id: "w8r4t", name: "Price check" };
const outcome = (over: Partial<Parameters<typeof testReplyText>[0]>): Parameters<typeof testReplyText>[0] => ({
  status: "silent",
  exitCode: 0,
  timedOut: false,
  stdout: "",
  stderrTail: "",
  truncated: { stdout: false, stderr: false },
  ...over,
});

describe("a watcher's run", () => {
  it("has a lease of its timeout + 60 s", () => {
    expect(WATCHER_LEASE_GRACE_MS).toBe(60_000);
    expect(watcherLeaseMs(1)).toBe(61_000);
    expect(watcherLeaseMs(30)).toBe(90_000);
    expect(watcherLeaseMs(3600)).toBe(3_660_000);
  });

  it("is run <chatId>:<jobId>:<dueAt> at the runner", () => {
    expect(runnerRunId("123456789", "w8r4t:1790424000000")).toBe("123456789:w8r4t:1790424000000");
    expect(runnerRunId("-1001234567890", "w8r4t:1790424000000")).toBe("-1001234567890:w8r4t:1790424000000");
  });

  it("wakes the agent on a match with the header and the output as printed", () => {
    expect(matchedPromptText(job, "in stock: 3\n")).toBe('[Scheduled job "Price check" (w8r4t)] The watcher script printed:\nin stock: 3\n');
  });
});

describe("the stored runner call", () => {
  it("is refused when it holds a timeout or zone the runner would refuse", () => {
    const call = (timeoutSeconds: number, timeZone = "Europe/Berlin") => ({ command: "echo hi", timeoutSeconds, timeZone });
    expect(watcherCallSchema().safeParse(call(1)).data).toStrictEqual({ command: "echo hi", timeoutSeconds: 1, timeZone: "Europe/Berlin" });
    expect(watcherCallSchema().safeParse(call(3600)).data).toStrictEqual({ command: "echo hi", timeoutSeconds: 3600, timeZone: "Europe/Berlin" });
    expect(watcherCallSchema().safeParse(call(0)).success).toBe(false);
    expect(watcherCallSchema().safeParse(call(3601)).success).toBe(false);
    expect(watcherCallSchema().safeParse(call(30, "")).success).toBe(false);
  });
});

describe("the alert", () => {
  it("says when the script did not start, with the reason in a code block", () => {
    expect(alertText(job, { exitCode: null, timedOut: false, tail: "runner unreachable: connect ECONNREFUSED\n", didNotStart: true })).toBe(
      '⚠️ Job "Price check" (w8r4t) failed (did not start):\n```\nrunner unreachable: connect ECONNREFUSED\n```',
    );
  });

  it("shows an exit code and the timed-out flag together", () => {
    expect(alertText(job, { exitCode: 137, timedOut: true, tail: "Killed", didNotStart: false })).toBe(
      '⚠️ Job "Price check" (w8r4t) failed (exit 137, timed out):\n```\nKilled\n```',
    );
    expect(failedLabel({ exitCode: null, timedOut: false, didNotStart: false })).toBe("failed");
    expect(failedLabel({ exitCode: 0, timedOut: true, didNotStart: false })).toBe("failed (exit 0, timed out)");
  });
});

describe("exit 75 and matches", () => {
  it("reads exit 75 as transient, unless the script was killed for its time", () => {
    expect(EX_TEMPFAIL).toBe(75);
    expect(isTransient({ exitCode: 75, timedOut: false })).toBe(true);
    expect(isTransient({ exitCode: 75, timedOut: true })).toBe(false);
    expect(isTransient({ exitCode: 1, timedOut: false })).toBe(false);
    expect(isTransient({ exitCode: null, timedOut: false })).toBe(false);
  });

  it("wakes the agent, stays unchanged for onlyOnChange with the same hash, or is over budget", () => {
    const job = (onlyOnChange: boolean, matchHash: string | null) => ({ onlyOnChange, matchHash });
    expect(decideMatch(job(false, "h1"), "h1", 0, 48)).toBe("wake");
    expect(decideMatch(job(true, "h1"), "h1", 0, 48)).toBe("unchanged");
    expect(decideMatch(job(true, "h1"), "h2", 0, 48)).toBe("wake");
    expect(decideMatch(job(true, null), "h1", 0, 48)).toBe("wake");
    expect(decideMatch(job(false, null), "h1", 47, 48)).toBe("wake");
    expect(decideMatch(job(false, null), "h1", 48, 48)).toBe("over_budget");
    expect(decideMatch(job(false, null), "h1", 0, 0)).toBe("over_budget");
    // Unchanged wins: it is not a wake-up, so a spent budget does not matter to it.
    expect(decideMatch(job(true, "h1"), "h1", 48, 48)).toBe("unchanged");
  });

  it("hashes the output without surrounding whitespace, as SHA-256 hex", async () => {
    expect(await outputHash("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(await outputHash("  abc\n\n")).toBe(await outputHash("abc"));
    expect(await outputHash("abd")).not.toBe(await outputHash("abc"));
  });

  it("says the day's wake-ups are spent, naming the job and the var that raises them", () => {
    expect(overBudgetText(job, 48)).toBe(
      '⚠️ Job "Price check" (w8r4t) matched, but this chat\'s watchers have already woken the agent 48 times today, the daily limit: matches are recorded "over budget" and wake no one until tomorrow. The bot\'s owner can raise MAX_WAKEUPS_PER_DAY.',
    );
    expect(overBudgetText(job, 1)).toContain("woken the agent 1 time today");
  });
});

describe("the stderr tail", () => {
  it("is trimmed at the end, kept whole up to 4000 characters", () => {
    const x = "x".repeat(4000);
    expect(boundTail(`${x}\n \n\t`)).toBe(x);
    expect(boundTail("a\nb\n\n")).toBe("a\nb");
  });

  it("keeps the last 4000 characters of one long line, and starts after a newline when the cut meets one", () => {
    const line = "0123456789".repeat(500);
    expect(boundTail(line)).toBe(line.slice(1000));
    expect(boundTail(`${"a".repeat(100)}\n${"b".repeat(3999)}`)).toBe("b".repeat(3999));
    // The cut falls inside the b line: that line goes whole.
    expect(boundTail(`${"a".repeat(100)}\n${"b".repeat(3000)}\n${"c".repeat(1000)}`)).toBe("c".repeat(1000));
  });
});

describe("the output cut", () => {
  it("keeps the output up to the limit and cuts one character past it to three quarters head, one quarter tail", () => {
    const exact = "y".repeat(16_000);
    expect(clipOutput(exact)).toBe(exact);
    const over = `${"a".repeat(12_000)}xy${"b".repeat(4_000)}`;
    expect(clipOutput(over)).toBe(`${"a".repeat(12_000)}\n… [2 characters left out] …\n${"b".repeat(4_000)}`);
    expect(clipOutput("abcdefghij", 8)).toBe("abcdef\n… [2 characters left out] …\nij");
  });

  it("stops halving below 64 characters even when nothing fits", () => {
    const sizes: number[] = [];
    const out = "z".repeat(20_000);
    const message = fitOutput(out, (body) => {
      sizes.push(body.length);
      return { body, padding: "p".repeat(200_000) };
    });
    expect(message.body).toBe(clipOutput(out, 62));
    expect(sizes.length).toBe(9);
  });
});

describe("the test reply", () => {
  it("says a silent script would stay silent", () => {
    expect(testReplyText(outcome({ status: "silent" }))).toBe(
      "The script exited 0 and printed nothing: as a watcher it would stay silent. Nothing was scheduled.",
    );
  });

  it("shows the output without its trailing whitespace, fenced against its own backticks", () => {
    expect(testReplyText(outcome({ status: "output", stdout: "price 42\n\n" }))).toBe(
      "The script exited 0 and printed:\n```\nprice 42\n```\nAs a watcher it would wake the agent with this output. Nothing was scheduled.",
    );
    expect(testReplyText(outcome({ status: "output", stdout: "```js\nx\n```\n" }))).toBe(
      "The script exited 0 and printed:\n````\n```js\nx\n```\n````\nAs a watcher it would wake the agent with this output. Nothing was scheduled.",
    );
  });

  it("shows a long output cut as the agent would get it", () => {
    const stdout = "a".repeat(20_000);
    expect(testReplyText(outcome({ status: "output", stdout }))).toBe(
      `The script exited 0 and printed:\n\`\`\`\n${clipOutput(stdout)}\n\`\`\`\nAs a watcher it would wake the agent with this output. Nothing was scheduled.`,
    );
  });

  it("shows a failure with the end of its stderr, or without it", () => {
    expect(testReplyText(outcome({ status: "failed", exitCode: 2, stderrTail: "boom\n" }))).toBe(
      "The script failed (exit 2); the end of its stderr:\n```\nboom\n```\nAs a watcher it would alert the chat. Nothing was scheduled.",
    );
    expect(testReplyText(outcome({ status: "failed", exitCode: 137, timedOut: true, stderrTail: " \n" }))).toBe(
      "The script failed (exit 137, timed out).\nAs a watcher it would alert the chat. Nothing was scheduled.",
    );
  });
});
