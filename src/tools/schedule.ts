/**
 * @module The agent tools' actions (DESIGN §9), one code path for the three ways an agent reaches them: the
 * HTTP tools (`POST /tools/:chatId/*`), the built-in model's function calls, and MCP. Each action asks the
 * chat's Durable Object and answers `{ ok, text, data? }`: `text` is what a model reads; an expected failure
 * is `ok: false` with the object's sentence, never an exception. A tool only ever reaches its own chat.
 */
import type { ChatScheduler } from "../chat/ChatScheduler";
import { shown, JOB_ID } from "../contracts/ids";
import type { CreatedBy, Job } from "../schemas/jobs";
import { createJobInput } from "../schemas/jobs";
import { oneSchedule } from "../schemas/schedule";
import { ACTION_FIELDS, type ScheduleBody, type ScheduleField, type ToolReply } from "../schemas/tools";
import { cancelledText, createdText, jobList, listed, noJobText, pausedText, resumedText, runningNowText } from "../jobs/texts";
import { testReplyText } from "../jobs/watcher";
import type { Result } from "../result";
import type { DryRun, DryRunInput } from "../runner-client/dry-run";
import { dryRunBody } from "../runner-client/dry-run";
import { firstSentence, sentenceFor } from "../sentence";
import { formatChatTime, formatNowLine, preview } from "../time";

/** How many next runs a `create` answer lists. */
const CREATED_NEXT_RUNS = 3;

/**
 * What a turn may do with the schedule (DESIGN §9, issue 13). A user's turn has every tool. A turn a job or a
 * watcher started may list, preview and create one one-off prompt (a follow-up), marked `createdBy: "job"`;
 * a turn started by such a follow-up creates none. Watcher output is untrusted text, so this is also the
 * guard against instructions injected through it.
 */
export type TurnPolicy = { kind: "user" } | { kind: "job"; followUps: number };

/** What the tools act on: the chat's object, its dry runs, the clock, who creates, and what the turn may do. */
export type ToolContext = {
  chatId: string;
  chat: DurableObjectStub<ChatScheduler>;
  dryRun: (zone: string, input: DryRunInput) => Promise<DryRun>;
  now: () => number;
  createdBy: CreatedBy;
  policy: TurnPolicy;
};

const failed = (text: string): ToolReply => ({ ok: false, text });

export const JOB_TURN_REFUSAL =
  "A scheduled run cannot change the schedule: in a turn a job or watcher started, only list, preview and one follow-up one-off prompt (at or delay) are allowed.";

/** Why a job-caused turn may not run this action, or null when it may. */
function refusedByPolicy(policy: TurnPolicy, action: ScheduleBody["action"], given: Record<string, unknown>): string | null {
  if (policy.kind === "user" || action === "list" || action === "preview") return null;
  if (action !== "create") return JOB_TURN_REFUSAL;
  if (given.kind !== "prompt" && given.kind !== "reminder") return JOB_TURN_REFUSAL;
  if (given.cron !== undefined) return JOB_TURN_REFUSAL;
  if (policy.followUps <= 0) return "This turn may not create another job: a scheduled run creates at most one follow-up, and a follow-up's own run creates none.";
  return null;
}

/** Runs one `schedule` action. */
export async function runSchedule(ctx: ToolContext, raw: ScheduleBody): Promise<ToolReply> {
  const { action } = raw;
  const given = Object.fromEntries(Object.entries(raw).filter(([key, value]) => key !== "action" && value !== null && value !== undefined));
  const allowed = ACTION_FIELDS[action];
  const extra = Object.keys(given).find((key) => !allowed.includes(key as ScheduleField));
  if (extra !== undefined) return failed(`"${extra}" does not apply to "${action}", ${takes(allowed)}.`);
  const refused = refusedByPolicy(ctx.policy, action, given);
  if (refused !== null) return failed(refused);
  const { chat, chatId } = ctx;

  switch (action) {
    case "create": {
      const input = createJobInput().safeParse(given);
      // The fields were checked one by one when the body was parsed; this only catches the required ones.
      if (!input.success) return failed(requiredForCreate(input.error.issues[0]?.path[0]));
      const created = await chat.createJob(chatId, input.data, ctx.createdBy);
      if (!created.ok) return failed(created.error.message);
      if (ctx.policy.kind === "job") ctx.policy.followUps--;
      const job: Job = created.value;
      const zone = await zoneOf(ctx);
      const now = ctx.now();
      return { ok: true, text: createdText(job, await nextRuns(job, zone, now), zone, now), data: { job } };
    }
    case "list": {
      const listed = await chat.listJobs(chatId, {});
      if (!listed.ok) return failed(listed.error.message);
      const { timeZone, jobs } = listed.value;
      const now = Date.parse(listed.value.now);
      return { ok: true, text: `${jobList(jobs, timeZone, now)}\n${formatNowLine(now, timeZone)}`, data: { jobs } };
    }
    case "cancel":
    case "run_now":
    case "pause":
    case "resume": {
      const id = typeof given.id === "string" ? given.id.trim().toLowerCase() : "";
      if (id === "") return failed(`"id" is required for ${action}; see "list".`);
      if (!JOB_ID.test(id)) return failed(noJobText(shown(id)));
      const result: Result<Job> = await (action === "cancel"
        ? chat.cancelJob(chatId, id)
        : action === "run_now"
          ? chat.runJobNow(chatId, id)
          : action === "pause"
            ? chat.pauseJob(chatId, id)
            : chat.resumeJob(chatId, id));
      if (!result.ok) return failed(result.error.message);
      const job = result.value;
      let text: string;
      if (action === "cancel") text = cancelledText(job);
      else if (action === "run_now") text = runningNowText(job);
      else if (action === "pause") text = pausedText(job);
      else text = resumedText(job, await zoneOf(ctx), ctx.now());
      return { ok: true, text, data: { job } };
    }
    case "preview":
      return previewReply(await zoneOf(ctx), raw, ctx.now());
    case "test": {
      const input = dryRunBody().safeParse(given, { error: sentenceFor });
      if (!input.success) return failed(firstSentence(input.error));
      const result = await ctx.dryRun(await zoneOf(ctx), input.data);
      if (!result.ok) return failed(result.message);
      return { ok: true, text: testReplyText(result.outcome), data: { outcome: result.outcome } };
    }
  }
}

/** `set_timezone`: an IANA zone (Windows ids accepted), or "reset" / null for the default. */
export async function setTimezone(ctx: ToolContext, zone: string | null): Promise<ToolReply> {
  if (ctx.policy.kind === "job") return failed(JOB_TURN_REFUSAL);
  const reset = zone === null || zone.trim().toLowerCase() === "reset";
  const result = await ctx.chat.setTimeZone(ctx.chatId, reset ? null : zone);
  return result.ok ? { ok: true, text: result.value.message } : failed(result.error.message);
}

function takes(fields: readonly ScheduleField[]): string {
  if (fields.length === 0) return "which takes no other fields";
  const quoted = fields.map((f) => `"${f}"`);
  return `which takes only ${listed(quoted)}`;
}

function requiredForCreate(field: PropertyKey | undefined): string {
  if (field === "kind") return `"kind" is required for create: "prompt" (the agent does "text") or "watcher" (a script in "command").`;
  return `"name" is required for create, such as "Inbox summary".`;
}

/** The chat's zone; its settings cannot fail for a chat id the edge accepted, but a failure falls back to UTC. */
export async function zoneOf(ctx: ToolContext): Promise<string> {
  const settings = await ctx.chat.getSettings(ctx.chatId);
  return settings.ok ? settings.value.timeZone : "UTC";
}

/** A new job's next runs, from the same engine as preview: a few for a cron job, the one instant of a one-off. */
async function nextRuns(job: Job, zone: string, now: number): Promise<number[]> {
  if ("at" in job.schedule) return [Date.parse(job.schedule.at)];
  const result = await preview({ cron: job.schedule.cron }, zone, now, CREATED_NEXT_RUNS);
  return result.ok ? result.value.occurrences.map((t) => Date.parse(t)) : [];
}

/** `preview`: the description, the next runs in the chat's time format, a line per DST note, the `Now:` line. */
async function previewReply(zone: string, given: ScheduleBody, now: number): Promise<ToolReply> {
  const when = oneSchedule(given);
  if (!when.ok) return failed(when.error);
  const result = await preview(when.value, zone, now);
  if (!result.ok) return failed(result.error);
  const { occurrences, notes, description } = result.value;
  const times = occurrences.map((t) => formatChatTime(Date.parse(t), zone, now));
  const lines = [description, `${times.length === 1 ? "Runs" : "Next runs"}: ${times.join(", ")}.`, ...notes.map((note) => `Note: ${note}.`), formatNowLine(now, zone)];
  return { ok: true, text: lines.join("\n"), data: { occurrences } };
}
