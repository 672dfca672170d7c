/**
 * @module The agent tools by name (DESIGN §9): the nine schedule tools, `schedule_create`, `schedule_list`,
 * `schedule_cancel`, `schedule_run_now`, `schedule_pause`, `schedule_resume`, `schedule_preview`,
 * `schedule_test` and `set_timezone`, and the five memory tools, `memory_list`, `memory_get`,
 * `memory_create`, `memory_update` and `memory_delete`; each with its description (carrying §9's
 * guidelines), its input schema (from the one zod source, `schemas/`), and its call, which is the HTTP tools'
 * own code (`tools/schedule.ts`, `tools/memory.ts`). The built-in model's function definitions and the MCP
 * tools both come from here. Built on first use.
 */
import * as z from "zod";
import { lazy } from "../lazy";
import { memoryCreateInput, memoryIdBody, memoryUpdateBody } from "../schemas/memory";
import { scheduleBody, SCHEDULE_GUIDELINES, setTimezoneBody, type ScheduleAction, type ScheduleBody, type ToolReply } from "../schemas/tools";
import { firstSentence, sentenceFor } from "../sentence";
import { memoryCreate, memoryDelete, memoryGet, memoryList, memoryUpdate } from "./memory";
import { runSchedule, setTimezone, type ToolContext } from "./schedule";

export type Tool = {
  name: string;
  description: string;
  /** The arguments' schema (a strict object; null counts as not given, as function-calling models send it). */
  input: z.ZodObject;
  call(ctx: ToolContext, args: Record<string, unknown>): Promise<ToolReply>;
};

const ID_NOTE = "`id` is a job id from schedule_list, such as k7m2q.";
const MEMORY_ID_NOTE = "`id` is a memory record id from memory_list, such as m4x7pq.";

/** A `schedule` action as a tool of its own: the action's fields of the schedule body. */
function actionTool(name: string, action: ScheduleAction, description: string, fields: readonly string[]): Tool {
  const shape = scheduleBody().shape;
  const pick = Object.fromEntries(fields.map((f) => [f, shape[f as keyof typeof shape]]));
  return {
    name,
    description,
    input: z.strictObject(pick),
    call: (ctx, args) => runSchedule(ctx, { ...(args as Omit<ScheduleBody, "action">), action }),
  };
}

export const tools = lazy((): Tool[] => [
  actionTool("schedule_create", "create", `Creates a job in this chat. ${SCHEDULE_GUIDELINES} Give exactly one of at, cron or delay.`, [
    "name",
    "kind",
    "at",
    "cron",
    "delay",
    "text",
    "command",
    "timeoutSeconds",
    "memoryRefs",
    "onlyOnChange",
  ]),
  actionTool("schedule_list", "list", "Lists this chat's jobs with their ids, schedules and next runs, and the time now in the chat's zone.", []),
  actionTool("schedule_cancel", "cancel", `Cancels (deletes) a job. ${ID_NOTE}`, ["id"]),
  actionTool("schedule_run_now", "run_now", `Runs a job once now, without changing its schedule. ${ID_NOTE}`, ["id"]),
  actionTool("schedule_pause", "pause", `Pauses a job until it is resumed. ${ID_NOTE}`, ["id"]),
  actionTool("schedule_resume", "resume", `Resumes a paused job from now (a one-off whose time passed runs at once). ${ID_NOTE}`, ["id"]),
  actionTool(
    "schedule_preview",
    "preview",
    "Shows the next runs of a schedule in the chat's zone, with daylight-saving notes, before you create it. Give exactly one of at, cron or delay.",
    ["at", "cron", "delay"],
  ),
  actionTool(
    "schedule_test",
    "test",
    "Runs a watcher's /bin/sh script once on the runner (at most 60 s) and shows what it printed and how it would behave as a watcher; schedules nothing.",
    ["command", "timeoutSeconds"],
  ),
  {
    name: "set_timezone",
    description: 'Sets this chat\'s time zone (an IANA name such as "Europe/Berlin"; "reset" for the default). Recurring jobs follow the new zone; one-offs keep their instant.',
    input: setTimezoneBody(),
    call: (ctx, args) => setTimezone(ctx, typeof args.zone === "string" ? args.zone : null),
  },
  {
    name: "memory_list",
    description: "Lists this chat's memory records (long-term notes kept for later runs) with their ids, titles and revisions.",
    input: z.strictObject({}),
    call: (ctx) => memoryList(ctx),
  },
  {
    name: "memory_get",
    description: `Reads one memory record whole: its title, Markdown body and revision (memory_update needs the revision). ${MEMORY_ID_NOTE}`,
    input: memoryIdBody(),
    call: (ctx, args) => memoryGet(ctx, args as { id: string }),
  },
  {
    name: "memory_create",
    description:
      "Creates a memory record: a title and a Markdown body of at most 16 KB. Keep one only when it is worth remembering across runs; a prompt job then refers to it with memoryRefs.",
    input: memoryCreateInput(),
    call: (ctx, args) => memoryCreate(ctx, args as { title: string; body: string }),
  },
  {
    name: "memory_update",
    description: `Changes a memory record's title, body or both. Give the revision you read: if the record changed since, nothing is written and you read it again. ${MEMORY_ID_NOTE}`,
    input: memoryUpdateBody(),
    call: (ctx, args) => memoryUpdate(ctx, args as { id: string; revision: number; title?: string | null; body?: string | null }),
  },
  {
    name: "memory_delete",
    description: `Deletes a memory record for good. Jobs that refer to it fail until their memoryRefs change. ${MEMORY_ID_NOTE}`,
    input: memoryIdBody(),
    call: (ctx, args) => memoryDelete(ctx, args as { id: string }),
  },
]);

/** The tool of this name, or undefined. */
function toolNamed(name: string): Tool | undefined {
  return tools().find((t) => t.name === name);
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
 * that are not an object or fail the tool's schema are `ok: false` with one sentence, as the HTTP tools answer.
 */
export async function callTool(ctx: ToolContext, name: string, args: unknown): Promise<ToolReply> {
  const tool = toolNamed(name);
  if (!tool) return { ok: false, text: `There is no tool ${JSON.stringify(name.slice(0, 40))}; the tools are ${tools().map((t) => t.name).join(", ")}.` };
  const parsed = tool.input.safeParse(args ?? {}, { error: sentenceFor });
  if (!parsed.success) return { ok: false, text: firstSentence(parsed.error) };
  return tool.call(ctx, parsed.data as Record<string, unknown>);
}
