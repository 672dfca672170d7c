/**
 * The HTTP edge's refusals, each proven to run nothing: signatures (401: v2 covers the method, the target
 * and the body, so a header is good for one request only; v1 is refused), bodies (400, 413), reused run ids
 * (409), the concurrency limit (429), unknown routes (404); and the unsigned health check.
 */
import { createHmac } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { signatureHeader } from "../src/contract.ts";
import { eventually, runRequest, SECRET, startRunner, type TestRunner } from "./harness.ts";

let t: TestRunner;
beforeEach(async () => {
  t = await startRunner({ killGraceMs: 200 });
});
afterEach(async () => {
  await t.stop();
});

/** A command that would leave a file behind if it ever ran, and a check that it did not. */
function marker(name: string) {
  const file = path.join(path.dirname(t.root), `${path.basename(t.root)}-${name}`);
  return {
    command: `touch '${file}'`,
    async ranNothing(): Promise<boolean> {
      // Nothing may have started: no log line, no running run, and (after a moment) no file.
      await new Promise((resolve) => setTimeout(resolve, 200));
      return !existsSync(file) && t.logs.length === 0 && t.runner.active === 0;
    },
  };
}

const unauthorized = (message: string) => ({ status: 401, body: { error: { code: "unauthorized", message } } });
const badRequest = (message: string) => ({ status: 400, body: { error: { code: "bad_request", message } } });
const mismatch = unauthorized(
  'The X-Cuckoo-Signature does not match the request; sign "<t>.<METHOD> <target>.<body>" with the RUNNER_SECRET the runner was started with.',
);

describe("signatures", () => {
  it("answers GET /healthz unsigned", async () => {
    expect(await t.send("GET", "/healthz", undefined, { signature: null })).toEqual({
      status: 200,
      body: { ok: true, active: 0, callbacks: 0, draining: false },
    });
  });

  it("refuses an unsigned run with 401 and runs nothing", async () => {
    const m = marker("unsigned");
    expect(await t.send("POST", "/runs", runRequest({ command: m.command }), { signature: null })).toEqual(
      unauthorized(
        'The X-Cuckoo-Signature header is missing; sign each request as t=<unix seconds>,v2=<hex HMAC-SHA256 of "<t>.<METHOD> <target>.<body>" with RUNNER_SECRET>.',
      ),
    );
    expect(await m.ranNothing()).toBe(true);
  });

  it("refuses a run signed with another secret with 401 and runs nothing", async () => {
    const m = marker("bad-signature");
    const body = JSON.stringify(runRequest({ command: m.command }));
    const signature = await signatureHeader("another-secret", { method: "POST", target: "/runs", body }, Date.now() / 1000);
    expect(await t.send("POST", "/runs", body, { signature })).toEqual(mismatch);
    expect(await m.ranNothing()).toBe(true);
  });

  it("refuses a signature of another body with 401", async () => {
    const m = marker("other-body");
    const signFor = { body: JSON.stringify(runRequest()) };
    expect(await t.send("POST", "/runs", runRequest({ command: m.command }), { signFor })).toEqual(mismatch);
    expect(await m.ranNothing()).toBe(true);
  });

  it("refuses a v1 signature (the body alone), valid as it is, with 401 and runs nothing", async () => {
    const m = marker("v1");
    const body = JSON.stringify(runRequest({ command: m.command }));
    const t1 = Math.floor(Date.now() / 1000);
    const signature = `t=${t1},v1=${createHmac("sha256", SECRET).update(`${t1}.${body}`).digest("hex")}`;
    expect(await t.send("POST", "/runs", body, { signature })).toEqual(
      unauthorized(
        'The X-Cuckoo-Signature v1 (the body alone) is no longer accepted; sign v2, "<t>.<METHOD> <target>.<body>", as a runner and Worker of the same version do.',
      ),
    );
    expect(await m.ranNothing()).toBe(true);
  });

  it("refuses a run signed without ?wait=1 and sent with it: the query is signed", async () => {
    const m = marker("query");
    expect(await t.send("POST", "/runs?wait=1", runRequest({ command: m.command }), { signFor: { target: "/runs" } })).toEqual(mismatch);
    expect(await t.send("POST", "/runs", runRequest({ command: m.command }), { signFor: { target: "/runs?wait=1" } })).toEqual(mismatch);
    expect(await m.ranNothing()).toBe(true);
  });

  it("refuses a cancel signed for another run id, and cancels only with its own", async () => {
    expect((await t.send("POST", "/runs", runRequest({ runId: "r-a", command: "sleep 30" }))).status).toBe(202);
    expect((await t.send("POST", "/runs", runRequest({ runId: "r-b", command: "sleep 30" }))).status).toBe(202);
    expect(await t.send("DELETE", "/runs/r-b", undefined, { signFor: { target: "/runs/r-a" } })).toEqual(mismatch);
    expect(t.runner.active).toBe(2);
    expect(await t.send("DELETE", "/runs/r-b")).toEqual({ status: 204, body: null });
    expect(await eventually(() => t.runner.active === 1)).toBe(true);
  });

  it("refuses a POST /runs header replayed on a DELETE with the same body", async () => {
    const victim = runRequest({ runId: "r-victim", command: "sleep 30" });
    expect((await t.send("POST", "/runs", victim)).status).toBe(202);
    const seen = JSON.stringify(runRequest());
    expect(await t.send("DELETE", "/runs/r-victim", seen, { signFor: { method: "POST", target: "/runs" } })).toEqual(mismatch);
    expect(t.runner.active).toBe(1);
  });

  it("signs the target with its percent-encoding as sent, not decoded", async () => {
    const runId = "123456789:k7m2q:1767225600000";
    const encoded = `/runs/${encodeURIComponent(runId)}`;
    expect(encoded).toBe("/runs/123456789%3Ak7m2q%3A1767225600000");
    expect((await t.send("POST", "/runs", runRequest({ runId, command: "sleep 30" }))).status).toBe(202);
    expect(await t.send("DELETE", encoded, undefined, { signFor: { target: `/runs/${runId}` } })).toEqual(mismatch);
    expect(await t.send("DELETE", encoded)).toEqual({ status: 204, body: null });
  });

  it("refuses a timestamp 301 s off either way with 401 and accepts one 300 s off", async () => {
    // A fixed clock, so that no second passes between signing and checking.
    await t.stop();
    const now = 1_767_225_600;
    t = await startRunner({ now: () => now * 1000 });
    const m = marker("stale");
    const stale = unauthorized("The X-Cuckoo-Signature timestamp is more than 300 s off the runner's clock; sign with the current unix time.");
    expect(await t.send("POST", "/runs", runRequest({ command: m.command }), { t: now - 301 })).toEqual(stale);
    expect(await t.send("POST", "/runs", runRequest({ command: m.command }), { t: now + 301 })).toEqual(stale);
    expect(await m.ranNothing()).toBe(true);
    expect((await t.send("POST", "/runs?wait=1", runRequest(), { t: now - 300 })).status).toBe(200);
  });

  it("refuses a malformed signature header with 401", async () => {
    const malformed = unauthorized("The X-Cuckoo-Signature header must look like t=<unix seconds>,v2=<64 hex digits>.");
    expect(await t.send("POST", "/runs", runRequest(), { signature: "v2=abc" })).toEqual(malformed);
    expect(await t.send("POST", "/runs", runRequest(), { signature: `t=1,v2=${"a".repeat(63)}` })).toEqual(malformed);
  });

  it("refuses an unsigned cancel with 401", async () => {
    expect((await t.send("DELETE", "/runs/any", undefined, { signature: null })).status).toBe(401);
  });
});

describe("bodies", () => {
  it("refuses a chat id that would leave the workspace root with 400, creating nothing", async () => {
    const m = marker("escape");
    expect(await t.send("POST", "/runs", runRequest({ chatId: "../escape", command: m.command }))).toEqual(
      badRequest('chatId must be a Telegram chat id written as a string, such as "123456789" or "-1001234567890".'),
    );
    expect(readdirSync(t.root)).toEqual([]);
    expect(existsSync(path.join(t.root, "..", "escape"))).toBe(false);
    expect(await m.ranNothing()).toBe(true);
  });

  it.each([
    ["a missing runId", { runId: undefined }, 'runId must be a string of 1 to 200 characters, such as "123456789:k7m2q:1767225600000".'],
    ["a runId over 200 characters", { runId: "r".repeat(201) }, 'runId must be a string of 1 to 200 characters, such as "123456789:k7m2q:1767225600000".'],
    ["a numeric chat id", { chatId: 123456789 }, 'chatId must be a Telegram chat id written as a string, such as "123456789" or "-1001234567890".'],
    ["a chat id with a leading zero", { chatId: "0123" }, 'chatId must be a Telegram chat id written as a string, such as "123456789" or "-1001234567890".'],
    ["a job id with a slash", { jobId: "a/b" }, 'jobId must be a string of 1 to 64 letters, digits, "-" or "_", such as "k7m2q".'],
    ["an empty command", { command: "" }, 'command must be a shell command of 1 to 8000 characters without NUL characters, such as "echo hi".'],
    [
      "a command over 8000 characters",
      { command: "x".repeat(8001) },
      'command must be a shell command of 1 to 8000 characters without NUL characters, such as "echo hi".',
    ],
    ["a fractional timeout", { timeoutSeconds: 1.5 }, "timeoutSeconds must be a whole number of seconds from 1 to 3600, such as 60."],
    ["a timeout over an hour", { timeoutSeconds: 3601 }, "timeoutSeconds must be a whole number of seconds from 1 to 3600, such as 60."],
    ["a timeout as a string", { timeoutSeconds: "60" }, "timeoutSeconds must be a whole number of seconds from 1 to 3600, such as 60."],
    [
      "an unknown zone",
      { timeZone: "Mars/Olympus" },
      'timeZone "Mars/Olympus" is not an IANA time zone this runner knows; use one such as "Europe/Berlin" or "UTC".',
    ],
    ["a zone that is not a string", { timeZone: 1 }, 'timeZone must be an IANA time zone name, such as "Europe/Berlin" or "UTC".'],
    [
      "a callback URL that is not http",
      { callbackUrl: "ftp://example.com/x" },
      'callbackUrl must be an http or https URL, such as "http://127.0.0.1:8787/runner/callback/123456789", or left out.',
    ],
    [
      "an unknown field",
      { shell: "bash" },
      'Unknown field "shell"; the accepted fields are runId, chatId, jobId, command, timeoutSeconds, timeZone, callbackUrl and stdin.',
    ],
  ])("refuses %s with 400 naming the field", async (_name, fields, message) => {
    const body = runRequest(fields);
    for (const [key, value] of Object.entries(fields)) if (value === undefined) delete body[key];
    expect(await t.send("POST", "/runs", body)).toEqual(badRequest(message));
    expect(t.logs).toEqual([]);
  });

  it("refuses a body that is not a JSON object with 400", async () => {
    const message =
      'The body must be a JSON object such as {"runId":"r1","chatId":"123456789","jobId":"k7m2q","command":"echo hi","timeoutSeconds":60,"timeZone":"Europe/Berlin"}.';
    expect(await t.send("POST", "/runs", "{not json")).toEqual(badRequest(message));
    expect(await t.send("POST", "/runs", "[1]")).toEqual(badRequest(message));
  });

  it("refuses a wait other than 1 with 400", async () => {
    expect(await t.send("POST", "/runs?wait=yes", runRequest())).toEqual(badRequest("wait must be 1 (answer with the outcome) or left out."));
  });

  it("refuses a body over 128 KiB with 413 before anything else", async () => {
    const m = marker("too-large");
    const body = JSON.stringify(runRequest({ command: m.command, padding: "x".repeat(128 * 1024) }));
    expect(await t.send("POST", "/runs", body)).toEqual({
      status: 413,
      body: { error: { code: "payload_too_large", message: "The body is over 128 KiB; send at most 131072 bytes." } },
    });
    expect(await m.ranNothing()).toBe(true);
  });

  it("refuses a body over 128 KiB sent without a length with 413", async () => {
    const chunk = new TextEncoder().encode("x".repeat(16 * 1024));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 9; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const response = await fetch(`${t.url}/runs`, { method: "POST", body: stream, duplex: "half" } as RequestInit);
    expect(response.status).toBe(413);
  });
});

describe("run ids, limits and routes", () => {
  it("refuses a run id seen before with 409, while it runs and after it ended", async () => {
    const body = runRequest({ runId: "r-twice", command: "true" });
    expect(await t.send("POST", "/runs?wait=1", body)).toMatchObject({ status: 200 });
    const conflict = { status: 409, body: { error: { code: "conflict", message: "Run r-twice already started." } } };
    expect(await t.send("POST", "/runs?wait=1", body)).toEqual(conflict);
    expect(await t.send("POST", "/runs", { ...body, command: "echo other" })).toEqual(conflict);
  });

  it("forgets a run id 300 s + 3600 s after its run ended", async () => {
    await t.stop();
    let clock = 1_767_225_600_000;
    t = await startRunner({ now: () => clock });
    const body = runRequest({ runId: "r-forgotten" });
    expect((await t.send("POST", "/runs?wait=1", body)).status).toBe(200);
    clock += 3_900_000 - 1;
    expect((await t.send("POST", "/runs?wait=1", body)).status).toBe(409);
    clock += 1;
    expect((await t.send("POST", "/runs?wait=1", body)).status).toBe(200);
  });

  it("does not spend a run id on a refused request", async () => {
    const body = runRequest({ runId: "r-retry" });
    expect((await t.send("POST", "/runs?wait=1", { ...body, timeZone: "Nowhere/Zone" })).status).toBe(400);
    expect((await t.send("POST", "/runs?wait=1", body)).status).toBe(200);
  });

  it("answers 404 for an unknown route and for cancelling a run that is not running", async () => {
    expect(await t.send("GET", "/runs")).toEqual({
      status: 404,
      body: { error: { code: "not_found", message: "No route GET /runs; the runner serves GET /healthz, POST /runs and DELETE /runs/:runId." } },
    });
    expect(await t.send("DELETE", "/runs/nobody")).toEqual({
      status: 404,
      body: { error: { code: "not_found", message: "Run nobody is not running." } },
    });
  });
});

describe("concurrency", () => {
  it("runs at most maxConcurrency at once, answers 429 beyond, and cancels with 204", async () => {
    await t.stop();
    t = await startRunner({ maxConcurrency: 2, killGraceMs: 200 });
    const first = runRequest({ runId: "r-first", command: "sleep 30" });
    const second = runRequest({ runId: "r-second", command: "sleep 30" });
    expect(await t.send("POST", "/runs", first)).toEqual({ status: 202, body: { runId: "r-first" } });
    expect(await t.send("POST", "/runs", second)).toEqual({ status: 202, body: { runId: "r-second" } });
    expect(await t.send("POST", "/runs", runRequest({ runId: "r-third" }))).toEqual({
      status: 429,
      body: {
        error: {
          code: "too_many_requests",
          message: "The runner is already running 2 runs, its limit (RUNNER_MAX_CONCURRENCY); try again when one ends.",
        },
      },
    });
    expect(await t.send("GET", "/healthz", undefined, { signature: null })).toEqual({
      status: 200,
      body: { ok: true, active: 2, callbacks: 0, draining: false },
    });
    expect(await t.send("DELETE", "/runs/r-first")).toEqual({ status: 204, body: null });
    expect(await t.send("DELETE", `/runs/${encodeURIComponent("r-second")}`)).toEqual({ status: 204, body: null });
    expect(await eventually(() => t.runner.active === 0)).toBe(true);
    // The refused third run did not spend its id.
    expect((await t.send("POST", "/runs?wait=1", runRequest({ runId: "r-third" }))).status).toBe(200);
  });
});

/**
 * Writes `text` on a fresh TCP connection to the runner and reads until the runner closes it (or 5 s pass):
 * the status line, the headers (lower-cased) and the body as they arrived.
 */
function rawExchange(url: string, text: string): Promise<{ statusLine: string; headers: Record<string, string>; body: string; closedByRunner: boolean }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(text));
    let received = "";
    let closedByRunner = false;
    const timer = setTimeout(() => socket.destroy(), 5_000);
    socket.on("data", (chunk: Buffer) => (received += chunk.toString("utf8")));
    socket.on("end", () => (closedByRunner = true));
    socket.on("error", reject);
    socket.on("close", () => {
      clearTimeout(timer);
      const [head = "", body = ""] = received.split("\r\n\r\n");
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
      resolve({ statusLine, headers, body, closedByRunner });
    });
  });
}

describe("requests that cannot be parsed", () => {
  const envelope = {
    error: { code: "bad_request", message: "The request could not be parsed as HTTP/1.1 with a path such as /runs; nothing was run." },
  };

  it.each([
    ["a request target that is no URL", "GET http://[::1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"],
    ["a signed-looking POST whose target is no URL", "POST http://[::1/runs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\n{}"],
    ["a request line Node's parser refuses", "GARBAGE\r\n\r\n"],
    ["a Content-Length that is no number", "POST /runs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n"],
  ])("answers %s with 400 and the error envelope, closes the connection and runs nothing", async (_name, text) => {
    const answer = await rawExchange(t.url, text);
    expect(answer.statusLine).toBe("HTTP/1.1 400 Bad Request");
    expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(answer.headers.connection).toBe("close");
    expect(JSON.parse(answer.body)).toEqual(envelope);
    expect(answer.closedByRunner).toBe(true);
    expect(t.logs).toEqual([]);
    // The runner goes on serving.
    expect(await t.send("GET", "/healthz", undefined, { signature: null })).toMatchObject({ status: 200 });
  });

  it("answers headers past Node's limit with 431 and the error envelope", async () => {
    const answer = await rawExchange(t.url, `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${"x".repeat(20 * 1024)}\r\n\r\n`);
    expect(answer.statusLine).toBe("HTTP/1.1 431 Request Header Fields Too Large");
    expect(JSON.parse(answer.body)).toEqual({ error: { code: "headers_too_large", message: "The request's headers are too large; nothing was run." } });
    expect(answer.closedByRunner).toBe(true);
  });
});
