/**
 * A local Telegram Bot API stub for the worker and e2e tiers (issue 5): a Node HTTP server on 127.0.0.1 and a
 * random port that records every call `{ method, params }` and answers `ok: true` with a plausible result,
 * unless a test scripted the next answers of a method (429 with `retry_after`, "can't parse entities", 403
 * blocked, "chat not found", a group "upgraded to a supergroup chat" with its new id, a forum topic's "message
 * thread not found", a member's status for getChatMember, 500, a hang, or any status and body).
 *
 * Bot API calls: `POST /bot<token>/<method>` with a JSON, urlencoded or multipart/form-data body, as
 * api.telegram.org takes them. A file uploaded as a form's part (`sendDocument`'s `document`) is recorded as
 * `{ filename, type, content }` (its content as UTF-8 text); `sendDocument` without a document part is refused
 * as Telegram refuses it, and one naming a file id or URL (the stub holds no files) as an unknown file.
 * Control API (JSON), for tests in Node or in workerd (which reach it with `fetch`):
 *   GET    /__stub/calls?token=&chat_id=&method=  → { calls: Call[] } oldest first, filtered when given
 *   DELETE /__stub/calls?token=&chat_id=          → clears those calls (all when no filter)
 *   POST   /__stub/script { method, answers, token?, chat_id? } → queues answers for the next calls of
 *          `method` (matching the token and chat_id when given), used one per call, in order
 *   DELETE /__stub/script?token=                  → drops queued answers
 *   POST   /__stub/upgraded { token, from, to }   → basic group `from` became supergroup `to` for that bot: from then
 *          on every call on `from` that needs its member list or write access (getChatMemberCount, getChatMember,
 *          the sends and edits) answers 400 "group chat was upgraded to a supergroup chat" with the new id, as
 *          Telegram does; getChat and the rest answer as before (a scripted answer comes first)
 * Test files share one stub: each uses its own bot token (and chats), and filters by it.
 *
 * Per token it keeps what the bot was set to, as Telegram does: `setWebhook`'s url, allowed updates and pending
 * count (`POST /__stub/webhook { token, pending_update_count?, last_error_message?, last_error_date? }` sets what
 * Telegram would report of deliveries), `setMyCommands` per `language_code` and `setChatMenuButton`'s default button,
 * which `getWebhookInfo`, `getMyCommands` and `getChatMenuButton` answer (a scripted answer comes first).
 */
import { createServer, type Server } from "node:http";
import { listenOnLoopback, readBytes, send } from "./http.js";

/**
 * One recorded Bot API call; `answered` is the status sent, 0 while it is still being answered, and -1 when the
 * caller gave up first (a hung call it timed out on: Telegram never took that message). `messageId` is the
 * `message_id` of the message the answer returned (a sent or an edited one), as a reply to it would name it.
 */
export type Call = { method: string; params: Record<string, unknown>; token: string; at: number; answered: number; messageId?: number };

/** What a scripted call answers: a named failure, or any status and body. */
export type Answer =
  | { kind: "ok"; result?: unknown }
  | { kind: "429"; retryAfter: number }
  | { kind: "parse" }
  | { kind: "blocked" }
  | { kind: "deactivated" }
  | { kind: "chat_not_found" }
  | { kind: "500" }
  | { kind: "502" }
  /** A basic group that became supergroup `migrateTo`: 400 with `parameters.migrate_to_chat_id`, as Telegram answers. */
  | { kind: "migrated"; migrateTo: number }
  /** A forum topic that was deleted. */
  | { kind: "thread_not_found" }
  /** getChatMember's ChatMember for the asked user, with this status (`restricted` with `isMember`). */
  | { kind: "member"; status: "creator" | "administrator" | "member" | "restricted" | "left" | "kicked"; isMember?: boolean }
  | { kind: "raw"; status: number; body: unknown }
  /** Accepts the call and answers nothing for `ms` (then `ok`, if the caller still waits): a hung Bot API. */
  | { kind: "hang"; ms: number };

export type Script = { method: string; answers: Answer[]; token?: string; chat_id?: string | number };

/** The HTTP status and JSON body a Bot API server sends for an answer. */
export function replyFor(answer: Answer, method: string, params: Record<string, unknown>, messageId: () => number): { status: number; body: unknown } {
  switch (answer.kind) {
    case "ok":
      return { status: 200, body: { ok: true, result: answer.result !== undefined ? answer.result : plausibleResult(method, params, messageId) } };
    case "429":
      return {
        status: 429,
        body: {
          ok: false,
          error_code: 429,
          description: `Too Many Requests: retry after ${answer.retryAfter}`,
          parameters: { retry_after: answer.retryAfter },
        },
      };
    case "parse":
      return {
        status: 400,
        body: { ok: false, error_code: 400, description: "Bad Request: can't parse entities: Can't find end of the entity starting at byte offset 0" },
      };
    case "blocked":
      return { status: 403, body: { ok: false, error_code: 403, description: "Forbidden: bot was blocked by the user" } };
    case "deactivated":
      return { status: 403, body: { ok: false, error_code: 403, description: "Forbidden: user is deactivated" } };
    case "chat_not_found":
      return { status: 400, body: { ok: false, error_code: 400, description: "Bad Request: chat not found" } };
    case "500":
      return { status: 500, body: { ok: false, error_code: 500, description: "Internal Server Error" } };
    case "502":
      return { status: 502, body: "<html><body>502 Bad Gateway</body></html>" };
    case "migrated":
      return {
        status: 400,
        body: {
          ok: false,
          error_code: 400,
          description: "Bad Request: group chat was upgraded to a supergroup chat",
          parameters: { migrate_to_chat_id: answer.migrateTo },
        },
      };
    case "thread_not_found":
      return { status: 400, body: { ok: false, error_code: 400, description: "Bad Request: message thread not found" } };
    case "member":
      return { status: 200, body: { ok: true, result: chatMember(answer.status, params, answer.isMember) } };
    case "raw":
      return { status: answer.status, body: answer.body };
    case "hang":
      return { status: 200, body: { ok: true, result: plausibleResult(method, params, messageId) } };
  }
}

/** A ChatMember as getChatMember answers it, for the user asked about (the fields Telegram sends for each status). */
export function chatMember(status: string, params: Record<string, unknown>, isMember = true): Record<string, unknown> {
  const user = { id: Number(params.user_id), is_bot: false, first_name: "Member" };
  switch (status) {
    case "creator":
      return { status, user, is_anonymous: false };
    case "administrator":
      return {
        status,
        user,
        can_be_edited: false,
        is_anonymous: false,
        can_manage_chat: true,
        can_delete_messages: true,
        can_manage_video_chats: false,
        can_restrict_members: true,
        can_promote_members: false,
        can_change_info: true,
        can_invite_users: true,
        can_post_stories: false,
        can_edit_stories: false,
        can_delete_stories: false,
      };
    case "restricted":
      return { status, user, is_member: isMember, can_send_messages: false, until_date: 0 };
    case "kicked":
      return { status, user, until_date: 0 };
    default:
      return { status, user };
  }
}

/** The methods Telegram answers "upgraded to a supergroup" on a basic group that moved: those needing its members or writing to it. */
const UPGRADED_ANSWERS = new Set([
  "getChatMemberCount",
  "getChatMember",
  "getChatAdministrators",
  "sendMessage",
  "sendDocument",
  "copyMessage",
  "editMessageText",
  "editMessageReplyMarkup",
  "sendChatAction",
]);

/** A result shaped like the real one for the methods the bot uses; `true` for the rest. */
export function plausibleResult(method: string, params: Record<string, unknown>, messageId: () => number): unknown {
  const now = Math.floor(Date.now() / 1000);
  switch (method) {
    case "sendMessage":
    case "editMessageText":
    case "editMessageReplyMarkup": {
      const chatId = Number(params.chat_id);
      const thread = typeof params.message_thread_id === "number" ? { message_thread_id: params.message_thread_id, is_topic_message: true } : {};
      // A sent message gets the next id; an edited one keeps its own.
      const edited = method !== "sendMessage" && typeof params.message_id === "number";
      return {
        message_id: edited ? params.message_id : messageId(),
        from: { id: 1000000001, is_bot: true, first_name: "Cuckoo", username: "CuckooTestBot" },
        chat:
          chatId > 0
            ? { id: chatId, first_name: "Test", type: "private" }
            : { id: chatId, title: "Test", type: String(chatId).startsWith("-100") ? "supergroup" : "group" },
        ...thread,
        date: now,
        text: typeof params.text === "string" ? params.text : "",
        ...(params.reply_markup !== undefined ? { reply_markup: params.reply_markup } : {}),
      };
    }
    case "sendDocument": {
      const chatId = Number(params.chat_id);
      const file = params.document as { filename?: string; type?: string; content?: string };
      return {
        message_id: messageId(),
        from: { id: 1000000001, is_bot: true, first_name: "Cuckoo", username: "CuckooTestBot" },
        chat: { id: chatId, first_name: "Test", type: chatId > 0 ? "private" : "group" },
        date: now,
        document: {
          file_id: `doc-${messageId()}`,
          file_unique_id: "stub",
          file_name: file.filename,
          mime_type: file.type,
          file_size: Buffer.byteLength(file.content ?? ""),
        },
        ...(typeof params.caption === "string" ? { caption: params.caption } : {}),
        ...(params.reply_markup !== undefined ? { reply_markup: params.reply_markup } : {}),
      };
    }
    case "getMe":
      return {
        id: 1000000001,
        is_bot: true,
        first_name: "Cuckoo",
        username: "CuckooTestBot",
        can_join_groups: false,
        can_read_all_group_messages: false,
        supports_inline_queries: false,
      };
    case "getChatMember":
      return chatMember("member", params);
    case "getChatMemberCount":
      return 3;
    case "getWebhookInfo":
      return { url: "", has_custom_certificate: false, pending_update_count: 0 };
    case "getMyCommands":
      return [];
    default:
      return true;
  }
}

/** What one bot was set to, as Telegram keeps it per token. */
type BotState = {
  webhook: { url: string; allowed_updates?: unknown } | null;
  delivery: { pending_update_count?: number; last_error_message?: string; last_error_date?: number };
  /** By `language_code` ("" for the default). */
  commands: Map<string, unknown>;
  button: unknown;
};

/** A setter's effect on the bot, and a getter's answer from it; null for the other methods. */
function keptAnswer(bot: BotState, method: string, params: Record<string, unknown>): Answer | null {
  const language = typeof params.language_code === "string" ? params.language_code : "";
  switch (method) {
    case "setWebhook":
      bot.webhook = { url: String(params.url ?? ""), ...(params.allowed_updates !== undefined ? { allowed_updates: params.allowed_updates } : {}) };
      bot.delivery = {};
      return { kind: "ok", result: true };
    case "deleteWebhook":
      bot.webhook = null;
      return { kind: "ok", result: true };
    case "getWebhookInfo":
      return {
        kind: "ok",
        result: { url: bot.webhook?.url ?? "", has_custom_certificate: false, pending_update_count: 0, ...bot.webhook, ...bot.delivery },
      };
    case "setMyCommands":
      bot.commands.set(language, params.commands);
      return { kind: "ok", result: true };
    case "getMyCommands":
      return { kind: "ok", result: bot.commands.get(language) ?? [] };
    case "setChatMenuButton":
      if (params.chat_id === undefined) bot.button = params.menu_button ?? null;
      return { kind: "ok", result: true };
    case "getChatMenuButton":
      return { kind: "ok", result: params.chat_id === undefined && bot.button ? bot.button : { type: "default" } };
    default:
      return null;
  }
}

export type TelegramStub = {
  /** `http://127.0.0.1:<port>`: the value for TELEGRAM_API_BASE. */
  url: string;
  /** Calls recorded so far (a copy), filtered by token, chat id or method when given. */
  calls(filter?: { token?: string; chat_id?: string | number; method?: string }): Call[];
  clear(filter?: { token?: string; chat_id?: string | number }): void;
  script(script: Script): void;
  /** Sets what getWebhookInfo reports of a bot's deliveries (pending updates, the last error), until its next setWebhook. */
  webhook(token: string, delivery: { pending_update_count?: number; last_error_message?: string; last_error_date?: number }): void;
  close(): Promise<void>;
};

const matches = (call: Call, f: { token?: string; chat_id?: string | number; method?: string }) =>
  (f.token === undefined || call.token === f.token) &&
  (f.chat_id === undefined || String(call.params.chat_id) === String(f.chat_id)) &&
  (f.method === undefined || call.method === f.method);

/** A text field of a form, as the Bot API reads it: JSON-looking values (objects, arrays) decoded. */
function formValue(v: string): unknown {
  try {
    return /^[[{]/.test(v) ? JSON.parse(v) : v;
  } catch {
    return v;
  }
}

/** Bot API parameters of a multipart/form-data body: text fields, and each file part as `{ filename, type, content }`. */
async function parseMultipart(raw: Buffer, contentType: string, query: URLSearchParams): Promise<Record<string, unknown>> {
  const params: Record<string, unknown> = Object.fromEntries(query);
  // The platform's own multipart reader (undici), not one of ours.
  const form = await new Response(new Uint8Array(raw), { headers: { "Content-Type": contentType } }).formData();
  const files: Promise<void>[] = [];
  form.forEach((value, name) => {
    if (typeof value === "string") params[name] = formValue(value);
    else
      files.push(
        value.text().then((content) => {
          params[name] = { filename: value.name, type: value.type, content };
        }),
      );
  });
  await Promise.all(files);
  return params;
}

/** Why Telegram refuses a call the bot made wrongly (for the methods the stub checks), or null. */
function refusal(method: string, params: Record<string, unknown>): string | null {
  if (method !== "sendDocument") return null;
  if (params.document === undefined) return "Bad Request: there is no document in the request";
  if (typeof params.document === "string") return "Bad Request: wrong file identifier/HTTP URL specified";
  return null;
}

/** Bot API parameters: JSON, or a form / query string with JSON-looking values decoded. */
function parseParams(raw: string, contentType: string, query: URLSearchParams): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [k, v] of query) params[k] = v;
  if (raw.trim() === "") return params;
  if (contentType.includes("application/json")) {
    try {
      const body = JSON.parse(raw) as unknown;
      if (body && typeof body === "object" && !Array.isArray(body)) return { ...params, ...(body as Record<string, unknown>) };
    } catch {
      return { ...params, __unparsed: raw };
    }
    return { ...params, __unparsed: raw };
  }
  for (const [k, v] of new URLSearchParams(raw)) params[k] = formValue(v);
  return params;
}

/** Starts the stub on 127.0.0.1 and a free port. */
export async function startTelegramStub(): Promise<TelegramStub> {
  const recorded: Call[] = [];
  let scripts: Script[] = [];
  /** `<token> <basic group id>` → the supergroup it became. */
  const upgraded = new Map<string, number>();
  let nextMessageId = 1;
  const messageId = () => nextMessageId++;
  /** What each token's bot was set to (setWebhook, setMyCommands, setChatMenuButton), and its webhook's delivery state. */
  const bots = new Map<string, BotState>();
  const botOf = (token: string): BotState => {
    let bot = bots.get(token);
    if (!bot) {
      bot = { webhook: null, delivery: {}, commands: new Map(), button: null };
      bots.set(token, bot);
    }
    return bot;
  };

  const filterOf = (q: URLSearchParams) => ({
    ...(q.get("token") ? { token: q.get("token")! } : {}),
    ...(q.get("chat_id") ? { chat_id: q.get("chat_id")! } : {}),
    ...(q.get("method") ? { method: q.get("method")! } : {}),
  });

  /** The first queued answer for this call, taken off its script; else a moved group's answer; else `ok`. */
  const takeAnswer = (method: string, token: string, params: Record<string, unknown>): Answer => {
    const scripted = takeScripted(method, token, params);
    if (scripted !== null) return scripted;
    const to = upgraded.get(`${token} ${String(params.chat_id)}`);
    return to !== undefined && UPGRADED_ANSWERS.has(method) ? { kind: "migrated", migrateTo: to } : { kind: "ok" };
  };

  const takeScripted = (method: string, token: string, params: Record<string, unknown>): Answer | null => {
    for (const s of scripts) {
      if (s.method !== method || s.answers.length === 0) continue;
      if (s.token !== undefined && s.token !== token) continue;
      if (s.chat_id !== undefined && String(s.chat_id) !== String(params.chat_id)) continue;
      const answer = s.answers.shift()!;
      scripts = scripts.filter((x) => x.answers.length > 0);
      return answer;
    }
    return null;
  };

  const server: Server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const bytes = await readBytes(req);
      const raw = bytes.toString("utf8");
      if (url.pathname === "/__stub/calls") {
        const filter = filterOf(url.searchParams);
        if (req.method === "GET") return send(res, 200, { calls: recorded.filter((c) => matches(c, filter)) });
        if (req.method === "DELETE") {
          for (let i = recorded.length - 1; i >= 0; i--) if (matches(recorded[i]!, filter)) recorded.splice(i, 1);
          return send(res, 200, { ok: true });
        }
      }
      if (url.pathname === "/__stub/script") {
        if (req.method === "POST") {
          const script = JSON.parse(raw) as Script;
          if (typeof script.method !== "string" || !Array.isArray(script.answers)) return send(res, 400, { error: "method and answers are required" });
          scripts.push({ ...script, answers: [...script.answers] });
          return send(res, 200, { ok: true });
        }
        if (req.method === "DELETE") {
          const token = url.searchParams.get("token");
          scripts = token ? scripts.filter((s) => s.token !== token) : [];
          return send(res, 200, { ok: true });
        }
      }
      if (url.pathname === "/__stub/webhook" && req.method === "POST") {
        const { token, ...delivery } = JSON.parse(raw) as { token?: unknown } & BotState["delivery"];
        if (typeof token !== "string") return send(res, 400, { error: "token is required" });
        botOf(token).delivery = delivery;
        return send(res, 200, { ok: true });
      }
      if (url.pathname === "/__stub/upgraded" && req.method === "POST") {
        const { token, from, to } = JSON.parse(raw) as { token?: unknown; from?: unknown; to?: unknown };
        if (typeof token !== "string" || !/^-\d+$/.test(String(from)) || !/^-100\d+$/.test(String(to))) {
          return send(res, 400, { error: "token, from (a basic group's id) and to (a supergroup's id) are required" });
        }
        upgraded.set(`${token} ${String(from)}`, Number(to));
        return send(res, 200, { ok: true });
      }
      const m = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
      if (!m) return send(res, 404, { ok: false, error_code: 404, description: "Not Found" });
      const [, token, method] = m as unknown as [string, string, string];
      const contentType = req.headers["content-type"] ?? "";
      const params = contentType.startsWith("multipart/form-data")
        ? await parseMultipart(bytes, contentType, url.searchParams)
        : parseParams(raw, contentType, url.searchParams);
      const call: Call = { method, params, token: decodeURIComponent(token), at: Date.now(), answered: 0 };
      recorded.push(call);
      const refused = refusal(method, params);
      if (refused !== null) {
        call.answered = 400;
        return send(res, 400, { ok: false, error_code: 400, description: refused });
      }
      let answer = takeAnswer(method, call.token, params);
      if (answer.kind === "ok" && answer.result === undefined) answer = keptAnswer(botOf(call.token), method, params) ?? answer;
      if (answer.kind === "hang") {
        await new Promise((resolve) => setTimeout(resolve, answer.ms));
        if (res.closed || req.socket.destroyed) {
          call.answered = -1;
          return;
        }
      }
      const reply = replyFor(answer, method, params, messageId);
      call.answered = reply.status;
      const result = (reply.body as { result?: { message_id?: unknown } } | null)?.result;
      if (typeof result?.message_id === "number") call.messageId = result.message_id;
      return send(res, reply.status, reply.body);
    } catch (error) {
      return send(res, 500, { ok: false, error_code: 500, description: `stub error: ${String(error)}` });
    }
  });

  const { url, close } = await listenOnLoopback(server);

  return {
    url,
    calls: (filter = {}) => recorded.filter((c) => matches(c, filter)).map((c) => ({ ...c })),
    clear: (filter = {}) => {
      for (let i = recorded.length - 1; i >= 0; i--) if (matches(recorded[i]!, filter)) recorded.splice(i, 1);
    },
    script: (script) => {
      scripts.push({ ...script, answers: [...script.answers] });
    },
    webhook: (token, delivery) => {
      botOf(token).delivery = delivery;
    },
    close,
  };
}
