/**
 * @module What the OpenAPI document says about each route (DESIGN §10): the named component schemas (each one
 * a zod schema of `src/schemas/`) and one compact row per operation. `openapi.ts` builds the document from
 * these; a test checks the rows against the routes the app serves.
 */
import type * as z from "zod";
import { promptMessageSchema } from "../contracts/prompt-message";
import { dryRunBody } from "../runner-client/dry-run";
import { deliverArgs, deliverReply, gateNextReply, gateOfferReply, gateSettleArgs, gateTokenArgs } from "../schemas/agent";
import { chatSettingsSchema, messageAccepted, messageBody, pressAnswer, settingsBody, transcriptQuery, transcriptSchema, zoneChangeSchema } from "../schemas/chats";
import { emptyBody } from "../schemas/common";
import { errorEnvelope, type ErrorCode } from "../schemas/errors";
import { healthErrors, healthOk } from "../schemas/health";
import { createJobInput, editJobInput, jobFilter, jobListSchema, jobReply, jobSchema, LIMITS, runList, runSchema } from "../schemas/jobs";
import { previewBody, previewReplySchema } from "../schemas/preview";
import { outcomeSchema } from "../schemas/runner";
import { webhookAck } from "../schemas/telegram";
import { SCHEDULE_GUIDELINES, scheduleBody, setTimezoneBody, toolReplySchema } from "../schemas/tools";
import { updateSchema } from "../telegram/update";

/** The document's component schemas by name; each getter builds its schema on first use. */
export function components() {
  return {
    Error: errorEnvelope,
    HealthOk: healthOk,
    HealthErrors: healthErrors,
    PreviewRequest: previewBody,
    PreviewResponse: previewReplySchema,
    Job: jobSchema,
    Run: runSchema,
    JobCreate: createJobInput,
    JobEdit: editJobInput,
    JobList: jobListSchema,
    JobReply: jobReply,
    RunList: runList,
    EmptyBody: emptyBody,
    ChatSettings: chatSettingsSchema,
    SettingsUpdate: settingsBody,
    ZoneChange: zoneChangeSchema,
    Transcript: transcriptSchema,
    MessageRequest: messageBody,
    MessageAccepted: messageAccepted,
    PressAnswer: pressAnswer,
    TestRequest: dryRunBody,
    RunnerOutcome: outcomeSchema,
    ScheduleRequest: scheduleBody,
    SetTimezoneRequest: setTimezoneBody,
    ToolReply: toolReplySchema,
    PromptMessage: promptMessageSchema,
    GateOffer: gateOfferReply,
    GateNextRequest: gateTokenArgs,
    GateNext: gateNextReply,
    GateSettleRequest: gateSettleArgs,
    DeliverRequest: deliverArgs,
    DeliverReply: deliverReply,
    TelegramUpdate: updateSchema,
    WebhookAck: webhookAck,
  } satisfies Record<string, () => z.ZodType>;
}
export type ComponentName = keyof ReturnType<typeof components>;

/** Who may call a route: a bearer token (DESIGN §2), nobody in particular, or a signed caller. */
export type Access = "admin" | "tools" | "public" | "runner" | "telegram";

export type Operation = {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** The OpenAPI form (`{chatId}`); `{chatId}` and `{id}` get their parameters and their 400 and 404. */
  path: string;
  summary: string;
  description?: string;
  access: Access;
  /** The request body's schema; with one, malformed JSON and the like are 400 and a body over the limit 413. */
  body?: ComponentName;
  /** The size a body may have, when it is not the edge's 64 KiB. */
  limit?: string;
  /** Input problems are answered in the 200 reply (the tools, the webhook), never as 400. */
  answersInput?: true;
  /** Served even while a var is invalid (no 500 `config_error`). */
  alwaysServed?: true;
  query?: () => z.ZodObject;
  /** The answers that are not errors: status, description, schema. */
  answers: [status: number, description: string, schema?: ComponentName][];
  /** Why this route gives an error code, beyond the reasons every route of its kind has. */
  errors?: Partial<Record<ErrorCode, string>>;
};

/** The reply of a job action: the job after it. */
const jobAnswer = (description: string): Operation["answers"] => [[200, description, "JobReply"]];
const RULES = "a rule of DESIGN §3 or §4 (the message says which, e.g. `Give exactly one of \"at\", \"cron\" or \"delay\", such as \"cron\": \"0 8 * * 1-5\" or \"delay\": \"PT20M\".`)";

/** Every operation the app serves, in the order a reader meets them. */
export function operations(): Operation[] {
  const chat = "/admin/chats/{chatId}";
  const job = `${chat}/jobs/{id}`;
  return [
    {
      method: "get",
      path: "/healthz",
      summary: "Health: the modes the Worker runs in, or every configuration error.",
      access: "public",
      answers: [
        [200, "Configured.", "HealthOk"],
        [503, "One or more vars are invalid.", "HealthErrors"],
      ],
    },
    {
      method: "get",
      path: "/admin/openapi.json",
      summary: "This document.",
      access: "admin",
      alwaysServed: true,
      answers: [[200, "The OpenAPI 3.1 document."]],
    },
    {
      method: "post",
      path: "/admin/preview",
      summary: "The next occurrences of a schedule, with notes on DST-moved ones and a description.",
      access: "admin",
      body: "PreviewRequest",
      answers: [[200, "The preview.", "PreviewResponse"]],
      errors: { bad_request: `not exactly one of cron, at and delay, an unknown zone, a \`from\` that is not an RFC 3339 instant, or ${RULES}` },
    },
    {
      method: "delete",
      path: chat,
      summary: "Erase the chat: all its jobs, runs, settings and its alarm, and its rows in the D1 directory.",
      access: "admin",
      body: "EmptyBody",
      answers: [[204, "Erased (also when the chat was never used)."]],
    },
    {
      method: "get",
      path: `${chat}/settings`,
      summary: "The chat's settings: its zone, or DEFAULT_TIMEZONE.",
      access: "admin",
      answers: [[200, "The settings.", "ChatSettings"]],
    },
    {
      method: "put",
      path: `${chat}/settings`,
      summary: "Set the chat's zone (null: back to DEFAULT_TIMEZONE); cron jobs follow it, one-offs keep their instant.",
      access: "admin",
      body: "SettingsUpdate",
      answers: [[200, "The new settings, the counts and the reply of DESIGN §4.", "ZoneChange"]],
      errors: { bad_request: 'an unknown zone (`Unknown time zone "Mars/Olympus". …`)' },
    },
    {
      method: "get",
      path: `${chat}/jobs`,
      summary: "The chat's jobs, with its zone and the current instant.",
      access: "admin",
      query: jobFilter,
      answers: [[200, "The jobs.", "JobList"]],
      errors: { bad_request: "an unknown category or a query over 200 characters" },
    },
    {
      method: "post",
      path: `${chat}/jobs`,
      summary: "Create a job (createdBy `admin`).",
      access: "admin",
      body: "JobCreate",
      answers: [[201, "Created.", "JobReply"]],
      errors: { bad_request: `${RULES}, or the chat's job limit (\`This chat already has 50 jobs (the limit); cancel one first.\`)` },
    },
    { method: "get", path: job, summary: "One job.", access: "admin", answers: jobAnswer("The job.") },
    {
      method: "patch",
      path: job,
      summary: "Edit a job; applies from its next occurrence and never touches a run in flight.",
      access: "admin",
      body: "JobEdit",
      answers: jobAnswer("The edited job."),
      errors: { bad_request: RULES },
    },
    {
      method: "delete",
      path: job,
      summary: "Cancel (remove) a job; an agent run in progress is not aborted.",
      access: "admin",
      body: "EmptyBody",
      answers: [[204, "Cancelled."]],
    },
    {
      method: "post",
      path: `${job}/run`,
      summary: "Run the job now: a manual run, nothing rescheduled or deleted.",
      access: "admin",
      body: "EmptyBody",
      answers: jobAnswer("The job after the action."),
      errors: { conflict: "a run of the job is in flight (`Job <id> is still running.`)" },
    },
    {
      method: "post",
      path: `${job}/pause`,
      summary: "Pause the job: kept, with nextRunAt null.",
      access: "admin",
      body: "EmptyBody",
      answers: jobAnswer("The job after the action."),
    },
    {
      method: "post",
      path: `${job}/resume`,
      summary: "Resume the job: a cron job from now; a one-off at its time, at once when that has passed.",
      access: "admin",
      body: "EmptyBody",
      answers: jobAnswer("The job after the action."),
    },
    {
      method: "get",
      path: `${job}/runs`,
      summary: `The job's last ${LIMITS.runsKept} runs, newest first.`,
      access: "admin",
      answers: [[200, "The runs.", "RunList"]],
    },
    {
      method: "post",
      path: `${chat}/test`,
      summary: "Run a watcher command once through the runner (a dry run, at most 60 s) and answer its outcome; nothing is stored, scheduled or delivered.",
      description:
        "The command runs as a watcher's would (`/bin/sh -c`, the chat's workspace and zone, `CUCKOO_JOB_ID=test`), with its timeout cut to 60 s. Its output and stderr tail are redacted: every secret the Worker holds is `[REDACTED]`.",
      access: "admin",
      body: "TestRequest",
      answers: [
        [
          200,
          "The runner's outcome. A runner that cannot be reached (or refuses the request) gives status `failed`, exitCode null and stderrTail `did not start: …` with the reason.",
          "RunnerOutcome",
        ],
      ],
      errors: {
        bad_request: 'a command or timeout out of range (`"command" must be a /bin/sh script of 1 to 8000 characters, such as "curl -s https://example.com/price".`)',
        not_configured: "no runner is configured (`Testing a watcher needs the runner: … Nothing was run.`)",
      },
    },
    {
      method: "get",
      path: `${chat}/messages`,
      summary: "The chat's transcript, oldest first (the last 500 kept).",
      access: "admin",
      query: transcriptQuery,
      answers: [[200, "The transcript.", "Transcript"]],
      errors: { bad_request: '`"limit" must be a whole number from 1 to 500.`' },
    },
    {
      method: "post",
      path: `${chat}/messages`,
      summary: "Transcript mode only: a message from the chat's user (`text`, routed like a Telegram message; commands work), or a button pressed (`press`).",
      access: "admin",
      body: "MessageRequest",
      answers: [
        [202, "A message accepted; the prompt's key is `m:<messageId>`.", "MessageAccepted"],
        [200, "A button pressed: the notice Telegram would show. A message it causes is a bot entry in the transcript.", "PressAnswer"],
      ],
      errors: {
        bad_request: "neither or both of `text` and `press`, or `press` data that is no button of this chat",
        conflict: "the bot is connected to Telegram; write to it there",
      },
    },
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
    {
      method: "post",
      path: "/tools/{chatId}/gate/offer",
      summary: "Offer a prompt (the queue message itself) to the chat's run gate.",
      access: "tools",
      body: "PromptMessage",
      answers: [[200, "`duplicate`, `queued`, or `run` with the token that holds the gate.", "GateOffer"]],
      errors: { bad_request: 'a message whose "chatId" is not the path\'s, or a body that is not a v1 prompt message' },
    },
    {
      method: "post",
      path: "/tools/{chatId}/gate/next",
      summary: "The holder's next prompt; null releases the gate.",
      access: "tools",
      body: "GateNextRequest",
      answers: [[200, "The next prompt or null.", "GateNext"]],
    },
    {
      method: "post",
      path: "/tools/{chatId}/gate/settle",
      summary: "The holder is done with a prompt; a job's key settles its run.",
      access: "tools",
      body: "GateSettleRequest",
      answers: [[204, "Settled."]],
      errors: { conflict: "the token no longer holds the gate and the job's reply was not delivered" },
    },
    {
      method: "post",
      path: "/tools/{chatId}/deliver",
      summary: "Deliver a reply to the chat; a key seen before is a no-op.",
      access: "tools",
      body: "DeliverRequest",
      answers: [[200, "Whether this call delivered it.", "DeliverReply"]],
      errors: { bad_request: "a chat the bot may not serve (ALLOWED_USER_IDS); nothing is delivered" },
    },
    {
      method: "post",
      path: "/telegram/webhook",
      summary: "Telegram's webhook (for Telegram, not for people): the update goes to the chat's object.",
      description:
        "Only private chats of users in ALLOWED_USER_IDS are served; every other update, and one that cannot be read, is acknowledged and leaves no state. Replies go through the Bot API, never in this answer. Telegram sends more fields than the schema lists; they are ignored.",
      access: "telegram",
      body: "TelegramUpdate",
      answersInput: true,
      answers: [[200, "Acknowledged, whatever the update held.", "WebhookAck"]],
    },
    {
      method: "post",
      path: "/runner/callback/{chatId}",
      summary: "The runner's callback: the outcome of a watcher's run, signed with RUNNER_SECRET (for the runner, not for people).",
      description:
        "No bearer token: the request is signed like every runner request (DESIGN §8, see the runnerSignature scheme). It answers 204 for any run id, also an unknown, settled or cancelled one, so the runner stops retrying; only a run still waiting for the runner takes the outcome. A run id is `<chatId>:<jobId>:<dueAt epoch ms>`. In container mode the runner calls back on an internal host instead, which the Container class's outbound handler routes to the same checks and the chat's object, so no public URL is needed, and this public route answers 404.",
      access: "runner",
      body: "RunnerOutcome",
      limit: "1 MiB",
      answers: [[204, "Received, whatever the run id."]],
      errors: {
        bad_request: "the outcome is another chat's (`The outcome is for chat 42, not 123456789.`)",
        unauthorized: "the signature is missing, wrong or more than 300 s off, or RUNNER_SECRET is unset; nothing changes",
        not_found: "the runner runs in the container (callbacks come only through its outbound handler)",
        config_error: "a runner var is invalid (the message names it)",
      },
    },
  ];
}
