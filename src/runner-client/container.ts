/**
 * @module The runner in production (docs/watchers.md "Production container"): `RunnerContainer`, a Cloudflare
 * Container per chat (`env.RUNNER.getByName(chatId)`) running the runner image of `runner/Dockerfile`. It
 * owns three things: what the runner process gets at start (its secret from the Worker, never the image),
 * when the instance may sleep (never while runs are active: `lifecycleDecision`), and the runner's callback,
 * which goes through the outbound handler of the internal host straight to the chat's Durable Object
 * (`routeCallback`), so production needs no public callback URL. docs/design/0006-runner-container.md says
 * why; docs/runner.md is the operator's guide.
 */
import { Container, type OutboundHandlerContext } from "@cloudflare/containers";
import * as z from "zod";
import { loadConfig } from "../config";
import { KILL_GRACE_SECONDS, MAX_TIMEOUT_SECONDS } from "../contracts/runner";
import { lazy } from "../lazy";
import { acceptCallback } from "./callback";
import { CONTAINER_CALLBACK_HOST } from "./client";

/** The port the runner listens on inside the container (`RUNNER_PORT`). */
export const RUNNER_PORT = 8788;

/**
 * How long the instance may go without a request before its runner is asked whether runs are active; while
 * they are, it is asked again after the same time. Also the longest an idle instance stays awake (billed).
 */
const SLEEP_AFTER_SECONDS = 120;

/**
 * How long a run may still be going after the last sign of it, when the runner cannot be asked: the longest
 * watcher timeout (3600 s), the runner's kill grace (SIGTERM, SIGKILL 5 s later) and 2 minutes for its
 * callback. Past this, nothing the instance holds can be lost by stopping it.
 */
export const LONGEST_RUN_MS = (MAX_TIMEOUT_SECONDS + KILL_GRACE_SECONDS + 120) * 1000;

/** How long the runner's `/healthz` has to answer. */
const HEALTH_TIMEOUT_MS = 5_000;

/**
 * What `GET /healthz` told, or that it could not be asked. `callbacks` counts outcomes the runner is still
 * trying to deliver (0 when the runner does not report it): stopping would lose them.
 */
export type RunnerHealth = { reached: true; active: number; callbacks: number } | { reached: false; reason: string };

/** What the instance knows when its activity timeout expires. Instants are epoch milliseconds. */
export type LifecycleInput = Readonly<{
  health: RunnerHealth;
  nowMs: number;
  /** When `/healthz` was asked. */
  askedMs: number;
  /** The last request proxied to the runner (a run may have started then), or when this object woke. */
  lastRequestMs: number;
  /** The last time `/healthz` reported active runs, or null. */
  lastActiveMs: number | null;
  /** When this object last asked the container to stop (SIGTERM) and it is still running, or null. */
  stopSentMs: number | null;
}>;

type LifecycleDecision = Readonly<{ action: "stay" | "stop" | "kill"; reason: string }>;

/**
 * Whether the instance stays awake when its activity timeout expires: it stays while the runner reports
 * active runs, and sleeps when it reports none. A runner that does not answer is given the benefit of the
 * doubt until the longest run that may have started since the last sign of activity is over. A container
 * that was asked to stop and is still running at the next expiry is killed (SIGKILL).
 */
export function lifecycleDecision(input: LifecycleInput): LifecycleDecision {
  const { health, nowMs, askedMs, lastRequestMs, lastActiveMs, stopSentMs } = input;
  // A request that reached the runner while it was being asked may have started a run the answer misses.
  if (lastRequestMs >= askedMs) return { action: "stay", reason: "a request reached the runner while it was asked" };
  let idle: string;
  if (health.reached) {
    if (health.active > 0) return { action: "stay", reason: `${health.active} run(s) active` };
    if (health.callbacks > 0) return { action: "stay", reason: `${health.callbacks} outcome(s) still being delivered` };
    idle = "no run active";
  } else {
    const lastBusyMs = Math.max(lastRequestMs, lastActiveMs ?? lastRequestMs);
    const untilMs = lastBusyMs + LONGEST_RUN_MS;
    if (nowMs < untilMs) {
      return { action: "stay", reason: `the runner did not answer (${health.reason}); a run may last until ${new Date(untilMs).toISOString()}` };
    }
    idle = `the runner did not answer (${health.reason}) and no run can be going any more`;
  }
  if (stopSentMs !== null) return { action: "kill", reason: `${idle}; still running after SIGTERM` };
  return { action: "stop", reason: idle };
}

/** The part of `/healthz` this module reads. */
const healthBody = lazy(() => z.object({ active: z.number().int().min(0), callbacks: z.number().int().min(0).default(0) }));

/**
 * Whether scripts may reach the internet: `RUNNER_INTERNET` = `0` turns it off; unset or `1` leaves it on
 * (watchers that check web pages need it). The callback host works either way. An invalid value is a
 * config error (watchers fail "did not start" with its sentence) and leaves it on.
 */
export function internetAccess(env: Env): boolean {
  return loadConfig(env).config.runner.internet;
}

/**
 * The answer to a request that must not start a sleeping instance, or null to proxy it: a cancel (`DELETE
 * /runs/:id`, sent when a job is cancelled or a chat erased) finds no run in an instance that is not running,
 * so a cold start (billed) would only say so.
 */
export function answerWithoutStarting(request: Request, running: boolean): Response | null {
  if (running || request.method !== "DELETE" || !new URL(request.url).pathname.startsWith("/runs/")) return null;
  return refuse(404, "not_found", "The runner is not running, so no run of it is.");
}

function refuse(status: 403 | 404 | 405, code: string, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ error: { code, message } }, { status, headers });
}

const CALLBACK_PATH = /^\/runner\/callback\/([^/]+)$/;

/**
 * The outbound handler of `http://callback.cuckoo.internal`: `POST /runner/callback/:chatId` from the
 * container of chat `chatId` goes to `accept` (the Worker's callback: signature, outcome, the chat's Durable
 * Object); anything else is refused. `ctx.containerId` is the id of the container's Durable Object, which is
 * `idFromName(chatId)` of its own chat: a script in chat A's container cannot post for chat B, even with the
 * secret.
 */
export async function routeCallback(
  request: Request,
  env: Env,
  ctx: Pick<OutboundHandlerContext, "containerId">,
  accept: (env: Env, chatId: string, request: Request) => Promise<Response> = acceptCallback,
): Promise<Response> {
  const match = CALLBACK_PATH.exec(new URL(request.url).pathname);
  if (!match) return refuse(404, "not_found", `Only POST /runner/callback/:chatId is served on ${CONTAINER_CALLBACK_HOST}.`);
  if (request.method !== "POST") return refuse(405, "method_not_allowed", "The runner callback takes POST with the run's outcome.", { Allow: "POST" });
  const chatId = match[1]!;
  const namespace = env.RUNNER as DurableObjectNamespace<RunnerContainer> | undefined;
  if (namespace === undefined || namespace.idFromName(chatId).toString() !== ctx.containerId) {
    return refuse(403, "forbidden", `This container may only call back for its own chat, not for ${chatId.slice(0, 40)}.`);
  }
  return accept(env, chatId, request);
}

/**
 * One runner container per chat. Requests from `runnerFetcher` (src/runner-client/client.ts) are proxied to the
 * runner on `RUNNER_PORT`, starting the instance first when it sleeps (a cold start, counted in the lease
 * grace of the chat's Durable Object).
 */
export class RunnerContainer extends Container<Env> {
  override defaultPort = RUNNER_PORT;
  override sleepAfter = SLEEP_AFTER_SECONDS;

  /** The last request to the runner; a fresh object does not know, so it assumes one just now. */
  private lastRequestMs = Date.now();
  private lastActiveMs: number | null = null;
  private stopSentMs: number | null = null;

  constructor(ctx: DurableObjectState<Record<string, never>>, env: Env) {
    super(ctx, env);
    // Given to the container at each start: the secret comes from the Worker's secrets, never from the image.
    this.envVars = {
      RUNNER_SECRET: loadConfig(env).config.runner.secret ?? "",
      RUNNER_HOST: "0.0.0.0",
      RUNNER_PORT: String(RUNNER_PORT),
    };
    this.enableInternet = internetAccess(env);
  }

  override async fetch(request: Request): Promise<Response> {
    // Without the secret the runner cannot start: answer instead of starting (and billing) an instance.
    if (loadConfig(this.env).config.runner.secret === null) {
      return Response.json(
        { error: { code: "not_configured", message: "RUNNER_SECRET is not set; set it with wrangler secret put RUNNER_SECRET." } },
        { status: 503 },
      );
    }
    const answer = answerWithoutStarting(request, this.ctx.container?.running ?? false);
    if (answer) return answer;
    this.lastRequestMs = Date.now();
    return super.fetch(request);
  }

  /** Called by the Container's alarm when `sleepAfter` passed without a request: stay up while runs are active. */
  override async onActivityExpired(): Promise<void> {
    const askedMs = Date.now();
    const health = await this.health();
    const nowMs = Date.now();
    if (health.reached && health.active + health.callbacks > 0) this.lastActiveMs = nowMs;
    const decision = lifecycleDecision({
      health,
      nowMs,
      askedMs,
      lastRequestMs: this.lastRequestMs,
      lastActiveMs: this.lastActiveMs,
      stopSentMs: this.stopSentMs,
    });
    if (decision.action === "stay") return;
    console.log(`runner container ${decision.action === "kill" ? "killed" : "stopped"}: ${decision.reason}`);
    if (decision.action === "kill") {
      await this.stop("SIGKILL");
    } else {
      this.stopSentMs = nowMs;
      await this.stop();
    }
  }

  override onStop(): void {
    this.stopSentMs = null;
    this.lastActiveMs = null;
  }

  /** `GET /healthz` on the running container, without starting it or counting as activity. */
  private async health(): Promise<RunnerHealth> {
    const container = this.ctx.container;
    if (!container) return { reached: false, reason: "no container" };
    try {
      const response = await container.getTcpPort(RUNNER_PORT).fetch("http://runner/healthz", { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
      if (!response.ok) {
        await response.body?.cancel();
        return { reached: false, reason: `HTTP ${response.status}` };
      }
      const parsed = healthBody().safeParse(await response.json().catch(() => null));
      if (!parsed.success) return { reached: false, reason: "not a health answer" };
      return { reached: true, active: parsed.data.active, callbacks: parsed.data.callbacks };
    } catch (error) {
      return { reached: false, reason: (error instanceof Error ? error.message : String(error)).slice(0, 200) };
    }
  }
}

// Assigned, not declared as a static field: the setter registers the handler where ContainerProxy finds it
// (a static field would only shadow the accessor).
RunnerContainer.outboundByHost = {
  [CONTAINER_CALLBACK_HOST]: (request, env, ctx) => routeCallback(request, env as Env, ctx),
};
