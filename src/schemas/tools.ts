/**
 * @module The agent tools' shapes (DESIGN §9): the `schedule` and `set_timezone` bodies, the fields each action
 * takes, the reply every tool gives, and the guidelines a model reads. The HTTP tools, and later the MCP tools
 * and the model's function definitions, take their JSON Schemas from here.
 */
import * as z from "zod";
import { lazy } from "../lazy";
import { instant } from "./common";
import { createJobInput, jobSchema } from "./jobs";
import { memoryRecordSchema } from "./memory";
import { outcomeSchema } from "./runner";

export const SCHEDULE_ACTIONS = ["create", "list", "cancel", "run_now", "pause", "resume", "preview", "test"] as const;
export type ScheduleAction = (typeof SCHEDULE_ACTIONS)[number];

export type ScheduleField = "id" | "name" | "kind" | "at" | "cron" | "delay" | "text" | "command" | "timeoutSeconds" | "memoryRefs" | "onlyOnChange";

/** The fields each action takes besides `action`; any other given field is refused with a sentence. */
export const ACTION_FIELDS: Readonly<Record<ScheduleAction, readonly ScheduleField[]>> = {
  create: ["name", "kind", "at", "cron", "delay", "text", "command", "timeoutSeconds", "memoryRefs", "onlyOnChange"],
  list: [],
  cancel: ["id"],
  run_now: ["id"],
  pause: ["id"],
  resume: ["id"],
  preview: ["at", "cron", "delay"],
  test: ["command", "timeoutSeconds"],
};

/**
 * The schedule tool's guidelines for a model (DESIGN §9), in the tool's description. The MCP tools and the LLM
 * agent's function definitions carry the same text.
 */
export const SCHEDULE_GUIDELINES = [
  "Schedules this chat's jobs. Times are in the chat's time zone (set_timezone changes it).",
  '`at` is ISO 8601: "2026-12-01T09:00", or a date alone for 09:00; `delay` is an ISO 8601 duration such as "PT20M";',
  '`cron` has 5 fields (minute hour day-of-month month day-of-week), such as "0 8 * * 1-5", or a macro such as "@daily".',
  'Use a prompt (kind "prompt", `text`) when the job needs thought: you get `text` at each run.',
  'A watcher (kind "watcher", `command`) runs a /bin/sh script without you: it prints nothing and exits 0 until its',
  "condition holds, then prints the facts you need, which wake you; it exits non-zero only on a real error, which",
  "alerts the chat; it exits 75 when it cannot tell this time (tried again next time, no alert). With onlyOnChange a",
  "watcher wakes you only when its output differs from the last one you got. Try a script with `test` first: it runs",
  "once and schedules nothing. A prompt may carry memoryRefs (up to 5 memory record ids): each run then gets their",
  "current content.",
].join(" ");

const ACTION = `"action" must be one of ${SCHEDULE_ACTIONS.map((a) => `"${a}"`).join(", ").replace(/, ([^,]*)$/, " or $1")}.`;
const ID = `"id" must be a job id such as "k7m2q"; see "list".`;
const ZONE = `"zone" must be an IANA zone name such as "Europe/Berlin", or "reset" for the default zone.`;

/**
 * The `schedule` body (DESIGN §9). A field that is null counts as not given: function-calling models in
 * strict mode send every optional field, with null for the ones they do not mean.
 */
export const scheduleBody = lazy(() => {
  const s = createJobInput().shape;
  return z
    .strictObject({
      action: z.enum(SCHEDULE_ACTIONS, { error: ACTION }),
      id: z.string({ error: ID }).meta({ examples: ["k7m2q"] }).nullish(),
      name: s.name.nullish(),
      kind: s.kind.nullish(),
      at: s.at.unwrap().nullish(),
      cron: s.cron.unwrap().nullish(),
      delay: s.delay.unwrap().nullish(),
      text: s.text.unwrap().nullish(),
      command: s.command.unwrap().nullish(),
      timeoutSeconds: s.timeoutSeconds.unwrap().nullish(),
      memoryRefs: s.memoryRefs.unwrap().nullish(),
      onlyOnChange: s.onlyOnChange.unwrap().nullish(),
    })
    .meta({
      description:
        "create takes the job fields (as JobCreate); cancel, run_now, pause and resume take id; preview takes one of at, cron, delay; test takes command and optionally timeoutSeconds (cut to 60 s); list takes nothing. A null field counts as not given; a field the action does not take is refused.",
    });
});
export type ScheduleBody = z.infer<ReturnType<typeof scheduleBody>>;

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
      })
      .optional()
      .meta({
        description:
          "`{ job }` (create, cancel, run_now, pause, resume), `{ jobs }` (list), `{ occurrences }` (preview) or `{ outcome }` (test: the runner's outcome, redacted; a runner that cannot be reached gives status failed with stderrTail `did not start: …`). test without a runner is ok false with a sentence. The memory tools: `{ record }` (get, create, update, delete) or `{ records }` (list).",
      }),
  }),
);
export type ToolReply = z.infer<ReturnType<typeof toolReplySchema>>;
