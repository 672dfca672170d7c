/**
 * @module The schedule tools' calls (docs/api.md#tools-for-agents), one code path for the three ways an agent reaches them: the
 * HTTP tools (`POST /tools/:chatId/*`), the built-in model's function calls, and MCP, each through the
 * catalog (`tools/catalog.ts`), which checks the arguments and the turn's rights first. Each call asks the
 * chat's Durable Object and answers `{ ok, text, data? }`: `text` is what a model reads; an expected failure
 * is `ok: false` with the object's sentence, never an exception. A tool only ever reaches its own chat.
 */
import type { ChatScheduler } from "../chat/ChatScheduler";
import { JOB_ID, shown } from "../contracts/ids";
import { hookAddresses } from "../hooks/token";
import { cancelledText, createdText, jobLine, jobList, noJobText, pausedText, resumedText, runningNowText, skippedText } from "../jobs/texts";
import { testReplyText } from "../jobs/watcher";
import type { Result } from "../result";
import type { DryRun, DryRunInput } from "../runner-client/dry-run";
import { dryRunBody } from "../runner-client/dry-run";
import { zoneOrUtc } from "../schemas/chats";
import { type CreatedBy, type CreateJobInput, createJobInput, type EditJobInput, editJobInput, type Job } from "../schemas/jobs";
import { oneSchedule, type ScheduleFields } from "../schemas/schedule";
import { failed, type ToolReply, type TurnPolicy } from "../schemas/tools";
import { parseArgs } from "../sentence";
import { formatChatTime, formatNowLine, preview } from "../time";
import { describeInEnglish } from "../words";

/** How many next runs a `create` answer lists. */
const CREATED_NEXT_RUNS = 3;

/** What the tools act on: the chat's object, its dry runs, the clock, who creates, and whose turn it is. */
export type ToolContext = {
  chatId: string;
  /** Where a hook's URL is (PUBLIC_URL, else the origin the call came to) and its mail domain (docs/hooks.md). */
  hooks?: { base: string; emailDomain: string | null };
  chat: DurableObjectStub<ChatScheduler>;
  dryRun: (zone: string, input: DryRunInput) => Promise<DryRun>;
  now: () => number;
  createdBy: CreatedBy;
  policy: TurnPolicy;
};

/** The fields of `args` that were given: null counts as not given (strict function-calling models send null). */
function givenFields(args: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, value]) => value !== null && value !== undefined));
}

/** `schedule_create`: the job, its line and next runs, and the `Now:` line. */
export async function createJob(ctx: ToolContext, args: Partial<Record<keyof CreateJobInput, unknown>>): Promise<ToolReply> {
  const input = createJobInput().safeParse(givenFields(args));
  // The fields were checked one by one when the arguments were parsed; this only catches the required ones.
  if (!input.success) return failed(requiredForCreate(input.error.issues[0]?.path[0]));
  // A follow-up of a turn that came over HTTP or MCP is counted again by the chat's object, in its creation.
  const followUpOf = ctx.policy.kind === "job" ? ctx.policy.token : undefined;
  // A job made in a forum topic posts there (a job's follow-up, in the job's).
  const threadId = ctx.policy.threadId ?? null;
  const options = followUpOf === undefined ? { threadId } : { followUpOf, threadId };
  const created = await ctx.chat.createJobWithHook(ctx.chatId, input.data, ctx.createdBy, options);
  if (!created.ok) return failed(created.error.message);
  const { job, token } = created.value;
  const zone = await zoneOf(ctx);
  const now = ctx.now();
  const text = createdText(job, await nextRuns(job, zone, now), zone, now);
  if (token === null) return { ok: true, text, data: { job } };
  const hook = hookAddresses(token, ctx.hooks?.base ?? "", ctx.hooks?.emailDomain ?? null);
  return { ok: true, text: `${text}\n${hookLine(job.id, hook)}`, data: { job, hook } };
}

/** The line that shows a hook, once (the model's copy has `[shown once]` in place of the token). */
function hookLine(id: string, hook: { url: string; email: string | null }): string {
  return `Job ${id}'s hook (shown once): ${hook.url}${hook.email === null ? "" : ` and ${hook.email}`}`;
}

/** `schedule_hook`: whether job `id` has a hook, or a new one made (shown once), or it revoked (docs/hooks.md). */
export async function hookTool(ctx: ToolContext, raw: string | null | undefined, act: "new" | "off" | null | undefined): Promise<ToolReply> {
  const id = toolJobId(raw, "hook");
  if (!id.ok) return id.reply;
  if (act === "new") {
    const made = await ctx.chat.makeHook(ctx.chatId, id.id);
    if (!made.ok) return failed(made.error.message);
    const hook = hookAddresses(made.value.token, ctx.hooks?.base ?? "", ctx.hooks?.emailDomain ?? null);
    return { ok: true, text: hookLine(id.id, hook), data: { hook } };
  }
  if (act === "off") {
    const revoked = await ctx.chat.revokeHook(ctx.chatId, id.id);
    if (!revoked.ok) return failed(revoked.error.message);
    return { ok: true, text: revoked.value.had ? `Job ${id.id}'s hook is revoked.` : `Job ${id.id} has no hook.` };
  }
  const found = await ctx.chat.getJob(ctx.chatId, id.id);
  if (!found.ok) return failed(found.error.message);
  return { ok: true, text: found.value.hook ? `Job ${id.id} has a hook.` : `Job ${id.id} has no hook.`, data: { job: found.value } };
}

/** A job id as the tools take it: read case-insensitively; null (with the sentence) when none or not one. */
function toolJobId(raw: string | null | undefined, action: string): { ok: true; id: string } | { ok: false; reply: ToolReply } {
  const id = typeof raw === "string" ? raw.trim().toLowerCase() : "";
  if (id === "") return { ok: false, reply: failed(`"id" is required for ${action}; see "list".`) };
  if (!JOB_ID.test(id)) return { ok: false, reply: failed(noJobText(shown(id))) };
  return { ok: true, id };
}

/** `schedule_update`: the job changed in place (docs/api.md#patch-adminchatschatidjobsid), its line, its next runs and the `Now:` line. */
export async function updateJob(ctx: ToolContext, args: Partial<Record<keyof EditJobInput | "id", unknown>>): Promise<ToolReply> {
  const { id: raw, ...fields } = args;
  const id = toolJobId(typeof raw === "string" ? raw : null, "update");
  if (!id.ok) return id.reply;
  const given = givenFields(fields);
  if (Object.keys(given).length === 0)
    return failed(`update needs a field to change besides "id", such as "cron": "30 9 * * 1-5" or "text": "Summarise my inbox".`);
  // The fields were checked one by one when the arguments were parsed.
  const input = parseArgs(editJobInput(), given);
  if (!input.ok) return failed(input.error.message);
  const edited = await ctx.chat.editJob(ctx.chatId, id.id, input.value);
  if (!edited.ok) return failed(edited.error.message);
  const job: Job = edited.value;
  const zone = await zoneOf(ctx);
  const now = ctx.now();
  return { ok: true, text: createdText(job, await nextRuns(job, zone, now), zone, now, "Changed"), data: { job } };
}

/** `schedule_skip`: a recurring job's next run passed over (docs/api.md#post-adminchatschatidjobsidrun-pause-resume-skip), the job line and the `Now:` line. */
export async function skipJob(ctx: ToolContext, raw: string | null | undefined): Promise<ToolReply> {
  const id = toolJobId(raw, "skip");
  if (!id.ok) return id.reply;
  const skipped = await ctx.chat.skipJob(ctx.chatId, id.id);
  if (!skipped.ok) return failed(skipped.error.message);
  const { job } = skipped.value;
  const zone = await zoneOf(ctx);
  const now = ctx.now();
  const text = [skippedText(Date.parse(skipped.value.skipped), job, zone, now), jobLine(job, zone, now), formatNowLine(now, zone)].join("\n");
  return { ok: true, text, data: { job } };
}

/** `schedule_list`: the chat's jobs and the `Now:` line. */
export async function listJobs(ctx: ToolContext): Promise<ToolReply> {
  const listed = await ctx.chat.listJobs(ctx.chatId, {});
  if (!listed.ok) return failed(listed.error.message);
  const { timeZone, jobs } = listed.value;
  const now = Date.parse(listed.value.now);
  return { ok: true, text: `${jobList(jobs, timeZone, now)}\n${formatNowLine(now, timeZone)}`, data: { jobs } };
}

/** `schedule_cancel`, `schedule_run_now`, `schedule_pause`, `schedule_resume`: one job, by an id read case-insensitively. */
export async function jobAction(ctx: ToolContext, action: "cancel" | "run_now" | "pause" | "resume", raw: string | null | undefined): Promise<ToolReply> {
  const { chat, chatId } = ctx;
  const given = toolJobId(raw, action);
  if (!given.ok) return given.reply;
  const { id } = given;
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

/** `schedule_test`: the script run once through the runner (`?wait=1`, at most 60 s), nothing scheduled. */
export async function testScript(ctx: ToolContext, args: { command?: string | null; timeoutSeconds?: number | null }): Promise<ToolReply> {
  const input = parseArgs(dryRunBody(), givenFields(args));
  if (!input.ok) return failed(input.error.message);
  const result = await ctx.dryRun(await zoneOf(ctx), input.value);
  if (!result.ok) return failed(result.message);
  return { ok: true, text: testReplyText(result.outcome), data: { outcome: result.outcome } };
}

/** `set_timezone`: an IANA zone (Windows ids accepted), or "reset" / null for the default. */
export async function setTimezone(ctx: ToolContext, zone: string | null): Promise<ToolReply> {
  const reset = zone === null || zone.trim().toLowerCase() === "reset";
  const result = await ctx.chat.setTimeZone(ctx.chatId, reset ? null : zone);
  return result.ok ? { ok: true, text: result.value.message } : failed(result.error.message);
}

function requiredForCreate(field: PropertyKey | undefined): string {
  if (field === "kind") return `"kind" is required for create: "prompt" (the agent does "text") or "watcher" (a script in "command").`;
  return `"name" is required for create, such as "Inbox summary".`;
}

/** The chat's zone (UTC should its object refuse, which a chat the edge accepted never does). */
export async function zoneOf(ctx: ToolContext): Promise<string> {
  return zoneOrUtc(await ctx.chat.getSettings(ctx.chatId));
}

/**
 * A new job's next runs, from the same engine as preview: a few for a recurring job (stopping where it ends), the
 * one instant of a one-off.
 */
async function nextRuns(job: Job, zone: string, now: number): Promise<number[]> {
  if ("at" in job.schedule) return [Date.parse(job.schedule.at)];
  if ("trigger" in job.schedule) return [];
  const result = await preview(job.schedule, zone, now, CREATED_NEXT_RUNS, { until: job.until ?? null, runsLeft: job.runsLeft ?? null });
  return result.ok ? result.value.occurrences.map((t) => Date.parse(t)) : [];
}

/**
 * `schedule_preview`: the description, the next runs in the chat's time format (stopping where `until` or
 * `runsLeft` would end the job), a line per DST note, the `Now:` line.
 */
export async function previewSchedule(ctx: ToolContext, given: ScheduleFields & { until?: string | null; runsLeft?: number | null }): Promise<ToolReply> {
  const when = oneSchedule(given);
  if (!when.ok) return failed(when.error);
  const zone = await zoneOf(ctx);
  const now = ctx.now();
  const result = await preview(when.value, zone, now, undefined, { until: given.until ?? null, runsLeft: given.runsLeft ?? null });
  if (!result.ok) return failed(result.error);
  const { occurrences, notes, read } = result.value;
  const times = occurrences.map((t) => formatChatTime(Date.parse(t), zone, now));
  const lines = [
    `${describeInEnglish(read.schedule, read.ends, { zone, now }).text} (${zone})`,
    `${times.length === 1 ? "Runs" : "Next runs"}: ${times.join(", ")}.`,
    ...notes.map((note) => `Note: ${note}.`),
    formatNowLine(now, zone),
  ];
  return { ok: true, text: lines.join("\n"), data: { occurrences } };
}
