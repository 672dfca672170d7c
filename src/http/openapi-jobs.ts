/**
 * @module The OpenAPI paths and schemas of the chat, job and tool routes (DESIGN §3, §5, §9, §10), merged into
 * the document by `openapi.ts`. Built on request, like the rest of the document.
 */
import { LIMITS } from "../schemas/jobs";
import { SCHEDULE_ACTIONS, SCHEDULE_GUIDELINES } from "../schemas/tools";

export type Responses = Record<string, object>;

export const json = (schema: object) => ({ "application/json": { schema } });
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const error = (code: string, description: string) => ({ description: `\`${code}\`: ${description}`, content: json(ref("Error")) });

/** The path parameters; a chat id that does not match is 400 and creates no Durable Object (DESIGN §2). */
export const chatIdParam = {
  name: "chatId",
  in: "path",
  required: true,
  description: "A decimal Telegram chat id; anything else is 400 and creates nothing.",
  schema: { type: "string", pattern: "^-?[1-9]\\d{0,15}$" },
  example: "123456789",
};
const jobIdParam = {
  name: "id",
  in: "path",
  required: true,
  description: "A job id: 5 characters of `abcdefghjkmnpqrstuvwxyz23456789`; anything else is 404.",
  schema: { type: "string", pattern: "^[abcdefghjkmnpqrstuvwxyz23456789]{5}$" },
  example: "k7m2q",
};

const badChat = error("bad_request", "the chat id is not a Telegram chat id.");
const noJob = error("not_found", "no job with this id in this chat (`No job <id> in this chat.`).");
const badBody = (what: string) => error("bad_request", `malformed JSON, a wrong type, an unknown field${what}.`);
const tooLarge = error("payload_too_large", "the body is over 64 KiB.");
const noBody = {
  required: false,
  description: "No body: send none, or `{}`.",
  content: json({ type: "object", additionalProperties: false }),
};

/** The paths, with the responses every guarded route can give (401, 403, 500, 503) spread in. */
export function jobPaths(guarded: Responses) {
  const jobAnswer = (description: string, extra: Responses = {}) => ({
    "200": { description, content: json({ type: "object", required: ["job"], properties: { job: ref("Job") } }) },
    "400": badChat,
    "404": noJob,
    ...extra,
    ...guarded,
  });
  const action = (summary: string, extra: Responses = {}) => ({
    post: {
      summary,
      parameters: [chatIdParam, jobIdParam],
      requestBody: noBody,
      responses: jobAnswer("The job after the action.", { "400": badBody(" (the route takes no body)"), "413": tooLarge, ...extra }),
    },
  });
  return {
    "/admin/chats/{chatId}": {
      delete: {
        summary: "Erase the chat: all its jobs, runs, settings and its alarm, and its rows in the D1 directory.",
        parameters: [chatIdParam],
        requestBody: noBody,
        responses: { "204": { description: "Erased (also when the chat was never used)." }, "400": badChat, "413": tooLarge, ...guarded },
      },
    },
    "/admin/chats/{chatId}/settings": {
      get: {
        summary: "The chat's settings: its zone, or DEFAULT_TIMEZONE.",
        parameters: [chatIdParam],
        responses: { "200": { description: "The settings.", content: json(ref("ChatSettings")) }, "400": badChat, ...guarded },
      },
      put: {
        summary: "Set the chat's zone (null: back to DEFAULT_TIMEZONE); cron jobs follow it, one-offs keep their instant.",
        parameters: [chatIdParam],
        requestBody: { required: true, content: json(ref("SettingsUpdate")) },
        responses: {
          "200": { description: "The new settings, the counts and the reply of DESIGN §4.", content: json(ref("ZoneChange")) },
          "400": badBody(", or an unknown zone (`Unknown time zone \"Mars/Olympus\". …`)"),
          "413": tooLarge,
          ...guarded,
        },
      },
    },
    "/admin/chats/{chatId}/jobs": {
      get: {
        summary: "The chat's jobs, with its zone and the current instant.",
        parameters: [
          chatIdParam,
          { name: "category", in: "query", required: false, schema: { enum: ["one-time", "recurring", "monitoring"] }, description: "Empty means all." },
          { name: "q", in: "query", required: false, schema: { type: "string", maxLength: 200 }, description: "Case-insensitive text in the id, name, text or command; empty means all." },
        ],
        responses: {
          "200": { description: "The jobs.", content: json(ref("JobList")) },
          "400": error("bad_request", "the chat id, or an unknown category or a query over 200 characters."),
          ...guarded,
        },
      },
      post: {
        summary: "Create a job (createdBy `admin`).",
        parameters: [chatIdParam],
        requestBody: { required: true, content: json(ref("JobCreate")) },
        responses: {
          "201": { description: "Created.", content: json({ type: "object", required: ["job"], properties: { job: ref("Job") } }) },
          "400": badBody(", a rule of DESIGN §3 or §4, or the chat's job limit (`This chat already has 50 jobs (the limit); cancel one first.`)"),
          "413": tooLarge,
          ...guarded,
        },
      },
    },
    "/admin/chats/{chatId}/jobs/{id}": {
      get: { summary: "One job.", parameters: [chatIdParam, jobIdParam], responses: jobAnswer("The job.") },
      patch: {
        summary: "Edit a job; applies from its next occurrence and never touches a run in flight.",
        parameters: [chatIdParam, jobIdParam],
        requestBody: { required: true, content: json(ref("JobEdit")) },
        responses: jobAnswer("The edited job.", { "400": badBody(", or a rule of DESIGN §3 or §4"), "413": tooLarge }),
      },
      delete: {
        summary: "Cancel (remove) a job; an agent run in progress is not aborted.",
        parameters: [chatIdParam, jobIdParam],
        requestBody: noBody,
        responses: { "204": { description: "Cancelled." }, "400": badBody(" (the route takes no body)"), "404": noJob, "413": tooLarge, ...guarded },
      },
    },
    "/admin/chats/{chatId}/jobs/{id}/run": action("Run the job now: a manual run, nothing rescheduled or deleted.", {
      "409": error("conflict", "a run of the job is in flight (`Job <id> is still running.`)."),
    }),
    "/admin/chats/{chatId}/jobs/{id}/pause": action("Pause the job: kept, with nextRunAt null."),
    "/admin/chats/{chatId}/jobs/{id}/resume": action("Resume the job: a cron job from now; a one-off at its time, at once when that has passed."),
    "/admin/chats/{chatId}/jobs/{id}/runs": {
      get: {
        summary: `The job's last ${LIMITS.runsKept} runs, newest first.`,
        parameters: [chatIdParam, jobIdParam],
        responses: {
          "200": { description: "The runs.", content: json({ type: "object", required: ["runs"], properties: { runs: { type: "array", items: ref("Run") } } }) },
          "400": badChat,
          "404": noJob,
          ...guarded,
        },
      },
    },
    "/admin/chats/{chatId}/test": {
      post: {
        summary: "Run a watcher command once through the runner (a dry run, at most 60 s) and answer its outcome; nothing is stored, scheduled or delivered.",
        description:
          "The command runs as a watcher's would (`/bin/sh -c`, the chat's workspace and zone, `CUCKOO_JOB_ID=test`), with its timeout cut to 60 s. Its output and stderr tail are redacted: every secret the Worker holds is `[REDACTED]`.",
        parameters: [chatIdParam],
        requestBody: { required: true, content: json(ref("TestRequest")) },
        responses: {
          "200": {
            description:
              "The runner's outcome. A runner that cannot be reached (or refuses the request) gives status `failed`, exitCode null and stderrTail `did not start: …` with the reason.",
            content: json(ref("RunnerOutcome")),
          },
          "400": badBody(", or a command or timeout out of range (`\"command\" must be a /bin/sh script of 1 to 8000 characters, such as \"curl -s https://example.com/price\".`)"),
          "413": tooLarge,
          ...guarded,
          "503": error(
            "not_configured",
            "deployed without ADMIN_TOKEN (the message names it), or no runner is configured (`Testing a watcher needs the runner: set RUNNER_SECRET to use the runner container, or RUNNER_URL and RUNNER_SECRET for a runner elsewhere (npm run dev starts one). Nothing was run.`).",
          ),
        },
      },
    },
    "/tools/{chatId}/schedule": {
      post: {
        summary: "The scheduling tool for agents (bearer TOOLS_TOKEN). Every input problem is 200 with ok false and a sentence.",
        description: SCHEDULE_GUIDELINES,
        parameters: [chatIdParam],
        requestBody: { required: true, content: json(ref("ScheduleRequest")) },
        responses: {
          "200": { description: "What the model reads (`text`) and, on success, `data`.", content: json(ref("ToolReply")) },
          "400": badChat,
          "413": tooLarge,
          ...guarded,
        },
      },
    },
    "/tools/{chatId}/set_timezone": {
      post: {
        summary: "Set the chat's zone for agents (bearer TOOLS_TOKEN); the text is the reply of DESIGN §4.",
        parameters: [chatIdParam],
        requestBody: { required: true, content: json(ref("SetTimezoneRequest")) },
        responses: {
          "200": { description: "`{ ok, text }`; ok false with a sentence for an unknown zone or a wrong body.", content: json(ref("ToolReply")) },
          "400": badChat,
          "413": tooLarge,
          ...guarded,
        },
      },
    },
  };
}

const instant = { type: "string", format: "date-time", description: "RFC 3339 UTC (toISOString form)." };
const nullableInstant = { type: ["string", "null"], format: "date-time" };

/** The schemas the paths above refer to. */
export function jobSchemas() {
  const fields = {
    name: { type: "string", minLength: 1, maxLength: LIMITS.name, examples: ["Inbox summary"] },
    at: { type: "string", description: "ISO 8601 date or date-time; without an offset it is read in the chat's zone.", examples: ["2026-12-01T09:00"] },
    cron: { type: "string", description: "Five fields or a macro, on the chat's wall clock.", examples: ["0 8 * * 1-5"] },
    delay: { type: "string", description: "ISO 8601 duration from now, 1 minute to 5 years.", examples: ["PT20M"] },
    text: { type: "string", minLength: 1, maxLength: LIMITS.text, description: "Prompt jobs only: what the agent should do." },
    command: {
      type: "string",
      minLength: 1,
      maxLength: LIMITS.command,
      description: "Watchers only: a /bin/sh script that prints nothing and exits 0 until its condition holds, then prints the facts; non-zero only on a real error.",
    },
    timeoutSeconds: {
      type: "integer",
      minimum: LIMITS.timeoutMin,
      maximum: LIMITS.timeoutMax,
      description: "Watchers only: seconds before the script's process group is killed; default DEFAULT_SCRIPT_TIMEOUT.",
    },
  };
  const kind = { enum: ["prompt", "watcher", "reminder"], description: "`reminder` (legacy) is stored as a prompt with the text `Remind me: <text>`." };
  return {
    Job: {
      type: "object",
      required: ["id", "chatId", "name", "kind", "category", "schedule", "enabled", "createdAt", "createdBy", "nextRunAt", "lastRunAt", "lastResult", "running"],
      properties: {
        id: { type: "string", pattern: "^[abcdefghjkmnpqrstuvwxyz23456789]{5}$" },
        chatId: { type: "string" },
        name: { type: "string" },
        kind: { enum: ["prompt", "watcher"] },
        category: { enum: ["one-time", "recurring", "monitoring"] },
        schedule: {
          oneOf: [
            { type: "object", required: ["at"], additionalProperties: false, properties: { at: instant } },
            { type: "object", required: ["cron"], additionalProperties: false, properties: { cron: { type: "string" } } },
          ],
        },
        text: { type: "string", description: "Prompt jobs only." },
        command: { type: "string", description: "Watchers only." },
        timeoutSeconds: { type: "integer", description: "Watchers only." },
        enabled: { type: "boolean", description: "false = paused." },
        createdAt: instant,
        createdBy: { enum: ["user", "agent", "admin"] },
        nextRunAt: { ...nullableInstant, description: "null when paused, a fired-but-unsettled one-off, or never again." },
        lastRunAt: nullableInstant,
        lastResult: {
          oneOf: [
            { type: "null" },
            {
              type: "object",
              required: ["status", "at"],
              properties: {
                status: { enum: ["delivered", "silent", "matched", "failed"] },
                exitCode: { type: ["integer", "null"] },
                timedOut: { type: "boolean" },
                stderrTail: { type: "string" },
                at: instant,
              },
            },
          ],
        },
        running: { type: "boolean", description: "A run of this job is in flight." },
      },
    },
    Run: {
      type: "object",
      required: ["runId", "manual", "dueAt", "startedAt", "finishedAt", "state", "status", "exitCode", "timedOut", "late", "detail"],
      properties: {
        runId: { type: "string", description: "`<jobId>:<dueAt epoch ms>`; run now uses the instant it was asked.", examples: ["k7m2q:1790499600000"] },
        manual: { type: "boolean" },
        dueAt: instant,
        startedAt: nullableInstant,
        finishedAt: nullableInstant,
        state: { enum: ["claimed", "dispatched", "settled"] },
        status: { enum: ["delivered", "silent", "matched", "failed", "skipped", null], description: "null until settled." },
        exitCode: { type: ["integer", "null"] },
        timedOut: { type: "boolean" },
        late: { type: "boolean" },
        detail: {
          type: ["string", "null"],
          description: "Why it ended so, when it says more than status.",
          examples: ["still running", "exit 3", "timed out", "did not start: the runner could not be reached (…)", "timed out: no outcome within 300 s + 60 s"],
        },
      },
    },
    TestRequest: {
      type: "object",
      required: ["command"],
      additionalProperties: false,
      properties: {
        command: fields.command,
        timeoutSeconds: { ...fields.timeoutSeconds, description: "Cut to 60 s; default DEFAULT_SCRIPT_TIMEOUT, cut likewise." },
      },
    },
    JobCreate: {
      type: "object",
      description: "Exactly one of at, cron, delay. Prompts take text; watchers take command (and timeoutSeconds).",
      required: ["name", "kind"],
      additionalProperties: false,
      properties: { name: fields.name, kind, ...Object.fromEntries(Object.entries(fields).filter(([k]) => k !== "name")) },
    },
    JobEdit: {
      type: "object",
      description: "The create fields but kind, all optional; at most one of at, cron, delay.",
      additionalProperties: false,
      properties: fields,
    },
    JobList: {
      type: "object",
      required: ["chatId", "timeZone", "now", "jobs"],
      properties: { chatId: { type: "string" }, timeZone: { type: "string" }, now: instant, jobs: { type: "array", items: ref("Job") } },
    },
    ChatSettings: {
      type: "object",
      required: ["chatId", "timeZone", "isDefault"],
      properties: { chatId: { type: "string" }, timeZone: { type: "string" }, isDefault: { type: "boolean", description: "The chat follows DEFAULT_TIMEZONE." } },
    },
    SettingsUpdate: {
      type: "object",
      required: ["timeZone"],
      additionalProperties: false,
      properties: { timeZone: { type: ["string", "null"], description: "An IANA name (Windows ids accepted), or null for the default.", examples: ["Asia/Tokyo"] } },
    },
    ZoneChange: {
      type: "object",
      required: ["chatId", "timeZone", "isDefault", "cronJobs", "oneOffs", "message"],
      properties: {
        chatId: { type: "string" },
        timeZone: { type: "string" },
        isDefault: { type: "boolean" },
        cronJobs: { type: "integer", description: "Recurring jobs, which now follow the zone." },
        oneOffs: { type: "integer", description: "One-off jobs, which keep their instant." },
        message: { type: "string", examples: ["Time zone set to Asia/Tokyo (UTC+09:00). Now 27 Sep 02:15. 2 recurring jobs now follow this zone; 1 one-off job keeps its time (now 27 Sep 16:00 here)."] },
      },
    },
    ScheduleRequest: {
      type: "object",
      description:
        "create takes the job fields (as JobCreate); cancel, run_now, pause and resume take id; preview takes one of at, cron, delay; test takes command and optionally timeoutSeconds (cut to 60 s); list takes nothing. A null field counts as not given; a field the action does not take is refused.",
      required: ["action"],
      additionalProperties: false,
      properties: {
        action: { enum: [...SCHEDULE_ACTIONS] },
        id: { type: ["string", "null"], examples: ["k7m2q"] },
        name: { ...fields.name, type: ["string", "null"] },
        kind: { ...kind, enum: [...kind.enum, null] },
        ...Object.fromEntries(
          Object.entries(fields)
            .filter(([k]) => k !== "name")
            .map(([k, v]) => [k, { ...v, type: [v.type, "null"] }]),
        ),
      },
    },
    SetTimezoneRequest: {
      type: "object",
      required: ["zone"],
      additionalProperties: false,
      properties: { zone: { type: ["string", "null"], description: "An IANA name, or \"reset\" / null for the default.", examples: ["Asia/Tokyo"] } },
    },
    ToolReply: {
      type: "object",
      required: ["ok", "text"],
      properties: {
        ok: { type: "boolean" },
        text: { type: "string", description: "What the model reads; create and list end with the `Now:` line." },
        data: {
          type: "object",
          description:
            "`{ job }` (create, cancel, run_now, pause, resume), `{ jobs }` (list), `{ occurrences }` (preview) or `{ outcome }` (test: the runner's outcome, redacted; a runner that cannot be reached gives status failed with stderrTail `did not start: …`). test without a runner is ok false with a sentence.",
          properties: {
            job: ref("Job"),
            jobs: { type: "array", items: ref("Job") },
            occurrences: { type: "array", items: instant },
            outcome: ref("RunnerOutcome"),
          },
        },
      },
    },
  };
}
