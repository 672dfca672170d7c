/**
 * @module The tool endpoints for agents (`/tools/:chatId/*`, DESIGN §9): `schedule` and `set_timezone`,
 * behind TOOLS_TOKEN. A model reads the answer, so every input problem is `200 { ok: false, text }` with one
 * sentence; only access (401, 403, 500, 503), a body over 64 KiB (413) and a path that is not a chat id
 * (400, DESIGN §2) are HTTP errors.
 */
import { Hono, type Context } from "hono";
import type * as z from "zod";
import { dryRun } from "../runner-client/dry-run";
import { SCHEDULE_GUIDELINES, scheduleBody, setTimezoneBody, type ToolReply } from "../schemas/tools";
import { runSchedule, setTimezone, type ToolContext } from "../tools/schedule";
import { agentApi } from "./agent-api";
import { requireToken } from "./auth";
import { limitBody, readJson } from "./body";
import { chatIdOf, chatStub } from "./chat-rpc";
import { requireConfigured, type AppEnv } from "./context";
import { ApiError } from "./errors";
import type { Operation } from "./openapi-components";

export const tools = new Hono<AppEnv>();

tools.use("*", requireToken("TOOLS_TOKEN"));
tools.use("*", requireConfigured("tools"));
tools.use("*", limitBody());

tools.post("/:chatId/schedule", async (c) => {
  const chatId = chatIdOf(c);
  const body = await toolBody(c, scheduleBody());
  return c.json(body.ok ? await runSchedule(toolContext(c.env, chatId), body.value) : body.reply, 200);
});

tools.post("/:chatId/set_timezone", async (c) => {
  const chatId = chatIdOf(c);
  const body = await toolBody(c, setTimezoneBody());
  if (!body.ok) return c.json(body.reply, 200);
  return c.json(await setTimezone(toolContext(c.env, chatId), body.value.zone), 200);
});

const failed = (text: string): ToolReply => ({ ok: false, text });

/** The body parsed and validated, or the `ok: false` reply for it (a body over 64 KiB never gets here: 413). */
async function toolBody<T>(c: Context<AppEnv>, schema: z.ZodType<T>): Promise<{ ok: true; value: T } | { ok: false; reply: ToolReply }> {
  try {
    return { ok: true, value: await readJson(c, schema) };
  } catch (error) {
    if (error instanceof ApiError && error.code === "bad_request") return { ok: false, reply: failed(error.message) };
    throw error;
  }
}

/**
 * The tools' context for a request (HTTP and MCP): this chat, its object, the runner's dry runs; jobs made
 * here are the agent's.
 */
export function toolContext(env: Env, chatId: string): ToolContext {
  return { chatId, chat: chatStub(env, chatId), dryRun: (zone, input) => dryRun(env, chatId, zone, input), now: Date.now, createdBy: "agent", policy: { kind: "user" } };
}

// The run gate and deliver for an agent of your own (DESIGN §7), under the same token.
tools.route("/", agentApi);

/** What the OpenAPI document says of these routes (the run gate's and deliver's are `agent-api.ts`'s): `openapi.ts` builds it, a test checks it against the app. */
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
    summary: "Set the chat's zone for agents (bearer TOOLS_TOKEN); the text is the reply of DESIGN §4.",
    access: "tools",
    body: "SetTimezoneRequest",
    answersInput: true,
    answers: [[200, "`{ ok, text }`; ok false with a sentence for an unknown zone or a wrong body.", "ToolReply"]],
  },
];
