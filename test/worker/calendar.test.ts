/**
 * The calendar feed through the Worker (docs/calendar.md): its address made, replaced and revoked on the admin API and
 * with `/calendar` in Telegram (shown once, `[shown once]` in the transcript, in a group privately to the admin who
 * asked), and the feed served as calendars expect: `text/calendar`, an ETag that `If-None-Match` answers with 304, and
 * one sentence for every address that is no feed. What the feed holds, instant by instant, is
 * test/unit/calendar-feed.test.ts's. Chat ids 9910000 up, groups -1009910000000 up.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { renderTelegramHtml } from "../../src/telegram/render";
import { BOT_USERNAME, groupText, person, supergroup } from "../group-updates";
import { call, chatIds, lines, must, quietConsole, send, transcript } from "./helpers";
import { delivered, newUpdateId, postUpdate, sayOnce, TestBot, telegramChat, textOf } from "./telegram-helpers";

const newChat = chatIds(9_910_000);
const FEED_URL = /http:\/\/localhost\/calendar\/([a-z2-7]{32})\.ics/;
const NO_FEED = { error: { code: "not_found", message: "No calendar at this address." } };

/** The path of a feed address. */
const pathOf = (url: string): string => new URL(url).pathname;

describe("the feed's address on the admin API", () => {
  it("is made once, serves the chat's jobs as text/calendar with an ETag, is replaced, and is revoked", async () => {
    const { chatId, stub } = newChat();
    expect(await send("GET", `/admin/chats/${chatId}/calendar`)).toEqual({ status: 200, body: { calendar: false } });
    await must(stub.createJob(chatId, { name: "Standup", kind: "prompt", cron: "0 8 * * 1-5", text: "Plan the day; then, ask me" }, "admin"));
    await must(stub.createJob(chatId, { name: "Price", kind: "watcher", cron: "0 12 * * *", command: "echo secret-command" }, "admin"));
    const paused = await must(stub.createJob(chatId, { name: "Paused", kind: "prompt", cron: "0 9 * * *", text: "no" }, "admin"));
    await must(stub.pauseJob(chatId, paused.id));
    await must(stub.createJob(chatId, { name: "Hooked", kind: "prompt", trigger: "hook", text: "only by hook" }, "admin"));

    const made = await send("POST", `/admin/chats/${chatId}/calendar`);
    expect(made.status).toBe(201);
    const url = (made.body as { url: string }).url;
    expect(url).toMatch(FEED_URL);
    expect(await send("GET", `/admin/chats/${chatId}/calendar`)).toEqual({ status: 200, body: { calendar: true } });

    const feed = await call(pathOf(url));
    expect(feed.status).toBe(200);
    expect(feed.headers.get("Content-Type")).toBe("text/calendar; charset=utf-8");
    expect(feed.headers.get("Cache-Control")).toBe("private, max-age=300");
    const etag = feed.headers.get("ETag")!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const text = await feed.text();
    expect(text.startsWith("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Cuckoo//Calendar feed//EN\r\n")).toBe(true);
    expect(text.endsWith("END:VCALENDAR\r\n")).toBe(true);
    expect(text.split("\r\n").every((line) => new TextEncoder().encode(line).length <= 75)).toBe(true);
    expect(text).toContain("BEGIN:VTIMEZONE\r\nTZID:UTC\r\n");
    expect(text.match(/BEGIN:VEVENT/g)).toHaveLength(2);
    expect(text).toContain("RRULE:FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=8;BYMINUTE=0\r\n");
    expect(text).toContain("SUMMARY:Standup\r\nDESCRIPTION:Plan the day\\; then\\, ask me\r\n");
    // A watcher by its name only: its command never leaves the chat.
    expect(text).toContain("SUMMARY:Price\r\nTRANSP:TRANSPARENT\r\n");
    expect(text).not.toContain("secret-command");
    expect(text).not.toContain("Paused");
    expect(text).not.toContain("Hooked");

    const again = await call(pathOf(url), { headers: { "If-None-Match": `W/${etag}, "other"` } });
    expect(again.status).toBe(304);
    expect(again.headers.get("ETag")).toBe(etag);
    expect(await again.text()).toBe("");

    // A job made since is in the next fetch at once (the feed kept for a minute is built again), with a new ETag.
    await must(stub.createJob(chatId, { name: "Later", kind: "prompt", cron: "0 18 * * *", text: "Wind down" }, "admin"));
    const changed = await call(pathOf(url), { headers: { "If-None-Match": etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("ETag")).not.toBe(etag);
    expect(await changed.text()).toContain("SUMMARY:Later\r\n");

    const replaced = (await send("POST", `/admin/chats/${chatId}/calendar`)).body as { url: string };
    expect(replaced.url).not.toBe(url);
    expect(await send("GET", pathOf(url))).toEqual({ status: 404, body: NO_FEED });
    expect((await call(pathOf(replaced.url))).status).toBe(200);
    expect(await send("DELETE", `/admin/chats/${chatId}/calendar`)).toEqual({ status: 204, body: null });
    expect(await send("GET", pathOf(replaced.url))).toEqual({ status: 404, body: NO_FEED });
    expect(await send("GET", `/admin/chats/${chatId}/calendar`)).toEqual({ status: 200, body: { calendar: false } });
  });

  it("answers every address that is no feed with the same sentence, never the path", async () => {
    for (const path of ["/calendar", "/calendar/", "/calendar/nothing.ics", `/calendar/${"a".repeat(32)}.ics`, `/calendar/${"a".repeat(32)}`]) {
      expect(await send("GET", path)).toEqual({ status: 404, body: NO_FEED });
    }
    expect(await send("POST", `/calendar/${"a".repeat(32)}.ics`)).toEqual({ status: 404, body: NO_FEED });
  });
});

describe("/calendar in Telegram", () => {
  const bot = new TestBot("calendar");

  beforeAll(async () => {
    const me = { id: Number(bot.id), is_bot: true, first_name: "Cuckoo", username: BOT_USERNAME, can_join_groups: true };
    await bot.script("getMe", [{ kind: "ok", result: { ...me, can_read_all_group_messages: false, supports_inline_queries: false } }]);
  });

  it("shows the address once in a private chat, keeps [shown once], says there is one, replaces and revokes it", async () => {
    const { chatId } = newChat();
    const chat = await telegramChat(bot, chatId);
    const reply = textOf(await sayOnce(bot, chat, "/calendar"))!;
    const token = FEED_URL.exec(reply)![1]!;
    expect(reply).toBe(
      renderTelegramHtml(
        [
          "This chat's calendar feed, shown once (whoever has the address sees the jobs, so keep it secret):",
          `http://localhost/calendar/${token}.ics`,
          "Subscribe to it: Google Calendar → Other calendars → From URL; Apple Calendar → File → New Calendar Subscription; Outlook → Add calendar → Subscribe from web.",
        ].join("\n"),
      ),
    );
    const kept = (await transcript(chat.stub, chatId)).filter((e) => e.role === "bot").map((e) => e.text);
    expect(kept[0]).toContain("http://localhost/calendar/[shown once].ics");
    expect(JSON.stringify(kept)).not.toContain(token);
    expect((await call(`/calendar/${token}.ics`)).status).toBe(200);

    expect(textOf(await sayOnce(bot, chat, "/calendar"))).toBe(
      renderTelegramHtml("This chat has a calendar feed. /calendar new replaces its address (the old one stops working); /calendar off turns it off."),
    );
    const renewed = FEED_URL.exec(textOf(await sayOnce(bot, chat, "/calendar new"))!)![1]!;
    expect(renewed).not.toBe(token);
    expect((await call(`/calendar/${token}.ics`)).status).toBe(404);
    expect(textOf(await sayOnce(bot, chat, "/calendar off"))).toBe(renderTelegramHtml("The calendar feed is off: its address finds nothing now."));
    expect((await call(`/calendar/${renewed}.ics`)).status).toBe(404);
    expect(textOf(await sayOnce(bot, chat, "/calendar off"))).toBe(renderTelegramHtml("This chat has no calendar feed."));
    expect(textOf(await sayOnce(bot, chat, "/calendar later please"))).toBe(
      renderTelegramHtml(
        "Usage: /calendar shows this chat's calendar feed (made the first time), /calendar new replaces its address, /calendar off turns it off.",
      ),
    );
  });

  it("in a group, sends the address to the admin who asked privately and refuses a member", async () => {
    const ADMIN = person(9910001, "Ada");
    const MEMBER = person(9910002, "Bo");
    const chatId = "-1009910000000";
    const chat = await telegramChat(bot, chatId, { allowed: [String(ADMIN.id)], chats: [chatId] });
    const tg = supergroup(chatId, "Ops");
    const ask = async (who: typeof ADMIN, text = "/calendar") => {
      const before = (await bot.calls()).length;
      expect((await postUpdate(bot.env([String(ADMIN.id)], [chatId]), groupText(newUpdateId(), tg, who, text))).status).toBe(200);
      await delivered(bot, chat);
      return (await bot.calls()).slice(before).filter((c) => c.method === "sendMessage");
    };
    const [privately, inGroup] = await ask(ADMIN);
    expect(privately!.params.chat_id).toBe(ADMIN.id);
    expect(String(privately!.params.text)).toMatch(FEED_URL);
    expect(inGroup!.params.chat_id).toBe(chatId);
    expect(textOf(inGroup)).toBe(renderTelegramHtml("I sent you the calendar's address in a private message."));
    expect(JSON.stringify(await transcript(chat.stub, chatId))).not.toMatch(FEED_URL);
    // An admin who never started the bot: the group is told how to get the address; the log names what did not go.
    await bot.script("sendMessage", [{ kind: "blocked" }], String(ADMIN.id));
    const errors = quietConsole("error");
    const [refusedPrivately, told] = await ask(ADMIN, "/calendar new");
    expect(refusedPrivately!.params.chat_id).toBe(ADMIN.id);
    expect(lines(errors)).toEqual([
      `a calendar's address could not be sent to user ${ADMIN.id} privately: Telegram sendMessage failed (403): Forbidden: bot was blocked by the user`,
    ]);
    expect(textOf(told)).toBe(
      renderTelegramHtml(
        "I can't write to you privately yet: open a chat with me and press Start, then send the command again; or make the feed on the page or in the Mini App.",
      ),
    );
    await bot.script("getChatMember", [{ kind: "member", status: "member" }], chatId);
    const refused = await ask(MEMBER);
    expect(refused.map((c) => c.params.chat_id)).toEqual([chatId]);
    expect(textOf(refused[0])).toBe(renderTelegramHtml("Only the group's admins can change its jobs."));
  });
});
