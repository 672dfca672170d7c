/**
 * `/hook` in Telegram (docs/telegram.md#hooks, docs/hooks.md): through the webhook with the updates Telegram sends and
 * the Bot API stub. In a private chat the URL is shown once, in the reply, and the transcript keeps `[shown once]`;
 * the URL then runs the job. In a group it goes to the admin who asked in a private message, never to the group; when
 * Telegram will not deliver it there, the group is told how to get it. Chat ids 9810000 up, groups -1009810000000 up.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { renderTelegramHtml } from "../../src/telegram/render";
import { BOT_USERNAME, groupText, person, supergroup } from "../group-updates";
import { call, chatIds, jobsOf, lines, must, quietConsole, transcript } from "./helpers";
import { delivered, newUpdateId, postUpdate, sayOnce, TestBot, telegramChat, textOf } from "./telegram-helpers";

const bot = new TestBot("hooks");
const newChat = chatIds(9_810_000);
const TOKEN_IN_URL = /http:\/\/localhost\/hooks\/([a-z2-7]{32})/;

beforeAll(async () => {
  const me = { id: Number(bot.id), is_bot: true, first_name: "Cuckoo", username: BOT_USERNAME, can_join_groups: true };
  await bot.script("getMe", [{ kind: "ok", result: { ...me, can_read_all_group_messages: false, supports_inline_queries: false } }]);
});

describe("/hook in a private chat", () => {
  it("makes a job only its hook runs, shows its URL once, keeps [shown once] in the transcript; the URL runs the job", async () => {
    const { chatId } = newChat();
    const chat = await telegramChat(bot, chatId);
    const reply = textOf(await sayOnce(bot, chat, "/hook new summarise what came"))!;
    const token = TOKEN_IN_URL.exec(reply)![1]!;
    const [job] = await jobsOf(chat);
    expect(job).toMatchObject({ schedule: { trigger: "hook" }, category: "triggered", hook: true, text: "summarise what came" });
    const url = `http://localhost/hooks/${token}`;
    expect(reply).toBe(
      renderTelegramHtml(
        [
          `Created \`${job!.id}\` 💬 summarise what came · when its hook is called`,
          `Job ${job!.id}'s hook, shown once (whoever has it can run the job, so keep it secret):`,
          url,
          "POST JSON or text to it: the body is the run's input.",
        ].join("\n"),
      ),
    );
    const kept = (await transcript(chat.stub, chatId)).filter((e) => e.role === "bot").map((e) => e.text);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toContain("http://localhost/hooks/[shown once]");
    expect(kept[0]).not.toContain(token);

    const knocked = await call(`/hooks/${token}`, { method: "POST", headers: { "Content-Type": "text/plain" }, body: "hi" });
    expect(knocked.status).toBe(202);
    expect(chat.sent).toHaveLength(1);

    expect(textOf(await sayOnce(bot, chat, `/hook ${job!.id}`))).toBe(
      renderTelegramHtml(`Job ${job!.id} has a hook. /hook ${job!.id} new replaces it (the old address stops working); /hook ${job!.id} off revokes it.`),
    );
    expect(textOf(await sayOnce(bot, chat, `/hook ${job!.id.toUpperCase()} off`))).toBe(
      renderTelegramHtml(`Job ${job!.id}'s hook is revoked: its address finds nothing now.`),
    );
    expect((await call(`/hooks/${token}`, { method: "POST", headers: { "Content-Type": "text/plain" }, body: "hi" })).status).toBe(404);
    expect(textOf(await sayOnce(bot, chat, `/hook ${job!.id} off`))).toBe(renderTelegramHtml(`Job ${job!.id} has no hook.`));
  });
});

describe("/hook in a group", () => {
  const ADMIN = person(9810001, "Ada");

  it("sends the URL to the admin privately, tells the group where it went, and points to the page when it cannot", async () => {
    const chatId = "-1009810000000";
    const chat = await telegramChat(bot, chatId, { allowed: [String(ADMIN.id)], chats: [chatId] });
    const job = await must(chat.stub.createJob(chatId, { name: "Deploys", kind: "prompt", cron: "0 9 * * 1", text: "Deploys?" }, "admin"));
    const tg = supergroup(chatId, "Ops");
    const ask = async () => {
      const before = (await bot.calls()).length;
      expect((await postUpdate(bot.env([String(ADMIN.id)], [chatId]), groupText(newUpdateId(), tg, ADMIN, `/hook ${job.id} new`))).status).toBe(200);
      await delivered(bot, chat);
      return (await bot.calls()).slice(before).filter((c) => c.method === "sendMessage");
    };
    const [privately, inGroup] = await ask();
    expect(privately!.params.chat_id).toBe(ADMIN.id);
    expect(String(privately!.params.text)).toMatch(TOKEN_IN_URL);
    expect(inGroup!.params.chat_id).toBe(chatId);
    expect(textOf(inGroup)).toBe(renderTelegramHtml("I sent you the hook's address in a private message."));
    expect(JSON.stringify(await transcript(chat.stub, chatId))).not.toMatch(TOKEN_IN_URL);

    await bot.script("sendMessage", [{ kind: "blocked" }], String(ADMIN.id));
    const errors = quietConsole("error");
    const [refused, told] = await ask();
    expect(lines(errors)).toEqual([
      `a hook's address could not be sent to user ${ADMIN.id} privately: Telegram sendMessage failed (403): Forbidden: bot was blocked by the user`,
    ]);
    expect(refused!.params.chat_id).toBe(ADMIN.id);
    expect(textOf(told)).toBe(
      renderTelegramHtml(
        "I can't write to you privately yet: open a chat with me and press Start, then send the command again; or make the hook on the page or in the Mini App.",
      ),
    );
  });
});
