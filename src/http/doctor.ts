/**
 * @module `GET /admin/doctor` (docs/api.md, docs/doctor.md): what `npm run doctor` cannot see from outside the Worker.
 * The runner (at RUNNER_URL: one signed request, so a wrong secret shows; a container is not started, since each chat's
 * starts with its first watcher and an instance is billed), the model (one short call, as a turn makes it) and the D1
 * migrations applied. Behind ADMIN_TOKEN like every /admin route; it changes nothing.
 */
import type { Context } from "hono";
import { completer } from "../agent/llm";
import { ModelRefused } from "../agent/model";
import type { WorkersAi } from "../agent/workers-ai";
import type { Config } from "../config";
import { SIGNATURE_HEADER, signatureHeader, signingTarget } from "../contracts/runner";
import type { DoctorReport } from "../schemas/doctor";
import type { AppEnv } from "./context";
import type { Operation } from "./openapi-components";

const RUNNER_TIMEOUT_MS = 5_000;
const MODEL_TIMEOUT_MS = 20_000;

type Part = DoctorReport["runner"];

/** The runner: a signed `DELETE /runs/doctor-probe`, which a runner with the same secret answers 404 (no such run), else 401. */
async function runnerPart(config: Config): Promise<Part> {
  const { mode, url, secret } = config.runner;
  if (mode === "off") return { status: "off", says: 'No runner is configured, so watchers fail "did not start".' };
  if (mode === "container")
    return {
      status: "ok",
      says: "The runner container is bound and RUNNER_SECRET is set; each chat's container starts with its first watcher, so none was started.",
    };
  const path = "/runs/doctor-probe";
  try {
    const signature = await signatureHeader(
      secret ?? "",
      { method: "DELETE", target: signingTarget(new URL(path, "http://runner")), body: "" },
      Date.now() / 1000,
    );
    const response = await fetch(`${url}${path}`, {
      method: "DELETE",
      headers: { [SIGNATURE_HEADER]: signature },
      signal: AbortSignal.timeout(RUNNER_TIMEOUT_MS),
    });
    await response.body?.cancel();
    // The runner answers 404 for a run it does not have; any 2xx is a runner that took the signature too.
    if (response.status === 404 || response.ok) return { status: "ok", says: `The runner at ${url} answers and takes RUNNER_SECRET.` };
    if (response.status === 401) return { status: "failed", says: `The runner at ${url} refused the signature: RUNNER_SECRET must be the same on both sides.` };
    return { status: "failed", says: `The runner at ${url} answered HTTP ${response.status} where it answers 404.` };
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    const why = timedOut ? `no answer within ${RUNNER_TIMEOUT_MS / 1000} s` : (error instanceof Error ? error.message : String(error)).slice(0, 200);
    return { status: "failed", says: `The runner at ${url} could not be reached (${why}).` };
  }
}

/** The model: one short call, through the turn's own model call (`completer`), on the configured model. */
async function modelPart(config: Config, ai: WorkersAi | undefined): Promise<Part> {
  const { kind, provider, baseUrl, model } = config.agent;
  if (kind === "echo") return { status: "off", says: config.agent.note ?? "The echo agent answers; no model is called." };
  const where = provider === "workers-ai" ? "Workers AI" : (baseUrl ?? "");
  if (model === null) return { status: "failed", says: "LLM_MODEL is not set." };
  const complete = completer(config.agent, ai);
  if (complete === null)
    return { status: "failed", says: provider === "workers-ai" ? "LLM_PROVIDER=workers-ai, but the Worker has no AI binding." : "LLM_BASE_URL is not set." };
  try {
    await complete(model, [{ role: "user", content: "Reply with the word OK." }], [], MODEL_TIMEOUT_MS, 0);
    return { status: "ok", says: `${model} at ${where} answered.` };
  } catch (error) {
    const said = error instanceof ModelRefused ? error.sentence.replace(/^⚠️ /, "") : error instanceof Error ? error.message : String(error);
    return { status: "failed", says: `${model} at ${where}: ${said}` };
  }
}

/** The D1 migrations wrangler recorded as applied (its `d1_migrations` table; none while it does not exist). */
async function migrationsPart(db: D1Database): Promise<DoctorReport["migrations"]> {
  try {
    const { results } = await db.prepare("SELECT name FROM d1_migrations ORDER BY id").all<{ name: string }>();
    return { applied: results.map((row) => row.name) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/no such table/.test(message)) return { applied: [] };
    return { error: message.slice(0, 200) };
  }
}

/** 200 with each part; its own failures are in the parts, never a 5xx. */
export async function doctorRoute(c: Context<AppEnv>) {
  const config = c.var.config;
  const [runner, model, migrations] = await Promise.all([runnerPart(config), modelPart(config, c.env.AI as WorkersAi | undefined), migrationsPart(c.env.DB)]);
  const body: DoctorReport = { runner, model, migrations };
  c.header("Cache-Control", "no-store");
  return c.json(body, 200);
}

/** What the OpenAPI document says of `GET /admin/doctor`. */
export const doctorOperations = (): Operation[] => [
  {
    method: "get",
    path: "/admin/doctor",
    summary: "The parts only the Worker can check, for npm run doctor: the runner, the model (one short call) and the D1 migrations applied.",
    access: "admin",
    answers: [[200, "Each part ok, off or failed, with a sentence.", "DoctorReport"]],
  },
];
