/**
 * The wire contract (runner/src/contract.ts), the one file the runner and the Worker share: the v2 signature
 * against HMAC values computed with openssl, what it covers (method, target, body, t) and how a header is
 * refused; the outcome validator; zones. The Worker runs the same module in workerd (test/worker), and its
 * zod schema is held to the same outcome cases in test/unit/runner-contract.test.ts.
 */
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { canonicalZone, parseOutcome, type RunnerOutcome, sign, signatureHeader, signedBytes, signingTarget, verify } from "../src/contract.ts";

const T = 1767225600;
const post = { method: "POST", target: "/runs", body: '{"a":1}' };

describe("the v2 signature", () => {
  it('signs "<t>.<METHOD> <target>.<raw body>" with HMAC-SHA256 in hex', async () => {
    // printf %s '1767225600.POST /runs.{"a":1}' | openssl dgst -sha256 -hmac secret
    expect(await sign("secret", T, post)).toBe("6a8d497364a6866b5ba2cd2738a592e5551cfb0af1ebcf6dbfe76fe01df6e2c5");
    expect(await sign("secret", T, { ...post, body: new TextEncoder().encode('{"a":1}') })).toBe(
      "6a8d497364a6866b5ba2cd2738a592e5551cfb0af1ebcf6dbfe76fe01df6e2c5",
    );
    // printf %s '1767225600.POST /runs?wait=1.{"a":1}' | openssl dgst -sha256 -hmac secret
    expect(await sign("secret", T, { ...post, target: "/runs?wait=1" })).toBe("b1191e158843823cfa83ff189882820b67ed2ab20040dcb4a63566395a37b0ca");
    // A request without a body ends in ".":
    // printf %s '1767225600.DELETE /runs/123456789%3Ak7m2q%3A1767225600000.' | openssl dgst -sha256 -hmac secret
    expect(await sign("secret", T, { method: "DELETE", target: "/runs/123456789%3Ak7m2q%3A1767225600000", body: "" })).toBe(
      "ad433583fca06ec360fb1f257294b187b8675254c47ccc8a5de9045b6aa9e706",
    );
    expect(new TextDecoder().decode(signedBytes(T, { method: "delete", target: "/runs/x", body: "" }))).toBe("1767225600.DELETE /runs/x.");
  });

  it("writes the header as t=<whole seconds>,v2=<hex>", async () => {
    expect(await signatureHeader("secret", post, T + 0.9)).toBe("t=1767225600,v2=6a8d497364a6866b5ba2cd2738a592e5551cfb0af1ebcf6dbfe76fe01df6e2c5");
  });

  it("takes the target of a URL as fetch sends it: path and query, percent-encoding kept", () => {
    expect(signingTarget("http://127.0.0.1:8787/runner/callback/-100123?x=a%3Ab")).toBe("/runner/callback/-100123?x=a%3Ab");
    expect(signingTarget(new URL("/runs/1%3Ak7m2q%3A2", "http://runner"))).toBe("/runs/1%3Ak7m2q%3A2");
    expect(signingTarget("http://callback.cuckoo.internal/runner/callback/42")).toBe("/runner/callback/42");
  });

  it("verifies its own header within 300 s either way and refuses one 301 s off", async () => {
    const header = await signatureHeader("s", post, T);
    expect(await verify("s", header, post, T + 300)).toEqual({ ok: true, t: T });
    expect(await verify("s", header, post, T - 300)).toEqual({ ok: true, t: T });
    expect(await verify("s", header, post, T + 301)).toEqual({ ok: false, problem: "stale" });
    expect(await verify("s", header, post, T - 301)).toEqual({ ok: false, problem: "stale" });
  });

  it("is good for its own request only: another method, target, query, body or secret is a mismatch", async () => {
    const header = await signatureHeader("s", post, T);
    const mismatch = { ok: false, problem: "mismatch" };
    expect(await verify("s", header, { ...post, method: "DELETE" }, T)).toEqual(mismatch);
    expect(await verify("s", header, { ...post, target: "/runs?wait=1" }, T)).toEqual(mismatch);
    expect(await verify("s", header, { ...post, target: "/runs/" }, T)).toEqual(mismatch);
    expect(await verify("s", header, { ...post, body: '{"a":2}' }, T)).toEqual(mismatch);
    expect(await verify("other", header, post, T)).toEqual(mismatch);
    // A DELETE header names its run: it cannot cancel another one.
    const cancelA = await signatureHeader("s", { method: "DELETE", target: "/runs/a", body: "" }, T);
    expect(await verify("s", cancelA, { method: "DELETE", target: "/runs/b", body: "" }, T)).toEqual(mismatch);
    expect(await verify("s", cancelA, { method: "DELETE", target: "/runs/a", body: "" }, T)).toEqual({ ok: true, t: T });
    // The method is compared upper-cased, and the hex digits in either case.
    expect(await verify("s", header, { ...post, method: "post" }, T)).toEqual({ ok: true, t: T });
    expect(await verify("s", header.toUpperCase().replace("T=", "t=").replace("V2=", "v2="), post, T)).toEqual({ ok: true, t: T });
  });

  it("tells a missing, malformed, v1 and stale header apart", async () => {
    expect(await verify("s", undefined, post, T)).toEqual({ ok: false, problem: "missing" });
    expect(await verify("s", null, post, T)).toEqual({ ok: false, problem: "missing" });
    expect(await verify("s", "  ", post, T)).toEqual({ ok: false, problem: "missing" });
    expect(await verify("s", `t=${T}`, post, T)).toEqual({ ok: false, problem: "malformed" });
    expect(await verify("s", `t=${T},v2=${"0".repeat(63)}`, post, T)).toEqual({ ok: false, problem: "malformed" });
    expect(await verify("s", `t=${T},v2=${"0".repeat(64)},v1=${"0".repeat(64)}`, post, T)).toEqual({ ok: false, problem: "malformed" });
    const v1 = `t=${T},v1=${createHmac("sha256", "s").update(`${T}.${post.body}`).digest("hex")}`;
    expect(await verify("s", v1, post, T)).toEqual({ ok: false, problem: "v1" });
  });
});

const outcome: RunnerOutcome = {
  runId: "123456789:k7m2q:1767225600000",
  chatId: "123456789",
  status: "output",
  exitCode: 0,
  timedOut: false,
  stdout: "found\n",
  stderrTail: "",
  truncated: { stdout: false, stderr: false },
  startedAt: "2026-01-01T00:00:00.000Z",
  finishedAt: "2026-01-01T00:00:01.000Z",
};

describe("the outcome", () => {
  it("takes an outcome, with a null exit code too, and drops fields a newer runner may add", () => {
    expect(parseOutcome(outcome)).toEqual({ ok: true, value: outcome });
    const failed = { ...outcome, status: "failed", exitCode: null, timedOut: true };
    expect(parseOutcome(failed)).toEqual({ ok: true, value: failed });
    expect(parseOutcome({ ...outcome, memoryPeak: 12, truncated: { stdout: true, stderr: false, lines: 3 } })).toEqual({
      ok: true,
      value: { ...outcome, truncated: { stdout: true, stderr: false } },
    });
  });

  it("refuses a field that breaks the contract with one sentence naming it", () => {
    const shape = "an outcome is { runId, chatId, status, exitCode, timedOut, stdout, stderrTail, truncated: { stdout, stderr }, startedAt, finishedAt }.";
    expect(parseOutcome({ ...outcome, runId: "r".repeat(201) })).toEqual({
      ok: false,
      message: `The outcome's runId must be a string of 1 to 200 characters; ${shape}`,
    });
    expect(parseOutcome({ ...outcome, chatId: "0123" })).toEqual({
      ok: false,
      message: `The outcome's chatId must be a Telegram chat id written as a string; ${shape}`,
    });
    expect(parseOutcome({ ...outcome, status: "ok" })).toEqual({ ok: false, message: `The outcome's status must be "silent", "output" or "failed"; ${shape}` });
    expect(parseOutcome({ ...outcome, exitCode: 1.5 })).toEqual({ ok: false, message: `The outcome's exitCode must be a whole number or null; ${shape}` });
    expect(parseOutcome({ ...outcome, truncated: { stdout: false } })).toEqual({
      ok: false,
      message: `The outcome's truncated must be { stdout: true or false, stderr: true or false }; ${shape}`,
    });
    expect(parseOutcome([outcome])).toEqual({
      ok: false,
      message: `The outcome must be a JSON object { runId, chatId, status, exitCode, timedOut, stdout, stderrTail, truncated: { stdout, stderr }, startedAt, finishedAt }.`,
    });
  });
});

describe("zones", () => {
  it("knows IANA zones, fixes their case and keeps aliases as given", () => {
    expect(canonicalZone("Europe/Berlin")).toBe("Europe/Berlin");
    expect(canonicalZone("europe/berlin")).toBe("Europe/Berlin");
    expect(canonicalZone("UTC")).toBe("UTC");
    expect(canonicalZone("Asia/Calcutta")).toBe("Asia/Calcutta");
    expect(canonicalZone("Mars/Olympus")).toBeNull();
    expect(canonicalZone("../../etc/passwd")).toBeNull();
    expect(canonicalZone("")).toBeNull();
  });
});
