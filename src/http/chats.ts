/**
 * @module The admin chat routes (`/admin/chats/:chatId…`, docs/time.md, docs/telegram.md, docs/agent.md, docs/api.md): the chat's settings (its zone),
 * its quiet hours, erasing a chat (its Durable Object and its D1 directory rows), the transcript, and the job and memory
 * routes beneath.
 */
import { Hono } from "hono";
import { dryRun, dryRunBody } from "../runner-client/dry-run";
import {
  type AgendaAnswer,
  agendaBody,
  type ChatSettings,
  type ModelAnswer,
  messageBody,
  modelBody,
  type PressAnswer,
  type QuietAnswer,
  quietBody,
  settingsBody,
  type Transcript,
  transcriptQuery,
  type ZoneChange,
} from "../schemas/chats";
import { renderTelegramHtml } from "../telegram/render";
import { placeZone } from "../words";
import { readJson } from "./body";
import { chatCalendar } from "./calendar";
import { chatIdOf, chatStub, checkChatId, noBody, unwrap } from "./chat-rpc";
import type { AppEnv } from "./context";
import { ApiError } from "./errors";
import { jobs } from "./jobs";
import { memory } from "./memory";
import type { Operation } from "./openapi-components";
import { readQuery } from "./query";

export const chats = new Hono<AppEnv>();

chats.get("/:chatId/settings", async (c) => {
  const chatId = chatIdOf(c);
  const body: ChatSettings = unwrap(await chatStub(c.env, chatId).getSettings(chatId));
  return c.json(body, 200);
});

chats.put("/:chatId/settings", async (c) => {
  const chatId = chatIdOf(c);
  const { timeZone } = await readJson(c, settingsBody());
  const body: ZoneChange = unwrap(await chatStub(c.env, chatId).setTimeZone(chatId, timeZone === null ? null : await zoneOfPlace(timeZone)));
  return c.json(body, 200);
});

/** Quiet hours (docs/telegram.md): `{ quiet: { from, to } | null }`, read and written in the chat's zone. */
chats.get("/:chatId/quiet", async (c) => {
  const chatId = chatIdOf(c);
  const body: QuietAnswer = unwrap(await chatStub(c.env, chatId).getQuiet(chatId));
  return c.json(body, 200);
});

chats.put("/:chatId/quiet", async (c) => {
  const chatId = chatIdOf(c);
  const input = await readJson(c, quietBody());
  const body: QuietAnswer = unwrap(await chatStub(c.env, chatId).setQuiet(chatId, input));
  return c.json(body, 200);
});

/** The daily agenda (docs/telegram.md#agenda): `{ agenda: "08:00" | null }`, with when the next is sent. */
chats.get("/:chatId/agenda", async (c) => {
  const chatId = chatIdOf(c);
  const body: AgendaAnswer = unwrap(await chatStub(c.env, chatId).getAgenda(chatId));
  return c.json(body, 200);
});

chats.put("/:chatId/agenda", async (c) => {
  const chatId = chatIdOf(c);
  const { agenda } = await readJson(c, agendaBody());
  const body: AgendaAnswer = unwrap(await chatStub(c.env, chatId).setAgenda(chatId, agenda));
  return c.json(body, 200);
});

/** The chat's model (docs/agent.md#models): `{ model }` its own (null: LLM_MODEL), with what it runs on and the choices. */
chats.get("/:chatId/model", async (c) => {
  const chatId = chatIdOf(c);
  const body: ModelAnswer = unwrap(await chatStub(c.env, chatId).getModel(chatId));
  return c.json(body, 200);
});

chats.put("/:chatId/model", async (c) => {
  const chatId = chatIdOf(c);
  const { model } = await readJson(c, modelBody());
  const body: ModelAnswer = unwrap(await chatStub(c.env, chatId).setModel(chatId, model));
  return c.json(body, 200);
});

/**
 * The zone a `timeZone` names as `/timezone` reads it (a city or country with one zone: `Berlin`); a place with
 * several zones is 400 naming them (`GET /admin/zones` lists them with labels); anything else (an unknown name,
 * a bare offset) is passed on for the zone rules' sentence.
 */
async function zoneOfPlace(input: string): Promise<string> {
  const place = await placeZone(input, Date.now());
  if (place.kind === "zone") return place.zone;
  if (place.kind === "unknown" || place.offset) return input;
  const shown = place.zones.slice(0, 5).join(", ") + (place.zones.length > 5 ? ", …" : "");
  throw new ApiError(
    "bad_request",
    `"${input.slice(0, 60)}" has more than one time zone (${shown}); give one of them, ` +
      `or see GET /admin/zones?place=${encodeURIComponent(input.slice(0, 60))}.`,
  );
}

/**
 * Erases the chat: the Durable Object drops all its state and its alarm, then the chat's rows leave the D1
 * directory, written as every directory write is (the object's, within its time limit). The directory is only
 * a projection, so it is cleared after the source of truth; a failure in between leaves stale rows that a
 * repeated DELETE removes.
 */
chats.delete("/:chatId", async (c) => {
  const chatId = chatIdOf(c);
  await noBody(c);
  const stub = chatStub(c.env, chatId);
  unwrap(await stub.erase(chatId));
  if (!(await stub.rebuildDirectory(chatId)))
    throw new Error(`chat ${chatId} was erased, but its D1 directory rows could not be removed; send the DELETE again`);
  return c.body(null, 204);
});

/** `?limit=`: a whole number written as digits (no sign, exponent or hex), else the schema's sentence. */
chats.get("/:chatId/messages", checkChatId, readQuery(transcriptQuery), async (c) => {
  const chatId = chatIdOf(c);
  const { limit } = c.req.valid("query");
  const transcript = unwrap(await chatStub(c.env, chatId).messages(chatId, limit));
  // A bot entry as Telegram shows it, rendered by the rules messages are sent with (the page shows this HTML).
  const messages = transcript.messages.map((e) => (e.role === "bot" ? { ...e, html: renderTelegramHtml(e.text) } : e));
  const body: Transcript = { ...transcript, messages };
  return c.json(body, 200);
});

/**
 * Transcript mode only (docs/api.md#access): the text becomes a private-chat message from the chat's user, routed like
 * a Telegram message, `202 { messageId }`; or a button of a bot entry is pressed (`press`, its data), `200 {
 * answer }`. With a bot token the chat lives in Telegram: 409.
 */
chats.post("/:chatId/messages", async (c) => {
  const chatId = chatIdOf(c);
  if (c.var.config.telegram.mode !== "off") {
    throw new ApiError("conflict", "The bot is connected to Telegram; write to it there.");
  }
  const body = await readJson(c, messageBody());
  if (body.press !== undefined) {
    const answer: PressAnswer = unwrap(await chatStub(c.env, chatId).pressButton(chatId, body.press));
    return c.json(answer, 200);
  }
  return c.json(unwrap(await chatStub(c.env, chatId).postUserMessage(chatId, body.text!, body.replyTo ?? null)), 202);
});

/**
 * A watcher command run once through the runner (dry run, at most 60 s): the runner's outcome, redacted;
 * nothing stored. Without a runner: 503 `not_configured`.
 */
chats.post("/:chatId/test", async (c) => {
  const chatId = chatIdOf(c);
  const input = await readJson(c, dryRunBody());
  const settings = unwrap(await chatStub(c.env, chatId).getSettings(chatId));
  const result = await dryRun(c.env, chatId, settings.timeZone, input);
  if (!result.ok) throw new ApiError(result.code, result.message);
  return c.json(result.outcome, 200);
});

chats.route("/:chatId/jobs", jobs);
chats.route("/:chatId/calendar", chatCalendar);
chats.route("/:chatId/memory", memory);

/** What the OpenAPI document says of these routes (the jobs' and memory's are in their modules): `openapi.ts` builds it, a test checks it against the app. */
export const chatOperations = (): Operation[] => [
  {
    method: "get",
    path: "/admin/chats/{chatId}/settings",
    summary: "The chat's settings: its zone, or DEFAULT_TIMEZONE.",
    access: "admin",
    answers: [[200, "The settings.", "ChatSettings"]],
  },
  {
    method: "put",
    path: "/admin/chats/{chatId}/settings",
    summary:
      "Set the chat's zone (null: back to DEFAULT_TIMEZONE), by name or by a place that names one zone (Berlin); " +
      "recurring jobs follow it, one-offs keep their instant.",
    access: "admin",
    body: "SettingsUpdate",
    answers: [[200, "The new settings, the counts and the reply of docs/time.md.", "ZoneChange"]],
    errors: {
      bad_request: 'an unknown zone (`Unknown time zone "Mars/Olympus". …`), or a place with several zones (naming them; GET /admin/zones lists them)',
    },
  },
  {
    method: "get",
    path: "/admin/chats/{chatId}/quiet",
    summary: "The chat's quiet hours, in its zone, or null: inside them every message goes out without a notification sound.",
    access: "admin",
    answers: [[200, "The quiet hours.", "QuietHours"]],
  },
  {
    method: "put",
    path: "/admin/chats/{chatId}/quiet",
    summary: "Set the chat's quiet hours (`to` before `from` runs across midnight), or clear them with null; nothing is ever held back.",
    access: "admin",
    body: "QuietHours",
    answers: [[200, "The quiet hours now.", "QuietHours"]],
    errors: { bad_request: '`"quiet.from" must be a time of day as HH:mm, such as "22:00".`, or the same time for both ends' },
  },
  {
    method: "get",
    path: "/admin/chats/{chatId}/agenda",
    summary: "The chat's daily agenda: the time of day (in its zone) when the rest of the day's runs are sent, or null; and when the next is.",
    access: "admin",
    answers: [[200, "The agenda.", "Agenda"]],
  },
  {
    method: "put",
    path: "/admin/chats/{chatId}/agenda",
    summary: "Set the daily agenda's time of day (`HH:mm` in the chat's zone), or stop it with null. One message a day, nothing on a day with no runs.",
    access: "admin",
    body: "AgendaUpdate",
    answers: [[200, "The agenda now.", "Agenda"]],
    errors: { bad_request: '`"agenda" must be a time of day as HH:mm, such as "08:00", or null for none.`' },
  },
  {
    method: "get",
    path: "/admin/chats/{chatId}/model",
    summary: "The chat's model: its own (null: the bot's default, LLM_MODEL), the one its turns run on, and the models it may choose.",
    access: "admin",
    answers: [[200, "The chat's model.", "ChatModel"]],
  },
  {
    method: "put",
    path: "/admin/chats/{chatId}/model",
    summary: "Choose the chat's model (LLM_MODEL or one of LLM_MODELS), or null for the bot's default; a job's own model wins over it.",
    access: "admin",
    body: "ChatModelUpdate",
    answers: [[200, "The chat's model now.", "ChatModel"]],
    errors: { bad_request: '`"gpt-5" is not one of this bot\'s models; choose gpt-4o-mini or gpt-4o.`' },
  },
  {
    method: "delete",
    path: "/admin/chats/{chatId}",
    summary: "Erase the chat: all its jobs, runs, settings and its alarm, and its rows in the D1 directory.",
    access: "admin",
    body: "EmptyBody",
    answers: [[204, "Erased (also when the chat was never used)."]],
  },
  {
    method: "get",
    path: "/admin/chats/{chatId}/messages",
    summary: "The chat's transcript, oldest first (the last 500 kept).",
    access: "admin",
    query: transcriptQuery,
    answers: [[200, "The transcript.", "Transcript"]],
    errors: { bad_request: '`"limit" must be a whole number from 1 to 500.`' },
  },
  {
    method: "post",
    path: "/admin/chats/{chatId}/messages",
    summary:
      "Transcript mode only: a message from the chat's user (`text`, routed like a Telegram message; commands work; `replyTo` an entry, as a reply), " +
      "or a button pressed (`press`).",
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
    path: "/admin/chats/{chatId}/test",
    summary: "Run a watcher command once through the runner (a dry run, at most 60 s) and answer its outcome; nothing is stored, scheduled or delivered.",
    description:
      "The command runs as a watcher's would (`/bin/sh -c`, the chat's workspace and zone, `CUCKOO_JOB_ID=test`), with its timeout cut to 60 s. " +
      "Its output and stderr tail are redacted: every secret the Worker holds is `[REDACTED]`.",
    access: "admin",
    body: "TestRequest",
    answers: [
      [
        200,
        "The runner's outcome. A runner that cannot be reached (or refuses the request) gives status `failed`, " +
          "exitCode null and stderrTail `did not start: …` with the reason.",
        "RunnerOutcome",
      ],
    ],
    errors: {
      bad_request:
        'a command or timeout out of range (`"command" must be a /bin/sh script of 1 to 8000 characters, such as "curl -s https://example.com/price".`)',
      not_configured: "no runner is configured (`Testing a watcher needs the runner: … Nothing was run.`)",
    },
  },
];
