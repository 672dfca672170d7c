/**
 * `GET /admin/doctor` (docs/doctor.md): what `npm run doctor` asks the Worker about its runner, its model and the D1
 * migrations, behind ADMIN_TOKEN, against the runner and model stubs.
 */
import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { doctorReport } from "../../src/schemas/doctor";
import { STUB_RUNNER_SECRET } from "../stub/runner-stub";
import { model } from "./agent-helpers";
import { answerAs, call, deployed, envWith, send } from "./helpers";

const PUBLIC_URL = "https://cuckoo.example.workers.dev";

describe("GET /admin/doctor", () => {
  it("says the runner and the model are off, and lists the migrations applied, in open dev mode", async () => {
    const answer = answerAs(await send("GET", "/admin/doctor"), doctorReport());
    expect(answer).toEqual({
      status: 200,
      body: {
        runner: { status: "off", says: 'No runner is configured, so watchers fail "did not start".' },
        model: { status: "off", says: "The echo agent answers; no model is called." },
        migrations: { applied: env.TEST_MIGRATIONS.map((m) => m.name) },
      },
    });
  });

  it("checks the runner at RUNNER_URL with a signed request, and says when its secret differs", async () => {
    const runner = inject("runnerStub");
    const good = await send("GET", "/admin/doctor", undefined, envWith({ RUNNER_URL: runner, RUNNER_SECRET: STUB_RUNNER_SECRET, PUBLIC_URL }));
    expect((good.body as { runner: unknown }).runner).toEqual({ status: "ok", says: `The runner at ${runner} answers and takes RUNNER_SECRET.` });
    const bad = await send("GET", "/admin/doctor", undefined, envWith({ RUNNER_URL: runner, RUNNER_SECRET: "another-secret", PUBLIC_URL }));
    expect((bad.body as { runner: unknown }).runner).toEqual({
      status: "failed",
      says: `The runner at ${runner} refused the signature: RUNNER_SECRET must be the same on both sides.`,
    });
  });

  it("makes one short model call, and says what the model answered when it refuses", async () => {
    const m = model();
    await m.script({ kind: "text", content: "OK" }, { kind: "error", status: 404, message: "no such model" });
    const ok = await send("GET", "/admin/doctor", undefined, m.env);
    expect((ok.body as { model: unknown }).model).toEqual({ status: "ok", says: `${m.name} at ${m.vars.LLM_BASE_URL} answered.` });
    expect((await m.requests()).map((r) => r.messages)).toEqual([[{ role: "user", content: "Reply with the word OK." }]]);
    const refused = await send("GET", "/admin/doctor", undefined, m.env);
    expect((refused.body as { model: unknown }).model).toEqual({
      status: "failed",
      says: `${m.name} at ${m.vars.LLM_BASE_URL}: The model was not found (HTTP 404): check LLM_BASE_URL and LLM_MODEL (${JSON.stringify(m.name)}).`,
    });
  });

  it("is behind ADMIN_TOKEN like every admin route", async () => {
    const env = deployed({ ADMIN_TOKEN: "doctor-admin-token" });
    expect((await call("/admin/doctor", {}, env)).status).toBe(401);
    const res = await call("/admin/doctor", { headers: { Authorization: "Bearer doctor-admin-token" } }, env);
    expect(res.status).toBe(200);
  });
});
