/**
 * @module The tool endpoints for agents (`/tools/:chatId/*`, docs/api.md#tools-for-agents): `schedule` and `set_timezone`,
 * behind TOOLS_TOKEN, called through the tool catalog (a call carrying a job's turn in `X-Cuckoo-Turn` has
 * only what each tool allows it), and the tools' context MCP shares. A model reads the answer, so every
 * input problem is `200 { ok: false, text }` with one sentence; only access (401, 403, 500, 503), a body over
 * 64 KiB (413) and a path that is not a chat id (400, docs/api.md#access) are HTTP errors.
 */
import { type Context, Hono } from "hono";
import type * as z from "zod";
import { fail, ok, type Parsed } from "../result";
import { type DryRunInput, dryRun } from "../runner-client/dry-run";
import { failed, SCHEDULE_GUIDELINES, scheduleBody, setTimezoneBody, type ToolReply } from "../schemas/tools";
import { callSchedule, callTool } from "../tools/catalog";
import type { ToolContext } from "../tools/schedule";
import { agentApi } from "./agent-api";
import { requireToken } from "./auth";
import { limitBody, readJson } from "./body";
import { chatIdOf, chatStub } from "./chat-rpc";
import { type AppEnv, requireConfigured } from "./context";
import { ApiError } from "./errors";
import type { Operation } from "./openapi-components";

export const tools = new Hono<AppEnv>();

tools.use("*", requireToken("TOOLS_TOKEN"));
tools.use("*", requireConfigured("tools"));
tools.use("*", limitBody());

tools.post("/:chatId/schedule", async (c) => {
  const chatId = chatIdOf(c);
  const body = await toolBody(c, scheduleBody());
  if (!body.ok) return c.json(body.reply, 200);
  const ctx = await toolContext(c, chatId);
  return c.json(ctx.ok ? await callSchedule(ctx.value, body.value) : failed(ctx.error), 200);
});

tools.post("/:chatId/set_timezone", async (c) => {
  const chatId = chatIdOf(c);
  const body = await toolBody(c, setTimezoneBody());
  if (!body.ok) return c.json(body.reply, 200);
  const ctx = await toolContext(c, chatId);
  return c.json(ctx.ok ? await callTool(ctx.value, "set_timezone", body.value) : failed(ctx.error), 200);
});

/** The body parsed and validated, or the `ok: false` reply for it (a body over 64 KiB never gets here: 413). */
async function toolBody<T>(c: Context<AppEnv>, schema: z.ZodType<T>): Promise<{ ok: true; value: T } | { ok: false; reply: ToolReply }> {
  try {
    return { ok: true, value: await readJson(c, schema) };
  } catch (error) {
    if (error instanceof ApiError && error.code === "bad_request") return { ok: false, reply: failed(error.message) };
    throw error;
  }
}

/** The header an agent of its own sends with a tool call it makes while it handles a prompt (docs/api.md#tools-for-agents). */
const TURN_HEADER = "X-Cuckoo-Turn";

/**
 * The tools' context for a request (HTTP and MCP): this chat, its object, the runner's dry runs, and whose
 * turn the call is part of. Without `X-Cuckoo-Turn`, a user's (jobs made here are the agent's); with it, the
 * turn of the run gate's holder, as the chat's object answers for the token: a job's or watcher's turn has
 * only what each tool allows it (jobs it makes are `createdBy: "job"`). A token that is not the holder's is
 * the object's one sentence.
 */
export async function toolContext(c: Context<AppEnv>, chatId: string): Promise<Parsed<ToolContext>> {
  const env = c.env;
  const chat = chatStub(env, chatId);
  const hooks = { base: c.var.config.runner.publicUrl ?? new URL(c.req.url).origin, emailDomain: c.var.config.emailDomain };
  const base = { chatId, chat, dryRun: (zone: string, input: DryRunInput) => dryRun(env, chatId, zone, input), now: Date.now, hooks };
  const token = c.req.header(TURN_HEADER);
  if (token === undefined) return ok({ ...base, createdBy: "agent", policy: { kind: "user" } });
  const turn = await chat.turnRights(chatId, token);
  if (!turn.ok) return fail(turn.error.message);
  return ok({ ...base, createdBy: turn.value.kind === "job" ? "job" : "agent", policy: turn.value });
}

// The run gate and deliver for an agent of your own (docs/agent.md), under the same token.
tools.route("/", agentApi);

/**
 * What the OpenAPI document says of these routes (the run gate's and deliver's are `agent-api.ts`'s): `openapi.ts`
 * builds it, a test checks it against the app.
 */
export const toolOperations = (): Operation[] => [
  {
    method: "post",
    path: "/tools/{chatId}/schedule",
    summary: "The scheduling tool for agents (bearer TOOLS_TOKEN). Every input problem is 200 with ok false and a sentence.",
    description: SCHEDULE_GUIDELINES,
    access: "tools",
    body: "ScheduleRequest",
    answersInput: true,
    answers: [[200, "What the model reads (`text`) and, on success, `data`.", "ToolReply"]],
  },
  {
    method: "post",
    path: "/tools/{chatId}/set_timezone",
    summary: "Set the chat's zone for agents (bearer TOOLS_TOKEN); the text is the reply of docs/time.md.",
    access: "tools",
    body: "SetTimezoneRequest",
    answersInput: true,
    answers: [[200, "`{ ok, text }`; ok false with a sentence for an unknown zone or a wrong body.", "ToolReply"]],
  },
];
