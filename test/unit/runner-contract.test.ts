/**
 * The runner's wire contract on the Worker's side (src/contracts/runner.ts over runner/src/contract.ts): the
 * Worker's zod schema and the contract's own validator give the same verdict on every outcome; the Worker's
 * runner client signs each request (v2) so that the contract verifies it for that method and target only;
 * and `src/` reaches into `runner/` through that one module, for that one dependency-free file.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, expectTypeOf, it } from "vitest";
import type * as z from "zod";
import { parseOutcome, type RunnerOutcome, runnerOutcome, verify } from "../../src/contracts/runner";
import { cancelRun, type RunnerFetch, startRun, testRun } from "../../src/runner-client/client";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

const outcome: RunnerOutcome = {
  runId: "123456789:k7m2q:1767225600000",
  chatId: "123456789",
  status: "failed",
  exitCode: 3,
  timedOut: false,
  stdout: "",
  stderrTail: "boom",
  truncated: { stdout: false, stderr: true },
  startedAt: "2026-01-01T00:00:00.000Z",
  finishedAt: "2026-01-01T00:00:01.000Z",
};

describe("the outcome, parsed by the Worker's zod schema and by the contract", () => {
  it("has the contract's type exactly, in both directions (checked by tsc: a drift does not compile)", () => {
    expectTypeOf<z.infer<ReturnType<typeof runnerOutcome>>>().toEqualTypeOf<RunnerOutcome>();
  });

  const cases: Array<[string, unknown, RunnerOutcome | null]> = [
    ["an outcome", outcome, outcome],
    ["a null exit code", { ...outcome, exitCode: null, timedOut: true }, { ...outcome, exitCode: null, timedOut: true }],
    ["fields a newer runner adds, dropped", { ...outcome, cpuMs: 5, truncated: { stdout: false, stderr: true, lines: 1 } }, outcome],
    ["a run id of 200 characters", { ...outcome, runId: "r".repeat(200) }, { ...outcome, runId: "r".repeat(200) }],
    ["a run id of 201 characters", { ...outcome, runId: "r".repeat(201) }, null],
    ["an empty run id", { ...outcome, runId: "" }, null],
    ["a chat id with a leading zero", { ...outcome, chatId: "0123" }, null],
    ["a numeric chat id", { ...outcome, chatId: 123456789 }, null],
    ["an unknown status", { ...outcome, status: "ok" }, null],
    ["a fractional exit code", { ...outcome, exitCode: 1.5 }, null],
    ["an exit code past 2^53", { ...outcome, exitCode: 2 ** 60 }, null],
    ["a missing exit code", { ...outcome, exitCode: undefined }, null],
    ["timedOut as a string", { ...outcome, timedOut: "false" }, null],
    ["stdout as null", { ...outcome, stdout: null }, null],
    ["a missing stderr tail", { ...outcome, stderrTail: undefined }, null],
    ["truncated without stderr", { ...outcome, truncated: { stdout: false } }, null],
    ["a numeric start", { ...outcome, startedAt: 0 }, null],
    ["a missing finish", { ...outcome, finishedAt: undefined }, null],
    ["an array", [outcome], null],
    ["null", null, null],
  ];

  it.each(cases)("agree on %s", (_name, input, expected) => {
    const zod = runnerOutcome().safeParse(input);
    const contract = parseOutcome(input);
    expect(zod.success ? zod.data : null).toEqual(expected);
    expect(contract.ok ? contract.value : null).toEqual(expected);
  });
});

/** A runner client's fetcher that records what it was asked to send and answers `status`. */
function recordingFetcher(status: number, body: unknown = { runId: outcome.runId }) {
  const sent: Array<{ path: string; method: string; signature: string; body: string }> = [];
  const fetcher: RunnerFetch = async (requestPath, init) => {
    sent.push({ path: requestPath, method: init.method, signature: init.headers["X-Cuckoo-Signature"] ?? "", body: init.body ?? "" });
    // A 204 has no body (the Response constructor refuses one).
    return status === 204 ? new Response(null, { status }) : Response.json(body, { status });
  };
  return { sent, fetcher };
}

describe("the Worker's requests to the runner", () => {
  const secret = "unit-runner-secret";
  const request = { runId: outcome.runId, chatId: "123456789", jobId: "k7m2q", command: "true", timeoutSeconds: 60, timeZone: "UTC" };
  const now = () => Date.now() / 1000;

  it("signs POST /runs, POST /runs?wait=1 and DELETE /runs/<id, percent-encoded> for exactly what is sent", async () => {
    const { sent, fetcher } = recordingFetcher(202);
    expect(await startRun(fetcher, secret, request)).toEqual({ kind: "started" });
    await cancelRun(fetcher, secret, outcome.runId);
    const dry = recordingFetcher(200, outcome);
    expect(await testRun(dry.fetcher, secret, request)).toEqual({ ok: true, outcome });
    const all = [...sent, ...dry.sent];
    expect(all.map(({ method, path: target }) => `${method} ${target}`)).toEqual([
      "POST /runs",
      "DELETE /runs/123456789%3Ak7m2q%3A1767225600000",
      "POST /runs?wait=1",
    ]);
    for (const { method, path: target, signature, body } of all) {
      expect(await verify(secret, signature, { method, target, body }, now())).toMatchObject({ ok: true });
    }
  });

  it("gives a cancel a header that cancels no other run and is no start", async () => {
    const { sent, fetcher } = recordingFetcher(204, {});
    await cancelRun(fetcher, secret, "123456789:aaaaa:1");
    const { signature } = sent[0]!;
    expect(await verify(secret, signature, { method: "DELETE", target: "/runs/123456789%3Abbbbb%3A1", body: "" }, now())).toEqual({
      ok: false,
      problem: "mismatch",
    });
    expect(await verify(secret, signature, { method: "POST", target: "/runs/123456789%3Aaaaaa%3A1", body: "" }, now())).toEqual({
      ok: false,
      problem: "mismatch",
    });
    expect(await verify(secret, signature, { method: "DELETE", target: "/runs/123456789:aaaaa:1", body: "" }, now())).toEqual({
      ok: false,
      problem: "mismatch",
    });
  });

  it("gives a start a header that is no dry run", async () => {
    const { sent, fetcher } = recordingFetcher(202);
    await startRun(fetcher, secret, request);
    const { signature, body } = sent[0]!;
    expect(await verify(secret, signature, { method: "POST", target: "/runs?wait=1", body }, now())).toEqual({ ok: false, problem: "mismatch" });
  });
});

describe("the boundary between src/ and runner/", () => {
  const sourceFiles = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? sourceFiles(path.join(dir, entry.name)) : entry.name.endsWith(".ts") ? [path.join(dir, entry.name)] : [],
    );

  it("is crossed by src/contracts/runner.ts alone, and only to runner/src/contract.ts", () => {
    const crossings = sourceFiles(path.join(root, "src")).flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/^\s*(?:import|export)\b[^;"']*?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']/gm)]
        .map((match) => path.resolve(path.dirname(file), match[1] ?? match[2]!))
        .filter((target) => target.startsWith(path.join(root, "runner") + path.sep))
        .map((target) => `${path.relative(root, file)} → ${path.relative(root, target)}`),
    );
    expect([...new Set(crossings)]).toEqual(["src/contracts/runner.ts → runner/src/contract.ts"]);
  });

  it("leads to a file that imports nothing", () => {
    const contract = readFileSync(path.join(root, "runner/src/contract.ts"), "utf8");
    expect(contract.match(/^\s*(import|export)\b.*\bfrom\s/gm)).toBeNull();
    expect(contract).not.toMatch(/\bimport\(/);
    expect(contract).not.toMatch(/\b(Buffer|process)\.|\brequire\(/);
  });
});
