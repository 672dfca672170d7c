/**
 * @module The agent tools by name (docs/api.md#tools-for-agents): the twelve schedule tools, `schedule_create`, `schedule_update`,
 * `schedule_list`, `schedule_cancel`, `schedule_run_now`, `schedule_pause`, `schedule_resume`, `schedule_skip`, `schedule_hook`,
 * `schedule_preview`, `schedule_test` and `set_timezone`, and the five memory tools, `memory_list`, `memory_get`,
 * `memory_create`, `memory_update` and `memory_delete`. Each is defined once: its description (carrying the
 * tool's guidelines), its input schema (from the one zod source, `schemas/`), its call, typed from that schema, and
 * what a turn a job or a watcher caused may do with it, and whether a group member's turn may call it without
 * the right to change the group's jobs. Those declarations are enforced here, in `invoke`, for every caller: the
 * built-in model, `POST /tools/:chatId/*` and MCP. The model's function definitions and the MCP tools both come
 * from here. Built on first use.
 */
import * as z from "zod";
import { listed } from "../jobs/texts";
import { lazy } from "../lazy";
import { memoryCreateInput, memoryIdBody, memoryUpdateBody } from "../schemas/memory";
import { PREVIEW_FIELDS } from "../schemas/schedule";
import {
  ADMINS_ONLY,
  failed,
  JOB_TURN_REFUSAL,
  NO_MORE_FOLLOW_UPS,
  SCHEDULE_ACTIONS,
  SCHEDULE_GUIDELINES,
  type ScheduleAction,
  type ScheduleBody,
  type ScheduleField,
  scheduleBody,
  setTimezoneBody,
  type ToolReply,
} from "../schemas/tools";
import { parseArgs } from "../sentence";
import { memoryCreate, memoryDelete, memoryGet, memoryList, memoryUpdate } from "./memory";
import { createJob, hookTool, jobAction, listJobs, previewSchedule, setTimezone, skipJob, type ToolContext, testScript, updateJob } from "./schedule";

/**
 * What a turn a job or a watcher caused may do with a tool (docs/agent.md, docs/api.md): its prompt may carry untrusted
 * text (a web page a watcher printed), so a tool is closed to it unless its definition says otherwise.
 * `allowed`: reading, previewing and the chat's memory; `refused`: anything that changes the schedule, the
 * zone, or runs a script; `followUp`: allowed once a turn (none in a follow-up's own run) for the arguments
 * it accepts.
 */
export type JobTurnRule<Args> = "allowed" | "refused" | { followUp: (args: Args) => boolean };

/**
 * What a group member's turn may do with a tool (docs/telegram.md): `allowed` for a tool that changes nothing (reading,
 * previewing), so that any member may have it called; a tool without it changes something, and the chat is asked
 * first whether the member may (the group's admins and the users in ALLOWED_USER_IDS may; the answer is the
 * chat's, remembered at most 10 minutes). Closed unless said, as `jobTurn` is: a new tool is for admins.
 */
export type MemberTurnRule = "allowed" | "admins";

/** A tool as it is defined: its call takes what its input schema gives. */
type ToolDefinition<S extends z.ZodObject> = {
  name: string;
  description: string;
  /** The arguments' schema (a strict object; null counts as not given, as function-calling models send it). */
  input: S;
  jobTurn: JobTurnRule<z.output<S>>;
  /** Left out: `admins`. */
  memberTurn?: MemberTurnRule;
  call(ctx: ToolContext, args: z.output<S>): Promise<ToolReply>;
};

/** A tool as its callers see it. */
export type Tool = {
  name: string;
  description: string;
  input: z.ZodObject;
  /** Its declaration for a turn a job or watcher caused, as the tests and the docs list it. */
  jobTurn: "allowed" | "refused" | "follow-up";
  /** Its declaration for a group member's turn. */
  memberTurn: MemberTurnRule;
  /** Checks `args` against the input schema and the turn's rights, then calls the tool. */
  invoke(ctx: ToolContext, args: unknown): Promise<ToolReply>;
};

/**
 * Why the turn may not make this call, or null when it may: the one place the job-turn and the member-turn rules
 * are applied. A member found allowed once is a user for the rest of the turn (the chat is asked once).
 */
async function refusal<Args>(rules: { jobTurn: JobTurnRule<Args>; memberTurn: MemberTurnRule }, ctx: ToolContext, args: Args): Promise<string | null> {
  const { policy } = ctx;
  if (policy.kind === "user") return null;
  if (policy.kind === "member") {
    if (rules.memberTurn === "allowed") return null;
    const may = await ctx.chat.mayChange(ctx.chatId, policy.userId);
    if (!may.ok) return may.error.message;
    if (!may.value) return ADMINS_ONLY;
    ctx.policy = { kind: "user", ...(policy.threadId !== undefined ? { threadId: policy.threadId } : {}) };
    return null;
  }
  const rule = rules.jobTurn;
  if (rule === "allowed") return null;
  if (rule === "refused" || !rule.followUp(args)) return JOB_TURN_REFUSAL;
  return policy.followUps > 0 ? null : NO_MORE_FOLLOW_UPS;
}

function defineTool<S extends z.ZodObject>(definition: ToolDefinition<S>): Tool {
  const { name, description, input, jobTurn, call } = definition;
  const memberTurn = definition.memberTurn ?? "admins";
  return {
    name,
    description,
    input,
    jobTurn: typeof jobTurn === "string" ? jobTurn : "follow-up",
    memberTurn,
    async invoke(ctx, raw) {
      const parsed = parseArgs(input, raw ?? {});
      if (!parsed.ok) return failed(parsed.error.message);
      const refused = await refusal({ jobTurn, memberTurn }, ctx, parsed.value);
      if (refused !== null) return failed(refused);
      const reply = await call(ctx, parsed.value);
      // A follow-up that was made uses up the turn's one.
      if (reply.ok && typeof jobTurn !== "string" && ctx.policy.kind === "job") ctx.policy.followUps--;
      return reply;
    },
  };
}

/** The schedule body's `fields` as a tool's input: a strict object of exactly those. */
function fieldsOf<K extends ScheduleField>(fields: readonly K[]) {
  const shape = scheduleBody().shape;
  // Object.fromEntries forgets the keys; the entries are exactly `fields`.
  return z.strictObject(Object.fromEntries(fields.map((field) => [field, shape[field]])) as Pick<typeof shape, K>);
}

const ID_NOTE = "`id` is a job id from schedule_list, such as k7m2q.";
const MEMORY_ID_NOTE = "`id` is a memory record id from memory_list, such as m4x7pq.";

/** A job-id action as a tool of its own: it takes the id, and a job or watcher's turn may not call it. */
function jobActionTool(name: string, action: "cancel" | "run_now" | "pause" | "resume", description: string): Tool {
  return defineTool({
    name,
    description: `${description} ${ID_NOTE}`,
    input: fieldsOf(["id"]),
    jobTurn: "refused",
    call: (ctx, args) => jobAction(ctx, action, args.id),
  });
}

/** The `schedule` actions as tools of their own, by action (`POST /tools/:chatId/schedule` calls them so). */
const scheduleTools = lazy((): { readonly [A in ScheduleAction]: Tool } => ({
  create: defineTool({
    name: "schedule_create",
    description: `Creates a job in this chat. ${SCHEDULE_GUIDELINES} Give exactly one of at, cron, delay or rrule (with start).`,
    // Every create field: createJobInput is the one list of them.
    input: scheduleBody().omit({ action: true, id: true, hook: true }),
    // A job's turn may leave one one-off prompt behind (a follow-up), never a recurring job or a watcher: the
    // follow-up names its one time (`at` or `delay`), so a schedule form added later stays closed to it.
    jobTurn: { followUp: (args) => (args.kind === "prompt" || args.kind === "reminder") && (args.at != null || args.delay != null) },
    call: createJob,
  }),
  update: defineTool({
    name: "schedule_update",
    description:
      "Changes a job in place: its schedule (one of at, cron or delay), text, name, memoryRefs, silent, or a watcher's command, " +
      "timeoutSeconds and onlyOnChange, from its next run on. " +
      `It keeps the job's id, history, memory references and last result: use it to move or change a job, never cancel and create it again. ${ID_NOTE}`,
    // The create fields but kind, and the id: editJobInput is the one list of what an edit takes.
    input: scheduleBody().omit({ action: true, kind: true, hook: true }),
    jobTurn: "refused",
    call: updateJob,
  }),
  list: defineTool({
    name: "schedule_list",
    description: "Lists this chat's jobs with their ids, schedules and next runs, and the time now in the chat's zone.",
    input: fieldsOf([]),
    jobTurn: "allowed",
    memberTurn: "allowed",
    call: (ctx) => listJobs(ctx),
  }),
  cancel: jobActionTool("schedule_cancel", "cancel", "Cancels (deletes) a job."),
  run_now: jobActionTool("schedule_run_now", "run_now", "Runs a job once now, without changing its schedule."),
  pause: jobActionTool("schedule_pause", "pause", "Pauses a job until it is resumed."),
  resume: jobActionTool("schedule_resume", "resume", "Resumes a paused job from now (a one-off whose time passed runs at once)."),
  skip: defineTool({
    name: "schedule_skip",
    description:
      "Skips a recurring job's next run: it is recorded in the job's history as skipped, and the run after it goes ahead. " +
      `A one-off cannot be skipped: update or cancel it. ${ID_NOTE}`,
    input: fieldsOf(["id"]),
    jobTurn: "refused",
    call: (ctx, args) => skipJob(ctx, args.id),
  }),
  hook: defineTool({
    name: "schedule_hook",
    description:
      "A job's hook: a secret URL (and, when the bot has a mail domain, an address) whose calls run the job with their body as input. " +
      'hook "new" makes or replaces it (the old address stops working), "off" revokes it, left out says whether the job has one. ' +
      `The address is shown once; in your context it reads [shown once], so tell the person it was shown to them, or that /hook <id> new in a private chat, or the page, shows it. ${ID_NOTE}`,
    input: fieldsOf(["id", "hook"]),
    // A hook opens the job to the world: never for a turn whose prompt may carry a web page's instructions.
    jobTurn: "refused",
    call: (ctx, args) => hookTool(ctx, args.id, args.hook),
  }),
  preview: defineTool({
    name: "schedule_preview",
    description:
      "Shows the next runs of a schedule in the chat's zone, with daylight-saving notes and a description, before you create it. " +
      "Give exactly one of at, cron, delay or rrule (with start); until and runsLeft stop the runs where the job would end.",
    input: fieldsOf(PREVIEW_FIELDS),
    jobTurn: "allowed",
    memberTurn: "allowed",
    call: previewSchedule,
  }),
  test: defineTool({
    name: "schedule_test",
    description:
      "Runs a watcher's /bin/sh script once on the runner (at most 60 s) and shows what it printed and how it would behave as a watcher; schedules nothing.",
    input: fieldsOf(["command", "timeoutSeconds"]),
    // It runs a script: never for a turn whose prompt may carry a web page's instructions.
    jobTurn: "refused",
    call: testScript,
  }),
}));

export const tools = lazy((): Tool[] => [
  ...SCHEDULE_ACTIONS.map((action) => scheduleTools()[action]),
  defineTool({
    name: "set_timezone",
    description:
      'Sets this chat\'s time zone (an IANA name such as "Europe/Berlin"; "reset" for the default). ' +
      "Recurring jobs follow the new zone; one-offs keep their instant.",
    input: setTimezoneBody(),
    jobTurn: "refused",
    call: (ctx, args) => setTimezone(ctx, args.zone),
  }),
  defineTool({
    name: "memory_list",
    description: "Lists this chat's memory records (long-term notes kept for later runs) with their ids, titles and revisions.",
    input: z.strictObject({}),
    // A job's turn records what it did for the next run: every memory tool is open to it.
    jobTurn: "allowed",
    // A member may have the chat's memory read; writing it changes what the group's jobs run with.
    memberTurn: "allowed",
    call: (ctx) => memoryList(ctx),
  }),
  defineTool({
    name: "memory_get",
    description: `Reads one memory record whole: its title, Markdown body and revision (memory_update needs the revision). ${MEMORY_ID_NOTE}`,
    input: memoryIdBody(),
    jobTurn: "allowed",
    memberTurn: "allowed",
    call: memoryGet,
  }),
  defineTool({
    name: "memory_create",
    description:
      "Creates a memory record: a title and a Markdown body of at most 16 KB. " +
      "Keep one only when it is worth remembering across runs; a prompt job then refers to it with memoryRefs.",
    input: memoryCreateInput(),
    jobTurn: "allowed",
    call: memoryCreate,
  }),
  defineTool({
    name: "memory_update",
    description:
      "Changes a memory record's title, body or both. " +
      `Give the revision you read: if the record changed since, nothing is written and you read it again. ${MEMORY_ID_NOTE}`,
    input: memoryUpdateBody(),
    jobTurn: "allowed",
    call: memoryUpdate,
  }),
  defineTool({
    name: "memory_delete",
    description: `Deletes a memory record for good. Jobs that refer to it fail until their memoryRefs change. ${MEMORY_ID_NOTE}`,
    input: memoryIdBody(),
    jobTurn: "allowed",
    call: memoryDelete,
  }),
]);

/** The tool of this name, or undefined. */
export function toolNamed(name: string): Tool | undefined {
  return tools().find((t) => t.name === name);
}

/** The sentence for a tool name that is none of them. */
export function unknownToolText(name: string): string {
  return `There is no tool ${JSON.stringify(name.slice(0, 40))}; the tools are ${tools()
    .map((t) => t.name)
    .join(", ")}.`;
}

/** A tool's input as JSON Schema (draft 2020-12), from its zod schema. */
function inputJsonSchema(tool: Tool): Record<string, unknown> {
  const schema = z.toJSONSchema(tool.input, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}

/**
 * Every tool with its input's JSON Schema, as the model (its functions) and MCP clients (`tools/list`) are
 * shown them: built on first use in the isolate (~0.7 ms) and shared after.
 */
export const toolSchemas = lazy((): readonly { name: string; description: string; inputSchema: Record<string, unknown> }[] =>
  tools().map((tool) => ({ name: tool.name, description: tool.description, inputSchema: inputJsonSchema(tool) })),
);

/**
 * Calls a tool with arguments a model or client sent (already parsed from JSON): an unknown tool, arguments
 * that are not an object or fail the tool's schema, and a call the turn may not make are `ok: false` with one
 * sentence, as the HTTP tools answer.
 */
export async function callTool(ctx: ToolContext, name: string, args: unknown): Promise<ToolReply> {
  const tool = toolNamed(name);
  return tool ? tool.invoke(ctx, args) : failed(unknownToolText(name));
}

/**
 * `POST /tools/:chatId/schedule`: the body's action is the tool `schedule_<action>`, called with the fields
 * given (null counts as not given); a field the action does not take is refused by name.
 */
export async function callSchedule(ctx: ToolContext, body: ScheduleBody): Promise<ToolReply> {
  const { action, ...fields } = body;
  const tool = scheduleTools()[action];
  const takes = Object.keys(tool.input.shape);
  const given = Object.entries(fields).filter(([, value]) => value !== null && value !== undefined);
  const extra = given.find(([key]) => !takes.includes(key));
  if (extra !== undefined) return failed(`"${extra[0]}" does not apply to "${action}", ${takesText(takes)}.`);
  return tool.invoke(ctx, Object.fromEntries(given));
}

function takesText(fields: readonly string[]): string {
  if (fields.length === 0) return "which takes no other fields";
  return `which takes only ${listed(fields.map((f) => `"${f}"`))}`;
}
