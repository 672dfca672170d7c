/**
 * A run's standard input: closed (`/dev/null`) without `stdin`; with it, the text written (UTF-8) and then
 * closed, for dry runs and callback runs alike. A script that does not read it neither fails nor hangs, and
 * the runner stays up; a large text is written while the script runs and prints, never blocking either side.
 * The field's limit (MAX_STDIN_BYTES, measured as JSON) and the body's (MAX_REQUEST_BYTES).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { omittedMarker } from "../src/capture.ts";
import { jsonBytes, MAX_REQUEST_BYTES, MAX_STDIN_BYTES, parseRunRequest } from "../src/contract.ts";
import { type ExecRequest, execute } from "../src/exec.ts";
import { runRequest, startCallbackServer, startRunner, type TestRunner } from "./harness.ts";

const STDIN_MESSAGE = 'stdin must be a string of at most 49152 bytes once written as JSON in UTF-8, such as "line 1\\nline 2\\n", or left out.';
const badRequest = { status: 400, body: { error: { code: "bad_request", message: STDIN_MESSAGE } } };

/** Multi-line text in several scripts: two bytes (é, ß), three (行) and four (🐦) in UTF-8. */
const TEXT = "première ligne\nzweite Zeile: Größe\n第三行 🐦\n";

/** "é" is 2 bytes in UTF-8 and written as it is in JSON: this text is exactly MAX_STDIN_BYTES as JSON. */
const LARGEST = "é".repeat((MAX_STDIN_BYTES - 2) / 2);

describe("the contract", () => {
  const parse = (fields: Record<string, unknown>) => parseRunRequest(JSON.stringify(runRequest(fields)));

  it("measures stdin as JSON in UTF-8 bytes: quotes, escapes and multi-byte characters counted", () => {
    expect(MAX_STDIN_BYTES).toBe(49152);
    expect(MAX_REQUEST_BYTES).toBe(131072);
    expect(jsonBytes("")).toBe(2);
    expect(jsonBytes("a\nb")).toBe(6);
    expect(jsonBytes('"')).toBe(4);
    expect(jsonBytes("\u0001")).toBe(8);
    expect(jsonBytes("é🐦")).toBe(8);
    expect(jsonBytes(LARGEST)).toBe(MAX_STDIN_BYTES);
  });

  it("takes a string up to the limit, the empty one too, and leaves it out when absent", () => {
    expect(parse({ stdin: TEXT })).toMatchObject({ ok: true, value: { stdin: TEXT } });
    expect(parse({ stdin: "" })).toMatchObject({ ok: true, value: { stdin: "" } });
    expect(parse({ stdin: LARGEST })).toMatchObject({ ok: true, value: { stdin: LARGEST } });
    const absent = parse({});
    expect(absent.ok && "stdin" in absent.value).toBe(false);
  });

  it.each([
    ["one byte over as JSON", `${LARGEST}x`],
    ["within the limit in characters but over it as JSON escapes", "\n".repeat(MAX_STDIN_BYTES / 2)],
    ["a number", 42],
    ["null", null],
    ["an array of lines", ["line 1", "line 2"]],
    ["an object", { text: "x" }],
  ])("refuses %s with one sentence naming the field and the limit", (_name, stdin) => {
    expect(parse({ stdin })).toEqual({ ok: false, message: STDIN_MESSAGE });
  });
});

describe("runs with and without stdin", () => {
  let t: TestRunner;
  beforeEach(async () => {
    t = await startRunner({ killGraceMs: 200 });
  });
  afterEach(async () => {
    await t.stop();
  });

  const dryRun = (fields: Record<string, unknown>) => t.send("POST", "/runs?wait=1", runRequest(fields));

  it("gives cat exactly the text, multi-line and non-ASCII", async () => {
    const { status, body } = await dryRun({ command: "cat", stdin: TEXT });
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: "output", exitCode: 0, timedOut: false, stdout: TEXT, stderrTail: "" });
    expect((await dryRun({ command: "cat", stdin: "no newline at the end" })).body.stdout).toBe("no newline at the end");
    expect((await dryRun({ command: "wc -c", stdin: TEXT })).body.stdout).toBe(`${Buffer.byteLength(TEXT)}\n`);
  });

  it("lets a script read its input line by line, and see its end", async () => {
    expect((await dryRun({ command: 'read x; echo "$x"', stdin: TEXT })).body.stdout).toBe("première ligne\n");
    expect((await dryRun({ command: 'read a; read b; echo "$b | $a"', stdin: "one\ntwo\nthree\n" })).body.stdout).toBe("two | one\n");
    const command = 'n=0; while read -r line; do n=$((n + 1)); echo "$n: $line"; done; echo "end after $n"';
    expect((await dryRun({ command, stdin: TEXT })).body.stdout).toBe("1: première ligne\n2: zweite Zeile: Größe\n3: 第三行 🐦\nend after 3\n");
  });

  it("gives an empty stdin as an input that ends at once", async () => {
    expect((await dryRun({ command: "wc -c; echo done", stdin: "" })).body).toMatchObject({ status: "output", exitCode: 0, stdout: "0\ndone\n" });
    expect((await dryRun({ command: "if read x; then echo got; else echo eof; fi", stdin: "" })).body.stdout).toBe("eof\n");
  });

  it("keeps stdin closed without the field: a script that reads it sees its end at once", async () => {
    const { body } = await dryRun({ command: "cat; echo done", timeoutSeconds: 5 });
    expect(body).toMatchObject({ status: "output", exitCode: 0, timedOut: false, stdout: "done\n" });
    expect((await dryRun({ command: "if read x; then echo got; else echo eof; fi" })).body.stdout).toBe("eof\n");
    expect((await dryRun({ command: "wc -c" })).body.stdout).toBe("0\n");
  });

  it("gives the text to a callback run too", async () => {
    const callback = await startCallbackServer();
    try {
      const request = runRequest({ runId: "r-stdin-callback", command: "tac", stdin: TEXT, callbackUrl: callback.url });
      expect(await t.send("POST", "/runs", request)).toEqual({ status: 202, body: { runId: "r-stdin-callback" } });
      await expect.poll(() => callback.received.length).toBe(1);
      expect(JSON.parse(callback.received[0]?.body ?? "")).toMatchObject({
        runId: "r-stdin-callback",
        status: "output",
        stdout: "第三行 🐦\nzweite Zeile: Größe\npremière ligne\n",
      });
    } finally {
      await callback.stop();
    }
  });

  it("takes the largest stdin, counts it as JSON, and refuses one byte more with 400, running nothing", async () => {
    expect((await dryRun({ command: "wc -c", stdin: LARGEST })).body).toMatchObject({ status: "output", stdout: `${MAX_STDIN_BYTES - 2}\n` });
    expect(await dryRun({ command: "wc -c", stdin: `${LARGEST}x` })).toEqual(badRequest);
    expect(await t.send("POST", "/runs", runRequest({ command: "wc -c", stdin: `${LARGEST}x` }))).toEqual(badRequest);
    expect(t.logs.filter((line) => line.includes("started"))).toHaveLength(1);
  });

  it.each([
    ["a number", 42],
    ["null", null],
    ["an array", ["a", "b"]],
  ])("refuses a stdin that is %s with 400", async (_name, stdin) => {
    expect(await dryRun({ command: "cat", stdin })).toEqual(badRequest);
    expect(t.logs).toEqual([]);
  });

  it("does not fail a script that ignores a large stdin or closes it, and stays up", async () => {
    for (const command of ["true", "exit 0", "exec 0<&-; echo closed"]) {
      const { status, body } = await dryRun({ command, stdin: LARGEST });
      expect(status).toBe(200);
      expect(body).toMatchObject({ exitCode: 0, timedOut: false, stderrTail: "" });
    }
    expect(await t.send("GET", "/healthz", undefined, { signature: null })).toEqual({
      status: 200,
      body: { ok: true, active: 0, callbacks: 0, draining: false },
    });
    expect((await dryRun({ command: "cat", stdin: "still here\n" })).body.stdout).toBe("still here\n");
  });

  it("takes a body between 64 and 128 KiB, and refuses a 100 KiB one for its stdin with 400, not 413", async () => {
    // A command of control characters (six bytes each in JSON) beside the largest stdin.
    const command = `: '${"\u0001".repeat(7980)}'; wc -c`;
    const large = runRequest({ command, stdin: LARGEST });
    const size = Buffer.byteLength(JSON.stringify(large));
    expect(size).toBeGreaterThan(64 * 1024);
    expect(size).toBeLessThanOrEqual(MAX_REQUEST_BYTES);
    expect(await t.send("POST", "/runs?wait=1", large)).toMatchObject({ status: 200, body: { status: "output", stdout: `${MAX_STDIN_BYTES - 2}\n` } });

    const overStdin = runRequest({ command: "cat", stdin: "\u0001".repeat(17_500) });
    const overSize = Buffer.byteLength(JSON.stringify(overStdin));
    expect(overSize).toBeGreaterThan(100 * 1024);
    expect(overSize).toBeLessThanOrEqual(MAX_REQUEST_BYTES);
    expect(await t.send("POST", "/runs?wait=1", overStdin)).toEqual(badRequest);
  });

  it("refuses a body over 128 KiB with 413, however the stdin in it is", async () => {
    const body = runRequest({ command: "cat", stdin: "x".repeat(MAX_REQUEST_BYTES) });
    expect(await t.send("POST", "/runs?wait=1", body)).toEqual({
      status: 413,
      body: { error: { code: "payload_too_large", message: "The body is over 128 KiB; send at most 131072 bytes." } },
    });
    expect(t.logs).toEqual([]);
  });
});

describe("a script as another user", () => {
  it.runIf(process.getuid?.() === 0)("reads its stdin as well", async () => {
    const t = await startRunner({ scriptUser: { uid: 65534, gid: 65534 }, killGraceMs: 200 });
    try {
      const { body } = await t.send("POST", "/runs?wait=1", runRequest({ command: "id -u; cat", stdin: TEXT }));
      expect(body).toMatchObject({ status: "output", exitCode: 0, stdout: `65534\n${TEXT}` });
    } finally {
      await t.stop();
    }
  });
});

describe("the write itself (execute)", () => {
  let cwd: string;
  beforeEach(() => {
    cwd = mkdtempSync(path.join(os.tmpdir(), "cuckoo-stdin-test-"));
  });
  afterEach(() => {
    rmSync(cwd, { recursive: true, force: true });
  });

  /** Far more than any pipe buffer holds, so the write is still going while the script runs. */
  const BIG = "x".repeat(8 * 1024 * 1024);
  const run = (command: string, stdin: string | undefined): ReturnType<typeof execute> => {
    const request: ExecRequest = { command, cwd, env: { PATH: "/usr/bin:/bin" }, timeoutMs: 20_000, killGraceMs: 200 };
    return execute(stdin === undefined ? request : { ...request, stdin });
  };

  it("does not block: the script waits for a file this test makes only once execute has returned", async () => {
    // A runner that wrote the text synchronously would never get to make the file, and the script never read.
    const execution = run("while [ ! -e go ]; do sleep 0.01; done; wc -c", BIG);
    writeFileSync(path.join(cwd, "go"), "");
    const result = await execution.result;
    expect(result).toMatchObject({ code: 0, timedOut: false, stdout: { text: "8388608\n", truncated: false } });
  });

  it("does not deadlock with a script that prints a lot before it reads", async () => {
    const result = await run("head -c 1048576 /dev/zero | tr '\\0' y; wc -c", BIG).result;
    const total = 1048576 + "8388608\n".length;
    expect(result).toMatchObject({ code: 0, timedOut: false, stderr: { text: "", truncated: false } });
    expect(result.stdout.text).toBe(`${"y".repeat(48 * 1024)}${omittedMarker(total - 64 * 1024)}${"y".repeat(16 * 1024 - 8)}8388608\n`);
  });

  it("ignores the broken pipe of a script that exits or closes stdin without reading it", async () => {
    expect(await run("exit 0", BIG).result).toMatchObject({ code: 0, spawnError: null, stdout: { text: "" }, stderr: { text: "" } });
    expect(await run("exec 0<&-; echo closed", BIG).result).toMatchObject({ code: 0, stdout: { text: "closed\n" }, stderr: { text: "" } });
    expect(await run("head -c 3", BIG).result).toMatchObject({ code: 0, stdout: { text: "xxx" } });
    // And the next run is as any other.
    expect(await run("cat", "after\n").result).toMatchObject({ code: 0, stdout: { text: "after\n" } });
  });

  it("leaves stdin /dev/null without a text", async () => {
    expect(await run("readlink /proc/self/fd/0; cat; echo done", undefined).result).toMatchObject({ code: 0, stdout: { text: "/dev/null\ndone\n" } });
  });
});
