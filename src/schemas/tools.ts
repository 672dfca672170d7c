/**
 * @module The agent tools' shapes (docs/api.md#tools-for-agents): the `schedule` and `set_timezone` bodies, the fields each action
 * takes, the reply every tool gives, and the guidelines a model reads. The HTTP tools, and later the MCP tools
 * and the model's function definitions, take their JSON Schemas from here.
 */
import * as z from "zod";
import { lazy } from "../lazy";
import { texts as english } from "../texts/en";
import { instant } from "./common";
import { hookAddressesSchema } from "./hooks";
import { createJobInput, jobSchema } from "./jobs";
import { memoryRecordSchema } from "./memory";
import { outcomeSchema } from "./runner";

export const SCHEDULE_ACTIONS = ["create", "update", "list", "cancel", "run_now", "pause", "resume", "skip", "hook", "preview", "test"] as const;
export type ScheduleAction = (typeof SCHEDULE_ACTIONS)[number];

/**
 * The schedule tool's guidelines for a model (docs/api.md#tools-for-agents), in the tool's description. The MCP tools and the LLM
 * agent's function definitions carry the same text.
 */
export const SCHEDULE_GUIDELINES = [
  "Schedules this chat's jobs. Times are in the chat's time zone (set_timezone changes it).",
  '`at` is ISO 8601: "2026-12-01T09:00", or a date alone for 09:00; `delay` is an ISO 8601 duration such as "PT20M";',
  '`cron` has 5 fields (minute hour day-of-month month day-of-week), such as "0 8 * * 1-5", or a macro such as "@daily";',
  'it also takes L (the last day: "0 9 L * *"; the last Friday: "0 17 * * 5L"), # (the first Monday: "0 9 * * 1#1"),',
  'W (the nearest weekday: "0 9 15W * *") and ranges that wrap ("0 22-2 * * *"). For what cron cannot say (every other',
  "week, every 3 days, every 90 minutes) give a recurrence rule: `rrule` (RFC 5545) with `start`, its first local",
  'date-time, such as "rrule": "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", "start": "2026-12-08T10:00", or',
  '"FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1" for the last weekday of a month. To end a recurring job give',
  '`until` (no run after it, such as "2026-12-31") or `runsLeft` (how many more runs, such as 10).',
  "To change a job (its time, its text, anything), update it (schedule_update) with its id: never cancel it and create",
  "it again, which loses its id, history and memory references; to leave out one run of a recurring job, skip it",
  "(schedule_skip). `silent` sends a job's messages without a notification sound.",
  'A job can also be woken by the world: its hook (schedule_hook, hook "new") is a secret URL (and mail address) whose calls run it',
  'with their body as input; "trigger": "hook" in place of a time makes a job only its hook runs. A hook\'s address is shown',
  "once, to the person; you see [shown once] in its place.",
  'Use a prompt (kind "prompt", `text`) when the job needs thought: you get `text` at each run.',
  'A watcher (kind "watcher", `command`) runs a /bin/sh script without you: it prints nothing and exits 0 until its',
  "condition holds, then prints the facts you need, which wake you; it exits non-zero only on a real error, which",
  "alerts the chat; it exits 75 when it cannot tell this time (tried again next time, no alert). With onlyOnChange a",
  "watcher wakes you only when its output differs from the last one you got. Try a script with `test` first: it runs",
  "once and schedules nothing. A prompt may carry memoryRefs (up to 5 memory record ids): each run then gets their",
  "current content.",
].join(" ");

const ACTION = `"action" must be one of ${SCHEDULE_ACTIONS.map((a) => `"${a}"`)
  .join(", ")
  .replace(/, ([^,]*)$/, " or $1")}.`;
const ID = `"id" must be a job id such as "k7m2q"; see "list".`;
const ZONE = `"zone" must be an IANA zone name such as "Europe/Berlin", or "reset" for the default zone.`;

/** A field as the schedule body takes it: optional, and null counts as not given. */
type Nullish<T extends z.core.SomeType> = z.ZodOptional<z.ZodNullable<T extends z.ZodOptional<infer U> ? U : T>>;

/** Each field of `shape` as the schedule body takes it (its rules and descriptions kept). */
function nullish<S extends z.ZodRawShape>(shape: S): { [K in keyof S]: Nullish<S[K]> } {
  const fields = Object.entries(shape).map(([key, field]) => [key, z.nullish(field instanceof z.ZodOptional ? field.unwrap() : field)]);
  // Object.fromEntries forgets the keys: the mapped type above is what the entries are, key by key.
  return Object.fromEntries(fields) as { [K in keyof S]: Nullish<S[K]> };
}

/**
 * The `schedule` body (docs/api.md#tools-for-agents): the action, a job id, and every create field (`createJobInput`, the one
 * list of a job's fields). A field that is null counts as not given: function-calling models in strict mode
 * send every optional field, with null for the ones they do not mean.
 */
export const scheduleBody = lazy(() =>
  z
    .strictObject({
      action: z.enum(SCHEDULE_ACTIONS, { error: ACTION }),
      id: z
        .string({ error: ID })
        .meta({ examples: ["k7m2q"] })
        .nullish(),
      ...nullish(createJobInput().shape),
      hook: z
        .enum(["new", "off"], { error: `"hook" must be "new" (make or replace the job's hook) or "off" (revoke it), or left out to ask whether it has one.` })
        .meta({ description: 'With action "hook": "new" makes or replaces the job\'s hook, "off" revokes it; left out, whether it has one.' })
        .nullish(),
    })
    .meta({
      description:
        "create takes the job fields (as JobCreate); update takes id and the fields to change (as JobEdit); " +
        "cancel, run_now, pause, resume and skip take id; hook takes id and hook; preview takes one of at, cron, delay, rrule (with start), and until and runsLeft; " +
        "test takes command and optionally timeoutSeconds (cut to 60 s); list takes nothing. " +
        "A null field counts as not given; a field the action does not take is refused.",
    }),
);
export type ScheduleBody = z.infer<ReturnType<typeof scheduleBody>>;
/** A field of the schedule body besides `action`. */
export type ScheduleField = Exclude<keyof ScheduleBody, "action">;

/** The `set_timezone` body: an IANA zone (Windows ids accepted), or `"reset"` / null for the default. */
export const setTimezoneBody = lazy(() =>
  z.strictObject({
    zone: z
      .string({ error: ZONE })
      .nullable()
      .meta({ description: 'An IANA name, or "reset" / null for the default.', examples: ["Asia/Tokyo"] }),
  }),
);

/** What every tool answers: `text` is what the model reads; `data` is for programs. */
export const toolReplySchema = lazy(() =>
  z.strictObject({
    ok: z.boolean(),
    text: z.string().meta({ description: "What the model reads; create and list end with the `Now:` line." }),
    data: z
      .strictObject({
        job: jobSchema().optional(),
        jobs: z.array(jobSchema()).optional(),
        occurrences: z.array(instant()).optional(),
        outcome: outcomeSchema().optional(),
        record: memoryRecordSchema().optional(),
        records: z.array(memoryRecordSchema()).optional(),
        hook: hookAddressesSchema().optional(),
      })
      .optional()
      .meta({
        description:
          "`{ job }` (create, update, cancel, run_now, pause, resume, skip), `{ jobs }` (list), `{ occurrences }` (preview) " +
          "or `{ outcome }` (test: the runner's outcome, redacted; a runner that cannot be reached gives status failed with stderrTail `did not start: …`). " +
          "test without a runner is ok false with a sentence. " +
          "The memory tools: `{ record }` (get, create, update, delete) or `{ records }` (list).",
      }),
  }),
);
export type ToolReply = z.infer<ReturnType<typeof toolReplySchema>>;

/** A tool's answer to a call it refuses or that failed: `ok: false` with the one sentence a model reads. */
export const failed = (text: string): ToolReply => ({ ok: false, text });

/**
 * Whose turn a tool call is part of (docs/telegram.md, docs/agent.md, docs/api.md, issue 13). A user's turn has every tool. A turn a job or
 * a watcher started has only what each tool's definition allows it, and `followUps` one-off prompts left to
 * create: one, none for a follow-up's own run. Over HTTP and MCP the turn is the run gate's (`X-Cuckoo-Turn`),
 * whose `token` the chat's object checks again when a follow-up is created, so that concurrent calls of one
 * turn cannot create two. A group member's turn (`member`) may read; a tool that changes something asks the
 * chat whether that member may (its admins and the users in ALLOWED_USER_IDS may). `threadId`: the forum topic
 * of the prompt the turn answers, where the jobs it creates will post.
 */
export type TurnPolicy = ({ kind: "user" } | { kind: "job"; followUps: number; token?: string } | { kind: "member"; userId: string }) & { threadId?: number };

/** The answer to a group member who is not an admin (nor listed) and tries to change something (docs/telegram.md). */
export const ADMINS_ONLY = english.problems.adminsOnly;

export const JOB_TURN_REFUSAL =
  "A scheduled run cannot change the schedule: " +
  "in a turn a job or watcher started, only list, preview and one follow-up one-off prompt (at or delay) are allowed.";

export const NO_MORE_FOLLOW_UPS =
  "This turn may not create another job: a scheduled run creates at most one follow-up, and a follow-up's own run creates none.";

/** A turn token (`X-Cuckoo-Turn`) that does not hold the chat's run gate now, or holds no prompt. */
export const NOT_THE_TURN =
  "X-Cuckoo-Turn does not name this chat's current turn: send the token the run gate gave for the prompt you are handling, while you handle it.";
