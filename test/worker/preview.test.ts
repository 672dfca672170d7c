/** `POST /admin/preview` (docs/time.md#preview, docs/api.md): the body's shape at the edge, the time rules from the engine. */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, envWith, postJson } from "./helpers";

const FROM = "2026-03-28T12:00:00Z";

async function preview(body: unknown, testEnv?: Env) {
  const res = await call("/admin/preview", postJson(body), testEnv);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

function badRequest(message: string) {
  return { status: 400, body: { error: { code: "bad_request", message } } };
}

describe("POST /admin/preview", () => {
  it("moves a spring-forward gap time to the first instant after the gap, once, with a note", async () => {
    const res = await preview({ cron: "30 2 * * *", timeZone: "Europe/Berlin", from: FROM });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      timeZone: "Europe/Berlin",
      occurrences: ["2026-03-29T01:00:00.000Z", "2026-03-30T00:30:00.000Z", "2026-03-31T00:30:00.000Z", "2026-04-01T00:30:00.000Z", "2026-04-02T00:30:00.000Z"],
      notes: ["2026-03-29 02:30 does not exist in Europe/Berlin; runs at 03:00"],
      description: expect.any(String),
    });
  });

  it("answers through the Worker's fetch handler as a client sees it", async () => {
    const res = await exports.default.fetch("http://localhost:8787/admin/preview", {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: "http://localhost:8787" },
      body: JSON.stringify({ cron: "0 9 * * *", from: FROM, count: 2 }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      timeZone: "UTC",
      occurrences: ["2026-03-29T09:00:00.000Z", "2026-03-30T09:00:00.000Z"],
      notes: [],
      description: expect.any(String),
    });
  });

  it("defaults the zone to DEFAULT_TIMEZONE", async () => {
    const res = await preview({ cron: "0 9 * * *", from: FROM, count: 1 }, envWith({ DEFAULT_TIMEZONE: "America/New_York" }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ timeZone: "America/New_York", occurrences: ["2026-03-28T13:00:00.000Z"] });
  });

  it("accepts a Windows zone id and answers with its IANA name", async () => {
    const res = await preview({ cron: "0 9 * * *", timeZone: "W. Europe Standard Time", from: FROM, count: 1 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ timeZone: "Europe/Berlin", occurrences: ["2026-03-29T07:00:00.000Z"] });
  });

  it("adds a delay to from", async () => {
    const res = await preview({ delay: "PT20M", from: FROM });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ timeZone: "UTC", occurrences: ["2026-03-28T12:20:00.000Z"], notes: [] });
  });

  it("reads from with an offset and fractional seconds", async () => {
    const res = await preview({ delay: "PT1M", from: "2026-03-28T13:00:00.5+01:00", count: 1 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ occurrences: ["2026-03-28T12:01:00.500Z"] });
  });

  it("defaults from to now", async () => {
    const before = Date.now();
    const res = await preview({ delay: "PT1H" });
    expect(res.status).toBe(200);
    const [first] = res.body.occurrences as string[];
    expect(Date.parse(first!) - before).toBeGreaterThanOrEqual(3_600_000 - 1000);
    expect(Date.parse(first!) - before).toBeLessThanOrEqual(3_600_000 + 60_000);
  });

  it("refuses a bad cron expression with the engine's sentence", async () => {
    expect(await preview({ cron: "61 * * * *", from: FROM })).toEqual(
      badRequest('Invalid cron expression "61 * * * *": the minute field "61" has 61, outside 0–59; use 0–59, e.g. "0", "*/15" or "0,30".'),
    );
  });

  it("refuses an expression that never fires", async () => {
    expect(await preview({ cron: "0 0 30 2 *", from: FROM })).toEqual(
      badRequest('The cron expression "0 0 30 2 *" never fires within 5 years; check its day-of-month, month and day-of-week fields.'),
    );
  });

  it("refuses an unknown zone with the sentence of docs/time.md", async () => {
    expect(await preview({ cron: "0 9 * * *", timeZone: "Mars/Olympus" })).toEqual(
      badRequest('Unknown time zone "Mars/Olympus". Use an IANA name such as Europe/Berlin or America/New_York.'),
    );
  });

  it("refuses an unknown field", async () => {
    expect(await preview({ cron: "0 9 * * *", foo: 1 })).toEqual(badRequest('Unknown field "foo".'));
  });

  it("refuses a count outside 1–20 or not whole", async () => {
    const message = '"count" must be a whole number from 1 to 20.';
    for (const count of [0, 21, 2.5, "3", null]) expect(await preview({ cron: "0 9 * * *", count })).toEqual(badRequest(message));
  });

  it("refuses a field of the wrong type, showing an accepted form", async () => {
    expect(await preview({ cron: 5 })).toEqual(badRequest('"cron" must be a string such as "0 9 * * 1-5".'));
    expect(await preview({ cron: "0 9 * * *", timeZone: 2 })).toEqual(badRequest('"timeZone" must be a string such as "Europe/Berlin".'));
  });

  it("refuses a from that is not an RFC 3339 instant", async () => {
    for (const from of ["tomorrow", "2026-03-28T12:00:00", "2026-02-30T12:00:00Z", "2026-03-28"])
      expect(await preview({ cron: "0 9 * * *", from })).toEqual(
        badRequest(`"from" must be an RFC 3339 instant such as 2026-03-28T12:00:00Z; got ${JSON.stringify(from)}.`),
      );
  });

  it("needs exactly one of cron, at, delay, rrule and when, with the one sentence of that rule", async () => {
    const one = badRequest(
      'Give exactly one of "at", "cron", "delay", "rrule" (with "start") or "when", such as "when": "every other tuesday at 10" or "cron": "0 8 * * 1-5".',
    );
    expect(await preview({ timeZone: "UTC" })).toEqual(one);
    expect(await preview({ cron: "0 9 * * *", at: "2026-09-27T09:00" })).toEqual(one);
    expect(await preview({ cron: "0 9 * * *", at: "2026-09-27T09:00", delay: "PT20M" })).toEqual(one);
    expect(await preview({ cron: "0 9 * * *", when: "every day at 9" })).toEqual(one);
  });

  it("refuses malformed JSON, a non-object and an empty body", async () => {
    expect(await preview('{"cron": "0 9 * * *"')).toEqual(badRequest("The body is not valid JSON; send a JSON object."));
    expect(await preview(["0 9 * * *"])).toEqual(badRequest("The body must be a JSON object."));
    expect(await preview("")).toEqual(badRequest("The body must be a JSON object."));
  });

  it("refuses a body over 64 KiB by its Content-Length", async () => {
    const res = await exports.default.fetch("http://localhost/admin/preview", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ cron: "0 9 * * *", pad: "x".repeat(65 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      error: { code: "payload_too_large", message: "The body is larger than 64 KiB." },
    });
  });

  it("refuses a streamed body over 64 KiB while reading it", async () => {
    const chunk = new TextEncoder().encode("x".repeat(16 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 5) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await call("/admin/preview", { method: "POST", headers: { "Content-Type": "application/json" }, body });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      error: { code: "payload_too_large", message: "The body is larger than 64 KiB." },
    });
  });

  it("accepts a body of exactly 64 KiB", async () => {
    const json = JSON.stringify({ cron: "0 9 * * *", from: FROM, count: 1 });
    const padded = json + " ".repeat(64 * 1024 - json.length);
    const res = await call("/admin/preview", postJson(padded));
    expect(res.status).toBe(200);
  });

  it("answers 500 config_error while DEFAULT_TIMEZONE is invalid", async () => {
    const res = await call("/admin/preview", postJson({ cron: "0 9 * * *" }), envWith({ DEFAULT_TIMEZONE: "Mars/Olympus" }));
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      error: {
        code: "config_error",
        message: 'DEFAULT_TIMEZONE "Mars/Olympus" is not a time zone; use an IANA name such as Europe/Berlin.',
      },
    });
  });
});
