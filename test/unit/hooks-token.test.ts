/**
 * A hook's token and input (docs/hooks.md): the token's form and randomness, `[shown once]` wherever a kept text had
 * one, and the input cut as the runner measures stdin (JSON, quotes included), at a line end, with its mark.
 */
import { describe, expect, it } from "vitest";
import { jsonBytes, MAX_STDIN_BYTES } from "../../src/contracts/runner";
import { inputLine, MAX_INPUT_BYTES, runInput, withInput } from "../../src/hooks/input";
import { HOOK_TOKEN, hookAddresses, hookHash, newHookToken, withoutTokens } from "../../src/hooks/token";

describe("a hook's token", () => {
  it("is 32 lowercase letters and digits, new each time, kept as its SHA-256", async () => {
    const tokens = Array.from({ length: 200 }, newHookToken);
    expect(tokens.every((t) => HOOK_TOKEN.test(t))).toBe(true);
    expect(new Set(tokens).size).toBe(200);
    expect(await hookHash("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("is replaced by [shown once] in a URL and an address, and nothing else of the text changes", () => {
    const token = "q7w2e3r4t5y6u7i2o3p4a5s6d7f2g3h4";
    const { url, email } = hookAddresses(token, "https://cuckoo.example.com/", "hooks.example.com");
    expect([url, email]).toEqual([`https://cuckoo.example.com/hooks/${token}`, `${token}@hooks.example.com`]);
    expect(withoutTokens(`Job k7m2q's hook: ${url} and ${email}; job k7m2q, build abcdefghijklmnopqrstuvwxyz234567x`)).toBe(
      "Job k7m2q's hook: https://cuckoo.example.com/hooks/[shown once] and [shown once]@hooks.example.com; job k7m2q, build abcdefghijklmnopqrstuvwxyz234567x",
    );
  });
});

describe("a run's input", () => {
  it("is whole when it fits, and under its line in a prompt", () => {
    expect(runInput("a\nb")).toBe("a\nb");
    expect(withInput("Look.", "hook", "")).toBe(`Look.\n\n${inputLine("hook", true)}`);
    expect(withInput("Look.", "email", "x")).toBe("Look.\n\nWoken by its hook (a mail to its address); the input:\nx");
  });

  it("is cut to what the runner takes as stdin (JSON with its quotes), at a line end, and marked", () => {
    expect(MAX_INPUT_BYTES).toBe(MAX_STDIN_BYTES);
    // Exactly the limit as the runner measures it: kept whole.
    const exact = "x".repeat(MAX_STDIN_BYTES - 2);
    expect(runInput(exact)).toBe(exact);
    const line = `${"é".repeat(30)}\t"${"y".repeat(20)}`;
    const big = Array.from({ length: 2000 }, () => line).join("\n");
    const cut = runInput(big);
    const lines = cut.split("\n");
    expect(lines.at(-1)).toBe(`[input cut: ${Math.round(new TextEncoder().encode(big).byteLength / 1024)} KB in all]`);
    expect(lines.slice(0, -1).every((l) => l === line)).toBe(true);
    expect(jsonBytes(cut)).toBeLessThanOrEqual(MAX_STDIN_BYTES);
    expect(jsonBytes(`${lines.slice(0, -1).join("\n")}\n${line}\n${lines.at(-1)}`)).toBeGreaterThan(MAX_STDIN_BYTES);
  });

  it("never cuts a character in two when there is no line end", () => {
    const cut = runInput("😀".repeat(20_000));
    const head = cut.split("\n")[0]!;
    expect(head).toBe("😀".repeat(head.length / 2));
    expect(jsonBytes(cut)).toBeLessThanOrEqual(MAX_STDIN_BYTES);
  });
});
