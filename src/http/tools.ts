/**
 * @module The tool endpoints for agents (`/tools/:chatId/*`, DESIGN §9): `schedule` and `set_timezone`,
 * behind TOOLS_TOKEN. A model reads the answer, so every input problem is `200 { ok: false, text }` with one
 * sentence; only access (401, 403, 500, 503), a body over 64 KiB (413) and a path that is not a chat id
 * (400, DESIGN §2) are HTTP errors.
 */
import { Hono, type Context } from "hono";
import * as z from "zod";
import type { Result } from "../result";
import { createJobInput, type Job } from "../schemas/jobs";
import { oneSchedule } from "../schemas/schedule";
import { ACTION_FIELDS, scheduleBody, setTimezoneBody, type ScheduleBody, type ScheduleField, type ToolReply } from "../schemas/tools";
import { cancelledText, createdText, jobList, noJobText, pausedText, resumedText, runningNowText } from "../jobs/texts";
import { formatChatTime, formatNowLine, preview } from "../time";
import { agentApi } from "./agent-api";
import { requireToken } from "./auth";
import { limitBody, readJson } from "./body";
import { chatIdOf, chatStub, isJobId } from "./chat-rpc";
import { requireConfigured, type AppEnv } from "./context";
import { ApiError } from "./errors";
import { dryRun, dryRunBody } from "../runner-client/dry-run";
import { testReplyText } from "../jobs/watcher";
import { firstSentence, sentenceFor } from "../sentence";
import { shown } from "../contracts/ids";

/** How many next runs a `create` answer lists. */
const CREATED_NEXT_RUNS = 3;

export const tools = new Hono<AppEnv>();

tools.use("*", requireToken("TOOLS_TOKEN"));
tools.use("*", requireConfigured("tools"));
tools.use("*", limitBody());

tools.post("/:chatId/schedule", async (c) => {
  const chatId = chatIdOf(c);
  const body = await toolBody(c, scheduleBody());
  return c.json(body.ok ? await schedule(c.env, chatId, body.value) : body.reply, 200);
});

tools.post("/:chatId/set_timezone", async (c) => {
  const chatId = chatIdOf(c);
  const body = await toolBody(c, setTimezoneBody());
  if (!body.ok) return c.json(body.reply, 200);
  const zone = body.value.zone === null || body.value.zone.trim().toLowerCase() === "reset" ? null : body.value.zone;
  const result = await chatStub(c.env, chatId).setTimeZone(chatId, zone);
  const reply: ToolReply = result.ok ? { ok: true, text: result.value.message } : failed(result.error.message);
  return c.json(reply, 200);
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

/** Runs one `schedule` action. Expected failures of the Durable Object become `ok: false` with its sentence. */
async function schedule(env: Env, chatId: string, raw: ScheduleBody): Promise<ToolReply> {
  const { action } = raw;
  const given = Object.fromEntries(Object.entries(raw).filter(([key, value]) => key !== "action" && value !== null && value !== undefined));
  const allowed = ACTION_FIELDS[action];
  const extra = Object.keys(given).find((key) => !allowed.includes(key as ScheduleField));
  if (extra !== undefined) return failed(`"${extra}" does not apply to "${action}", ${takes(allowed)}.`);
  const stub = chatStub(env, chatId);

  switch (action) {
    case "create": {
      const input = createJobInput().safeParse(given);
      // The fields were checked one by one above; this only catches the required ones.
      if (!input.success) return failed(requiredForCreate(input.error.issues[0]?.path[0]));
      const created = await stub.createJob(chatId, input.data, "agent");
      if (!created.ok) return failed(created.error.message);
      const job: Job = created.value;
      const zone = await zoneOf(stub, chatId);
      const now = Date.now();
      const text = createdText(job, await nextRuns(job, zone, now), zone, now);
      return { ok: true, text, data: { job } };
    }
    case "list": {
      const listed = await stub.listJobs(chatId, {});
      if (!listed.ok) return failed(listed.error.message);
      const { timeZone, jobs } = listed.value;
      const now = Date.parse(listed.value.now);
      return { ok: true, text: `${jobList(jobs, timeZone, now)}\n${formatNowLine(now, timeZone)}`, data: { jobs } };
    }
    case "cancel":
    case "run_now":
    case "pause":
    case "resume": {
      const id = typeof given.id === "string" ? given.id : "";
      if (id === "") return failed(`"id" is required for ${action}; see "list".`);
      if (!isJobId(id)) return failed(noJobText(shown(id)));
      const result: Result<Job> = await (action === "cancel"
        ? stub.cancelJob(chatId, id)
        : action === "run_now"
          ? stub.runJobNow(chatId, id)
          : action === "pause"
            ? stub.pauseJob(chatId, id)
            : stub.resumeJob(chatId, id));
      if (!result.ok) return failed(result.error.message);
      const job = result.value;
      let text: string;
      if (action === "cancel") text = cancelledText(job);
      else if (action === "run_now") text = runningNowText(job);
      else if (action === "pause") text = pausedText(job);
      else text = resumedText(job, await zoneOf(stub, chatId), Date.now());
      return { ok: true, text, data: { job } };
    }
    case "preview":
      return previewReply(await zoneOf(stub, chatId), raw);
    case "test": {
      const input = dryRunBody().safeParse(given, { error: sentenceFor });
      if (!input.success) return failed(firstSentence(input.error));
      const result = await dryRun(env, chatId, await zoneOf(stub, chatId), input.data);
      if (!result.ok) return failed(result.message);
      return { ok: true, text: testReplyText(result.outcome), data: { outcome: result.outcome } };
    }
  }
}

function takes(fields: readonly ScheduleField[]): string {
  if (fields.length === 0) return "which takes no other fields";
  const quoted = fields.map((f) => `"${f}"`);
  return `which takes only ${quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(", ")} and ${quoted[quoted.length - 1]}`}`;
}

function requiredForCreate(field: PropertyKey | undefined): string {
  if (field === "kind") return `"kind" is required for create: "prompt" (the agent does "text") or "watcher" (a script in "command").`;
  return `"name" is required for create, such as "Inbox summary".`;
}

type Stub = ReturnType<typeof chatStub>;

/** The chat's zone; its settings cannot fail for a chat id the edge accepted, but a failure falls back to UTC. */
async function zoneOf(stub: Stub, chatId: string): Promise<string> {
  const settings = await stub.getSettings(chatId);
  return settings.ok ? settings.value.timeZone : "UTC";
}

/** A new job's next runs, from the same engine as preview: a few for a cron job, the one instant of a one-off. */
async function nextRuns(job: Job, zone: string, now: number): Promise<number[]> {
  if ("at" in job.schedule) return [Date.parse(job.schedule.at)];
  const result = await preview({ cron: job.schedule.cron }, zone, now, CREATED_NEXT_RUNS);
  return result.ok ? result.value.occurrences.map((t) => Date.parse(t)) : [];
}

/** `preview`: the description, the next runs in the chat's time format, a line per DST note, the `Now:` line. */
async function previewReply(zone: string, given: ScheduleBody): Promise<ToolReply> {
  const when = oneSchedule(given);
  if (!when.ok) return failed(when.error);
  const now = Date.now();
  const result = await preview(when.value, zone, now);
  if (!result.ok) return failed(result.error);
  const { occurrences, notes, description } = result.value;
  const times = occurrences.map((t) => formatChatTime(Date.parse(t), zone, now));
  const lines = [
    description,
    `${times.length === 1 ? "Runs" : "Next runs"}: ${times.join(", ")}.`,
    ...notes.map((note) => `Note: ${note}.`),
    formatNowLine(now, zone),
  ];
  return { ok: true, text: lines.join("\n"), data: { occurrences } };
}

// The run gate and deliver for an agent of your own (DESIGN §7), under the same token.
tools.route("/", agentApi);
