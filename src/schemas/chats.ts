/**
 * @module A chat's own shapes (docs/time.md, docs/telegram.md, docs/agent.md, docs/api.md): its settings and the zone change, its quiet hours, the
 * transcript and the messages written to it in transcript mode.
 */
import * as z from "zod";
import { lazy } from "../lazy";
import type { Result } from "../result";
import { QUIET_TIME } from "../time";
import { chatId, instant } from "./common";

const ZONE = `"timeZone" must be an IANA zone name such as "Europe/Berlin", or null for the default zone.`;
const TEXT = `"text" must be a string of 1 to 4096 characters, such as "What is on my list today?".`;
const LIMIT = `"limit" must be a whole number from 1 to 500.`;

/** `GET …/settings`: the chat's zone, or DEFAULT_TIMEZONE. */
export const chatSettingsSchema = lazy(() =>
  z.strictObject({ chatId: chatId(), timeZone: z.string(), isDefault: z.boolean().meta({ description: "The chat follows DEFAULT_TIMEZONE." }) }),
);
export type ChatSettings = z.infer<ReturnType<typeof chatSettingsSchema>>;

/**
 * The zone a chat's settings name, or UTC should its object refuse them (a chat the edge accepted never is):
 * what the tools and the commands put their times in.
 */
export const zoneOrUtc = (settings: Result<Pick<ChatSettings, "timeZone">>): string => (settings.ok ? settings.value.timeZone : "UTC");

/** `PUT …/settings`: `{ timeZone: string | null }`, null resetting the chat to DEFAULT_TIMEZONE. */
export const settingsBody = lazy(() =>
  z.strictObject({
    timeZone: z
      .string({ error: ZONE })
      .nullable()
      .meta({
        description: "An IANA name (Windows ids accepted), a city or country that names one zone (`Berlin`), or null for the default.",
        examples: ["Asia/Tokyo", "Berlin"],
      }),
  }),
);

/** The answer of a zone change: the new settings, the counts and the reply of docs/time.md. */
export const zoneChangeSchema = lazy(() =>
  chatSettingsSchema().extend({
    cronJobs: z.number().int().meta({ description: "Recurring jobs, which now follow the zone." }),
    oneOffs: z.number().int().meta({ description: "One-off jobs, which keep their instant." }),
    message: z.string().meta({
      examples: [
        "Time zone set to Asia/Tokyo (UTC+09:00). Now 27 Sep 02:15. " +
          "2 recurring jobs now follow this zone; 1 one-off job keeps its time (now 27 Sep 16:00 here).",
      ],
    }),
  }),
);
export type ZoneChange = z.infer<ReturnType<typeof zoneChangeSchema>>;

const QUIET = `"quiet" must be { "from": "22:00", "to": "07:00" } (times of day in the chat's zone; to before from runs across midnight), or null for none.`;
const quietEnd = (end: "from" | "to", example: string) => {
  const sentence = `"quiet.${end}" must be a time of day as HH:mm, such as "${example}".`;
  return z
    .string({ error: sentence })
    .regex(QUIET_TIME, { error: sentence })
    .meta({ examples: [example] });
};

/** Quiet hours (docs/telegram.md): `from` and `to`, wall times in the chat's zone; a window with `to` before `from` runs across midnight. */
export const quietHoursSchema = lazy(() =>
  z
    .strictObject({ from: quietEnd("from", "22:00"), to: quietEnd("to", "07:00") }, { error: QUIET })
    .refine((q) => q.from !== q.to, { error: `Quiet hours must end at another time than they start, such as { "from": "22:00", "to": "07:00" }.` })
    .meta({ description: "Inside them every message goes out without a notification sound; nothing is held back." }),
);

/** `GET`/`PUT …/quiet`: the chat's quiet hours, or null for none (the body of the PUT and the answer of both). */
/** `GET/PUT …/model` (docs/agent.md#models): the chat's own model (null: LLM_MODEL's), the one its turns run on, the choices. */
export const modelBody = lazy(() =>
  z.strictObject({
    model: z
      .string({ error: `"model" must be one of the bot's models (LLM_MODEL, LLM_MODELS), or null for the bot's default.` })
      .nullable()
      .meta({ description: "The chat's own model, or null: the bot's default (LLM_MODEL).", examples: ["gpt-4o"] }),
  }),
);
export const modelAnswer = lazy(() =>
  modelBody().extend({
    effective: z.string().nullable().meta({ description: "The model the chat's turns run on (null: the bot runs no model)." }),
    choices: z.array(z.string()).meta({ description: "The models a chat or a job may choose: LLM_MODEL, then LLM_MODELS." }),
  }),
);
export type ModelAnswer = z.infer<ReturnType<typeof modelAnswer>>;

/** `GET/PUT …/agenda` (docs/telegram.md#agenda): the daily agenda's time of day in the chat's zone, or null for none. */
export const agendaBody = lazy(() =>
  z.strictObject({
    agenda: z
      .string({ error: `"agenda" must be a time of day as HH:mm, such as "08:00", or null for none.` })
      .nullable()
      .meta({ description: "When the day's runs are sent, `HH:mm` in the chat's zone; null: no agenda.", examples: ["08:00"] }),
  }),
);
export const agendaAnswer = lazy(() => agendaBody().extend({ next: instant().nullable().meta({ description: "When the next agenda is sent (null: none)." }) }));
export type AgendaAnswer = z.infer<ReturnType<typeof agendaAnswer>>;

export const quietBody = lazy(() => z.strictObject({ quiet: quietHoursSchema().nullable() }, { error: QUIET }));
export type QuietAnswer = z.infer<ReturnType<typeof quietBody>>;

/** A `press` that cannot be a button's data (the chat's object says the same of one that names no button it sent). */
export const PRESS = `"press" must be the callback data of a button in the transcript, 1 to 64 characters, such as "y:k7m2qabc".`;
const ONE_OF = `Give exactly one of "text" (a message) or "press" (a button's data), such as {"text": "/jobs"}.`;
/** A `replyTo` that is no entry's id: not an id at all, or one the transcript does not (or no longer) hold. */
export const REPLY_TO = `"replyTo" must be the id of an entry in this chat's transcript (it keeps the last 500), such as "12".`;
const REPLY_TO_TEXT = `"replyTo" goes with "text": a message written in reply to an entry, such as {"text": "/skip", "replyTo": "12"}.`;

/**
 * `POST …/messages`: what the chat's user does, in transcript mode: writes `text` (in reply to the entry
 * `replyTo`, as a reply in Telegram), or presses a button of a bot entry (`press`, the button's `data`).
 */
export const messageBody = lazy(() =>
  z
    .strictObject({
      text: z
        .string({ error: TEXT })
        .min(1, { error: TEXT })
        .max(4096, { error: TEXT })
        .optional()
        .meta({ description: "A message, as the chat's user writes it." }),
      replyTo: z
        .string({ error: REPLY_TO })
        .regex(/^\d{1,15}$/, { error: REPLY_TO })
        .optional()
        .meta({
          description:
            "With `text`: the id of the transcript entry it replies to, as a reply in Telegram. " +
            "A reply to a job's message names its job (`/skip`, `/cancel`, `/edit 2h` need no id); " +
            "a message to the agent carries the entry's text, quoted; `/remind 2h` alone reminds of it.",
          examples: ["12"],
        }),
      press: z
        .string({ error: PRESS })
        .min(1, { error: PRESS })
        .max(64, { error: PRESS })
        .optional()
        .meta({ description: "Presses the button with this `data` (a bot entry's `buttons`), as a tap in Telegram does.", examples: ["y:k7m2qabc"] }),
    })
    .refine((body) => (body.text === undefined) !== (body.press === undefined), { error: ONE_OF })
    .refine((body) => body.replyTo === undefined || body.text !== undefined, { error: REPLY_TO_TEXT }),
);

/** The answer of `POST …/messages`: 202 with the id the prompt's key `m:<messageId>` uses. */
export const messageAccepted = lazy(() => z.strictObject({ messageId: z.string().meta({ examples: ["12"] }) }));

/**
 * The answer of a press: what Telegram would show as the notice at the top of the chat. A message the press
 * causes (a created job, a zone set) is a bot entry in the transcript.
 */
export const pressAnswer = lazy(() => z.strictObject({ answer: z.string().meta({ examples: ["Created k7m2q."] }) }));
export type PressAnswer = z.infer<ReturnType<typeof pressAnswer>>;

/**
 * An inline button under a bot entry: its label and the callback data a press sends (≤ 64 bytes), the https
 * URL of a Mini App it opens (`webApp`: /jobs's Open scheduler in a private chat, issue 18), or a link it opens
 * (`url`: the same in a group, where Telegram allows no `web_app` button).
 */
export const buttonSchema = lazy(() =>
  z.union([
    z.strictObject({ text: z.string(), data: z.string().max(64) }),
    z.strictObject({
      text: z.string(),
      webApp: z.string().meta({ description: "Opens this Mini App (the Scheduler) in Telegram; not pressable through the API." }),
    }),
    z.strictObject({
      text: z.string(),
      url: z.string().meta({
        description:
          "Opens this link: in a group, the Scheduler Mini App's direct link (`https://t.me/<bot>/<app>?startapp=<chat id>`); not pressable through the API.",
      }),
    }),
  ]),
);
/** Rows of buttons, as Telegram lays them out. */
export const buttonRowsSchema = lazy(() => z.array(z.array(buttonSchema())));
export type ButtonRows = z.infer<ReturnType<typeof buttonRowsSchema>>;

/** `GET …/messages?limit=`: how many of the last entries; the route reads the query's text as a whole number first. */
export const transcriptQuery = lazy(() =>
  z.strictObject({
    limit: z
      .number({ error: LIMIT })
      .int({ error: LIMIT })
      .min(1, { error: LIMIT })
      .max(500, { error: LIMIT })
      .default(50)
      .meta({ description: "How many of the last entries." }),
  }),
);

export const ROLES = ["user", "bot", "prompt", "tool"] as const;
export type Role = (typeof ROLES)[number];
export const SOURCES = ["telegram", "admin", "job", "watcher", "alert", "command"] as const;
export type Source = (typeof SOURCES)[number];

/** One transcript entry (docs/agent.md). */
export const transcriptEntrySchema = lazy(() =>
  z.strictObject({
    id: z.string(),
    at: instant(),
    role: z.enum(ROLES).meta({
      description: "`prompt` is what the agent saw and `tool` a tool it called with the result, never shown in Telegram; what the chat saw is `bot`.",
    }),
    source: z.enum(SOURCES),
    text: z.string(),
    jobId: z.string().optional().meta({ description: "On entries a job caused." }),
    runId: z.string().optional().meta({ description: "On entries a job caused." }),
    buttons: buttonRowsSchema()
      .optional()
      .meta({
        description:
          "The buttons under a bot entry (a prompt job's Done and snoozes, or Done, Snooze 1 h, Skip next, Pause; " +
          "an alert's and a watcher's Run now, Pause, Cancel; an offer's Create, Cancel; zones to choose): " +
          "press one with `POST …/messages { press: data }`.",
      }),
    html: z
      .string()
      .optional()
      .meta({
        description:
          "A bot entry as Telegram shows it (over HTTP only): its Markdown rendered to Telegram's HTML, by the rules messages are sent with " +
          "(b, i, s, code, pre, a href, blockquote; everything else escaped).",
      }),
  }),
);
export type TranscriptEntry = z.infer<ReturnType<typeof transcriptEntrySchema>>;

/** The transcript (docs/agent.md): oldest first, the last 500 kept. */
export const transcriptSchema = lazy(() => z.strictObject({ chatId: chatId(), messages: z.array(transcriptEntrySchema()) }));
export type Transcript = z.infer<ReturnType<typeof transcriptSchema>>;
