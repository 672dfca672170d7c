/**
 * @module Helpers of the Telegram tests (telegram-*.test.ts, issue 5): the Bot API stub that the worker
 * project's globalSetup starts in Node (its URL comes through `inject("telegramStub")`), a bot per test file
 * (its own token, so files sharing the stub never see each other's calls), chats put in Telegram mode, updates
 * posted to the webhook, and the chat's alarm run when its time has come on the object's clock.
 *
 * Time: a Telegram chat's clock is put an hour ahead of the machine's, so the runtime never fires its alarm by
 * itself (its times are in the real future); every send of the outbox happens in an alarm run a test makes.
 * What the chat sent is read from the stub; nothing here reads the object's tables.
 *
 * Config reaches the code two ways: the webhook route reads the request's env (`envWith`), the chat's Durable
 * Object reads its own, which `telegramChat` replaces (with a non-forwarding queue spy when asked).
 */
import { createExecutionContext, runDurableObjectAlarm, waitOnExecutionContext } from "cloudflare:test";
import { expect, inject, vi } from "vitest";
import { app } from "../../src/http/app";
import type { Answer, Call as StubCall } from "../stub/telegram-stub";
import { alarmOf, chatStub, clockOf, envWith, HOUR, must, type Sent, type Stub, setInstanceVars, spyQueue } from "./helpers";

export const STUB_URL: string = inject("telegramStub");
export const SECRET = "hook-Secret_0123";
/** How far a Telegram chat's clock runs ahead of the machine's: longer than a test file takes. */
const AHEAD_MS = HOUR;

/** A Bot API call as the stub recorded it (its params as JSON); `textOf` reads the one field tests compute with. */
export type Call = StubCall;

/** A call's `text` (sendMessage, editMessageText, answerCallbackQuery), or undefined when it has none. */
export function textOf(call: Call | undefined): string | undefined {
  const text = call?.params.text;
  if (text !== undefined && typeof text !== "string") throw new Error(`${call?.method}'s text is not a string: ${JSON.stringify(text)}`);
  return text;
}

async function control(method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${STUB_URL}${path}`, {
    method,
    headers: { "Content-Type": "application/json" },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  if (!res.ok) throw new Error(`stub ${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** One bot (token) per test file; its vars for the webhook's env and the chat objects' env. */
export class TestBot {
  readonly token: string;

  constructor(tag: string) {
    // `<digits>:<20+ of A–Z a–z 0–9 _ ->`, distinct per file.
    this.token = `7${String(tag.length).padStart(8, "0")}:AAE${tag.replace(/[^A-Za-z0-9_-]/g, "_")}_abcdefghijklmnopqrstu`;
  }

  /** `chats`: the groups in ALLOWED_CHAT_IDS. */
  vars(allowed: readonly string[], chats: readonly string[] = []): Record<string, string> {
    return {
      TELEGRAM_BOT_TOKEN: this.token,
      TELEGRAM_WEBHOOK_SECRET: SECRET,
      TELEGRAM_API_BASE: STUB_URL,
      ALLOWED_USER_IDS: allowed.join(","),
      ...(chats.length > 0 ? { ALLOWED_CHAT_IDS: chats.join(",") } : {}),
    };
  }

  /** The bot's user id: the number before its token's colon. */
  get id(): string {
    return this.token.slice(0, this.token.indexOf(":"));
  }

  /** The Worker's env with this bot, these allowed users and these allowed groups. */
  env(allowed: readonly string[], chats: readonly string[] = []): Env {
    return envWith(this.vars(allowed, chats));
  }

  /** The calls this bot made, oldest first (to one chat, of one method, when given). */
  async calls(filter: { chatId?: string; method?: string } = {}): Promise<Call[]> {
    const q = new URLSearchParams({ token: this.token });
    if (filter.chatId !== undefined) q.set("chat_id", filter.chatId);
    if (filter.method !== undefined) q.set("method", filter.method);
    return ((await control("GET", `/__stub/calls?${q}`)) as { calls: Call[] }).calls;
  }

  sends(chatId: string): Promise<Call[]> {
    return this.calls({ chatId, method: "sendMessage" });
  }

  /** Tells the stub that basic group `from` became supergroup `to`: Telegram's answers for `from` say so from now on. */
  async upgraded(from: string, to: string): Promise<void> {
    await control("POST", "/__stub/upgraded", { token: this.token, from, to });
  }

  /** Queues the next answers of `method` for this bot (and chat, when given). */
  async script(method: string, answers: Answer[], chatId?: string): Promise<void> {
    await control("POST", "/__stub/script", { method, answers, token: this.token, ...(chatId !== undefined ? { chat_id: chatId } : {}) });
  }
}

export type TelegramChat = { chatId: string; stub: Stub; sent: Sent | null };

/**
 * Puts a chat's object in Telegram mode with `bot` (the chat allowed), with a non-forwarding spy on its
 * `PROMPTS` binding unless `spy` is false (then prompts reach the real consumer and its echo agent), binds
 * its chat id, and puts its clock `AHEAD_MS` ahead (`aheadOfRuntime`).
 */
export async function telegramChat(bot: TestBot, chatId: string, options: { spy?: boolean; allowed?: string[]; chats?: string[] } = {}): Promise<TelegramChat> {
  const stub: Stub = chatStub(chatId);
  const sent = options.spy === false ? null : await spyQueue(stub);
  await setInstanceVars(stub, bot.vars(options.allowed ?? [chatId], options.chats ?? []));
  // The chat's id is bound as its first update (or any chat RPC) would bind it; `deliver` alone does not.
  await must(stub.getSettings(chatId));
  await aheadOfRuntime(stub);
  return { chatId, stub, sent };
}

/**
 * Moves the object's clock `AHEAD_MS` ahead, before it arms any alarm: the alarms it arms are then in the
 * real future, so the runtime never fires one while the test runs, and a test runs each (`delivered`,
 * `alarmComes`) when its time has come on the object's clock.
 */
export async function aheadOfRuntime(stub: Stub): Promise<number> {
  expect(await alarmOf(stub), "no alarm armed yet").toBeNull();
  return stub.testAdvanceClock(AHEAD_MS);
}

/** POSTs an update (or any body) to the webhook with the secret header (unless `secret` is null). */
export async function postUpdate(testEnv: Env, body: unknown, options: { secret?: string | null; contentType?: string } = {}): Promise<Response> {
  const headers: Record<string, string> = { "Content-Type": options.contentType ?? "application/json" };
  const secret = options.secret === undefined ? SECRET : options.secret;
  if (secret !== null) headers["X-Telegram-Bot-Api-Secret-Token"] = secret;
  const ctx = createExecutionContext();
  const res = await app.request("/telegram/webhook", { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) }, testEnv, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

let nextUpdateId = 900_000_000 + Math.floor(Math.random() * 1_000_000) * 10;
export const newUpdateId = () => nextUpdateId++;

const user = (id: string) => ({ id: Number(id), is_bot: false, first_name: "Ada", username: "ada" });
const privateChat = (id: string) => ({ id: Number(id), type: "private", first_name: "Ada", username: "ada" });

/**
 * A text message from the chat's user in their private chat with the bot; with `replyTo`, in reply to that
 * message (its `message_id` and text, as Telegram sends them in `reply_to_message`).
 */
export function textUpdate(chatId: string, text: string, updateId = newUpdateId(), replyTo?: { message_id: number; text?: string }) {
  return {
    update_id: updateId,
    message: {
      message_id: updateId % 100_000,
      from: user(chatId),
      chat: privateChat(chatId),
      date: Math.floor(Date.now() / 1000),
      text,
      ...(replyTo ? { reply_to_message: { ...replyTo, date: Math.floor(Date.now() / 1000), chat: privateChat(chatId) } } : {}),
    },
  };
}

/** The user's message `messageId` edited to `text` (`edited_message`, as Telegram sends an edit). */
export function editedUpdate(chatId: string, messageId: number, text: string, updateId = newUpdateId()) {
  const now = Math.floor(Date.now() / 1000);
  return {
    update_id: updateId,
    edited_message: { message_id: messageId, from: user(chatId), chat: privateChat(chatId), date: now - 60, edit_date: now, text },
  };
}

/** A message with no text (a photo). */
export function photoUpdate(chatId: string, updateId = newUpdateId()) {
  return {
    update_id: updateId,
    message: {
      message_id: updateId % 100_000,
      from: user(chatId),
      chat: privateChat(chatId),
      date: Math.floor(Date.now() / 1000),
      photo: [{ file_id: "AgAD", file_unique_id: "AQAD", width: 90, height: 90 }],
    },
  };
}

/** A button press under a message (`messageId`, 7 by default) in `chatId` by `fromId` (the chat's user by default). */
export function callbackUpdate(chatId: string, data: string, options: { fromId?: string; updateId?: number; messageId?: number } = {}) {
  const updateId = options.updateId ?? newUpdateId();
  return {
    update_id: updateId,
    callback_query: {
      id: `cb${updateId}`,
      from: user(options.fromId ?? chatId),
      chat_instance: "-1234567890",
      message: { message_id: options.messageId ?? 7, date: Math.floor(Date.now() / 1000), chat: privateChat(chatId), text: "Stretch" },
      data,
    },
  };
}

/**
 * Runs the chat's alarm for as long as it is due on the object's clock (a delivery arms it at the object's
 * now, so a reply goes out in the first run) and returns the chat's sendMessage calls. Every outbox send
 * happens inside an alarm run, and the runtime never fires this chat's alarm by itself (`aheadOfRuntime`):
 * when this returns, nothing more is due, so the calls are all there will be until the clock moves. With
 * `count`, exactly that many calls must have been made.
 */
export async function delivered(bot: TestBot, chat: { chatId: string; stub: Stub }, count?: number): Promise<Call[]> {
  for (let runs = 0; ; runs++) {
    const alarm = await alarmOf(chat.stub);
    if (alarm === null || alarm > (await clockOf(chat.stub))) break;
    if (runs === 20) throw new Error(`the alarm of chat ${chat.chatId} is still due after ${runs} runs`);
    await runDurableObjectAlarm(chat.stub);
  }
  const calls = await bot.sends(chat.chatId);
  if (count !== undefined) expect(calls, `sendMessage calls to ${chat.chatId}`).toHaveLength(count);
  return calls;
}

/** Waits until the calls of `bot` (filtered) reach `n` (an event, observed), and returns them. */
export function callsReach(bot: TestBot, filter: { chatId?: string; method?: string }, n: number, withinMs = 10_000): Promise<Call[]> {
  return vi.waitFor(
    async () => {
      const calls = await bot.calls(filter);
      if (calls.length < n) throw new Error(`expected ${n} call(s) ${JSON.stringify(filter)}, got ${calls.length}`);
      return calls;
    },
    { timeout: withinMs, interval: 20 },
  );
}

/** `/healthz`'s count of blocked chats (read from the D1 directory), with this bot's Telegram on. */
export async function blockedChats(bot: TestBot): Promise<number> {
  const res = await app.request("/healthz", {}, bot.env([]));
  expect(res.status).toBe(200);
  const { blockedChats: n } = (await res.json()) as { blockedChats?: number };
  expect(typeof n).toBe("number");
  return n!;
}

/** The one sendMessage of a reply: to the chat, the rendered HTML, parse mode HTML. */
export function expectReply(call: Call | undefined, chatId: string, html: string): void {
  expect(call, "no sendMessage").toBeDefined();
  expect(String(call!.params.chat_id)).toBe(chatId);
  expect(call!.params.parse_mode).toBe("HTML");
  expect(call!.params.text).toBe(html);
}

/** The wall-clock parts of an instant in `zone`, via Intl (en-US: `Sep`, `Wed`, 24-hour). */
function wallParts(ms: number, zone: string) {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    weekday: "short",
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(ms);
  const p = (type: string) => parts.find((x) => x.type === type)!.value;
  return { weekday: p("weekday"), year: p("year"), month: p("month"), day: p("day"), hm: `${p("hour")}:${p("minute")}` };
}

/**
 * `HH:mm` when today in `zone`, else `d MMM HH:mm`, with the year when not this year (docs/time.md), via Intl;
 * `now` is the chat's clock (`clockOf`).
 */
export function chatTime(instant: number, zone: string, now: number): string {
  const at = wallParts(instant, zone);
  const today = wallParts(now, zone);
  if (at.year === today.year && at.month === today.month && at.day === today.day) return at.hm;
  if (at.year === today.year) return `${at.day} ${at.month} ${at.hm}`;
  return `${at.day} ${at.month} ${at.year} ${at.hm}`;
}

/** The texts a reply stamped with "now" may hold: one per minute from `t0` to `t1`. */
export function eitherMinute<T>(t0: number, t1: number, text: (now: number) => T): T[] {
  const out: T[] = [];
  for (let t = t0; t < t1 + 60_000; t += 60_000) out.push(text(Math.min(t, t1)));
  return out;
}

/** `Wed 2 Dec 14:30`, with the year when it is not `now`'s (`Thu 2 Dec 2027 14:30`), in `zone`, via Intl. */
export function weekdayTime(instant: number, zone: string, now: number): string {
  const at = wallParts(instant, zone);
  const year = at.year === wallParts(now, zone).year ? "" : ` ${at.year}`;
  return `${at.weekday} ${Number(at.day)} ${at.month}${year} ${at.hm}`;
}

/** `in 20 min`, `in 3 h 48 min`, `in 2 days 4 h`, `in 12 days`: how far `ms` is, to the nearest minute. */
export function distance(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  const hours = Math.floor(minutes / 60);
  const days = Math.floor(hours / 24);
  if (minutes === 0) return "in under a minute";
  if (minutes < 60) return `in ${minutes} min`;
  if (hours < 48) return `in ${hours} h${minutes % 60 ? ` ${minutes % 60} min` : ""}`;
  return days < 7 && hours % 24 ? `in ${days} days ${hours % 24} h` : `in ${days} days`;
}

/** The sendMessage calls' inline keyboard as rows of `{ text, data }` (what the transcript keeps), or undefined. */
export function buttonsOf(call: Call | undefined): { text: string; data: string }[][] | undefined {
  const markup = call?.params.reply_markup as { inline_keyboard: { text: string; callback_data: string }[][] } | undefined;
  return markup?.inline_keyboard.map((row) => row.map((b) => ({ text: b.text, data: b.callback_data })));
}

/** Sends `text` as the chat's user and returns the bot's one reply (its alarm run until nothing is due). */
/** The chat's user writes `text` from a Telegram app in `language`; the bot's one reply, as Telegram got it. */
export async function sayIn(bot: TestBot, chat: TelegramChat, text: string, language = "en"): Promise<string> {
  const before = (await bot.sends(chat.chatId)).length;
  const update = textUpdate(chat.chatId, text);
  const from = { ...update.message.from, language_code: language };
  expect((await postUpdate(bot.env([chat.chatId]), { ...update, message: { ...update.message, from } })).status).toBe(200);
  const fresh = (await delivered(bot, chat)).slice(before);
  expect(fresh, `replies to ${text}`).toHaveLength(1);
  return String(fresh[0]!.params.text);
}

export async function sayOnce(bot: TestBot, chat: TelegramChat, text: string): Promise<Call> {
  const before = (await bot.sends(chat.chatId)).length;
  expect((await postUpdate(bot.env([chat.chatId]), textUpdate(chat.chatId, text))).status).toBe(200);
  const fresh = (await delivered(bot, chat)).slice(before);
  expect(fresh, `replies to ${text}`).toHaveLength(1);
  return fresh[0]!;
}
