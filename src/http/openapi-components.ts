/**
 * @module The OpenAPI document's named component schemas (each one a zod schema of `src/schemas/`) and the
 * shape of an operation's row (docs/api.md). Each route module keeps the rows of its routes beside them,
 * `openapi-routes.ts` lists them, `openapi.ts` builds the document (docs/design/0018-openapi.md).
 */

import type * as z from "zod";
import { promptMessageSchema } from "../contracts/prompt-message";
import { dryRunBody } from "../runner-client/dry-run";
import { deliverArgs, deliverReply, gateNextReply, gateOfferReply, gateSettleArgs, gateTokenArgs } from "../schemas/agent";
import { appLoginBody, appSessionReply } from "../schemas/app";
import { calendarAddressSchema, calendarStateSchema } from "../schemas/calendar";
import {
  agendaAnswer,
  agendaBody,
  chatSettingsSchema,
  messageAccepted,
  messageBody,
  modelAnswer,
  modelBody,
  pressAnswer,
  quietBody,
  settingsBody,
  transcriptSchema,
  zoneChangeSchema,
} from "../schemas/chats";
import { emptyBody } from "../schemas/common";
import { chatListSchema, directoryJobListSchema, rebuildBody, rebuildReplySchema } from "../schemas/directory";
import { doctorReport } from "../schemas/doctor";
import { type ErrorCode, errorEnvelope } from "../schemas/errors";
import { healthErrors, healthOk } from "../schemas/health";
import { hookAcceptedSchema, hookAddressesSchema, jobCreatedSchema } from "../schemas/hooks";
import { importBody, importReply } from "../schemas/import";
import { createJobInput, editJobInput, jobListSchema, jobReply, jobSchema, runList, runSchema } from "../schemas/jobs";
import { memoryCreateInput, memoryListReply, memoryRecordSchema, memoryReply, memoryUpdateInput } from "../schemas/memory";
import { previewBody, previewReplySchema } from "../schemas/preview";
import { outcomeSchema } from "../schemas/runner";
import { loginBody, sessionReplySchema, sessionStatusSchema } from "../schemas/session";
import { webhookAck } from "../schemas/telegram";
import { scheduleBody, setTimezoneBody, toolReplySchema } from "../schemas/tools";
import { zonesReply } from "../schemas/zones";
import { updateSchema } from "../telegram/update";

/** The document's component schemas by name; each getter builds its schema on first use. */
export function components() {
  return {
    Error: errorEnvelope,
    HealthOk: healthOk,
    HealthErrors: healthErrors,
    DoctorReport: doctorReport,
    PreviewRequest: previewBody,
    PreviewResponse: previewReplySchema,
    Job: jobSchema,
    Run: runSchema,
    JobCreate: createJobInput,
    JobEdit: editJobInput,
    JobList: jobListSchema,
    JobReply: jobReply,
    JobCreated: jobCreatedSchema,
    HookAddresses: hookAddressesSchema,
    CalendarAddress: calendarAddressSchema,
    CalendarState: calendarStateSchema,
    HookAccepted: hookAcceptedSchema,
    RunList: runList,
    EmptyBody: emptyBody,
    ChatSettings: chatSettingsSchema,
    SettingsUpdate: settingsBody,
    ZoneChange: zoneChangeSchema,
    QuietHours: quietBody,
    ChatModel: modelAnswer,
    Agenda: agendaAnswer,
    AgendaUpdate: agendaBody,
    ChatModelUpdate: modelBody,
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
    MemoryRecord: memoryRecordSchema,
    MemoryCreate: memoryCreateInput,
    MemoryUpdate: memoryUpdateInput,
    MemoryList: memoryListReply,
    MemoryReply: memoryReply,
    ImportRequest: importBody,
    ImportReply: importReply,
    ChatList: chatListSchema,
    DirectoryJobList: directoryJobListSchema,
    RebuildRequest: rebuildBody,
    RebuildReply: rebuildReplySchema,
    SessionRequest: loginBody,
    SessionReply: sessionReplySchema,
    SessionStatus: sessionStatusSchema,
    AppSessionRequest: appLoginBody,
    AppSessionReply: appSessionReply,
    ZonesReply: zonesReply,
  } satisfies Record<string, () => z.ZodType>;
}
export type ComponentName = keyof ReturnType<typeof components>;

/** The 400 of a route that checks a schedule by the rules of jobs and time, as the rows say it. */
export const JOB_RULES =
  "a rule of docs/api.md#jobs or docs/time.md (the message says which, e.g. " +
  '`Give exactly one of "at", "cron", "delay" or "rrule" (with "start"), such as "cron": "0 8 * * 1-5" or "delay": "PT20M".`)';

/** Who may call a route: a bearer token (docs/api.md#access), nobody in particular, or a signed caller. */
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
  /** The body is any JSON or text (a hook's input), not a schema's. */
  anyBody?: true;
  /** The size a body may have, when it is not the edge's 64 KiB. */
  limit?: string;
  /** Input problems are answered in the 200 reply (the tools, the webhook), never as 400. */
  answersInput?: true;
  /** The answer is an HTML page (`GET /app`), not JSON. */
  html?: true;
  /** Served even while a var is invalid (no 500 `config_error`). */
  alwaysServed?: true;
  query?: () => z.ZodObject;
  /** The answers that are not errors: status, description, schema. */
  answers: [status: number, description: string, schema?: ComponentName][];
  /** Why this route gives an error code, beyond the reasons every route of its kind has. */
  errors?: Partial<Record<ErrorCode, string>>;
};
