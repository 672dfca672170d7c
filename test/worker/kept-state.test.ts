/**
 * What was done stays done (issue 32, docs/api.md#jobs, docs/telegram.md#skip-id): a skip by hand, a snoozed
 * reminder's copy and a job's ends (`runsLeft`, `until`) survive every other command, through the webhook with the
 * updates Telegram sends in a basic group and the Bot API stub. A daily job at 09:00 whose Thursday run was skipped
 * is walked through `/timezone` to the zone it has, to another zone and back, `/resume` while it is not paused,
 * `/pause` and `/resume`, `/edit` of its text, `/edit` to the schedule it has, and the group's move to a
 * supergroup: after each, Thursday's 09:00 (wherever the chat is) stays skipped, Friday's runs, 4 runs and the
 * end are left, and the snoozed copy keeps its time. The chat's clock stands still at Wed 12 May 2027 14:40 in
 * Berlin. User 5320003 is in ALLOWED_USER_IDS; basic groups -4532000000 up, their supergroups -100<the same digits>.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { PromptMessage } from "../../src/contracts/prompt-message";
import type { Job } from "../../src/schemas/jobs";
import { renderTelegramHtml } from "../../src/telegram/render";
import { BOT_USERNAME, basicGroup, groupPress, groupText, migrateTo, person, supergroup, type TgChat } from "../group-updates";
import { feed } from "./agent-helpers";
import { advanceTo, historyOf, jobOf, must } from "./helpers";
import { type Call, delivered, newUpdateId, postUpdate, type TelegramChat, TestBot, telegramChat } from "./telegram-helpers";

vi.setConfig({ testTimeout: 30_000 });
const bot = new TestBot("kept-state");
const CY = person(5320003, "Cy");
const BERLIN = "Europe/Berlin";
// Wed 12 May 2027 14:30 in Berlin (CEST, UTC+2).
const MAY = Date.UTC(2027, 4, 12, 12, 30);
const iso = (ms: number) => new Date(ms).toISOString();
// 09:00 on a day of May 2027, in Berlin and in Tokyo (UTC+9).
const berlinNine = (day: number) => Date.UTC(2027, 4, day, 7, 0);
const tokyoNine = (day: number) => Date.UTC(2027, 4, day, 0, 0);
let next = 0;

beforeAll(async () => {
  await bot.script("getMe", [
    {
      kind: "ok",
      result: {
        id: Number(bot.id),
        is_bot: true,
        first_name: "Cuckoo",
        username: BOT_USERNAME,
        can_join_groups: true,
        can_read_all_group_messages: false,
        supports_inline_queries: false,
      },
    },
  ]);
});

const hook = (listed: string) => bot.env([String(CY.id)], [listed]);

/** Posts `update` (the basic group `listed`) and returns the texts of what the chat then sent. */
async function post(chat: TelegramChat, listed: string, update: unknown): Promise<string[]> {
  const before = (await bot.sends(chat.chatId)).length;
  expect((await postUpdate(hook(listed), update)).status).toBe(200);
  return (await delivered(bot, chat)).slice(before).map((c) => String(c.params.text));
}

/** Fires job `id` at its next run (the echo agent delivers its text): the run's id and the job's message. */
async function fire(chat: TelegramChat, id: string): Promise<{ runId: string; message: Call }> {
  await advanceTo(chat.stub, Date.parse((await jobOf(chat.stub, chat.chatId, id)).nextRunAt!));
  const before = chat.sent!.length;
  expect(await runDurableObjectAlarm(chat.stub)).toBe(true);
  const prompt = chat
    .sent!.slice(before)
    .map((s) => s.body as PromptMessage)
    .find((m) => m.jobId === id)!;
  await feed([prompt]);
  return { runId: prompt.key, message: (await delivered(bot, chat)).at(-1)! };
}

describe("a skipped run, a snoozed copy and a job's ends", () => {
  it("survive a zone change to the same zone and to another, /resume, /pause and /resume, /edit of the text or to the same schedule, and a move", async () => {
    const digits = 4532000000 + next++;
    const oldId = `-${digits}`;
    const freshId = `-100${digits}`;
    const group: TgChat = basicGroup(oldId);
    const vars = { allowed: [String(CY.id)], chats: [oldId] };
    const old = await telegramChat(bot, oldId, vars);
    const fresh = await telegramChat(bot, freshId, vars);
    await old.stub.testFreezeClock(MAY);
    await must(old.stub.setTimeZone(oldId, BERLIN));
    const say = (text: string) => post(old, oldId, groupText(newUpdateId(), group, CY, text));

    const daily = await must(
      old.stub.createJob(
        oldId,
        { name: "Water the plants", kind: "prompt", text: "Water the plants", cron: "0 9 * * *", runsLeft: 5, until: "2027-05-31T20:00:00.000Z" },
        "user",
      ),
    );
    // A reminder at 14:40, snoozed an hour from its message: the copy at 15:40.
    const [made] = await say("/remind 10m tea");
    const reminder = /<code>([a-z2-9]{5})<\/code>/.exec(made!)![1]!;
    const { runId, message } = await fire(old, reminder);
    expect(await post(old, oldId, groupPress(newUpdateId(), group, CY, `s:60:${runId}`, undefined, message.messageId!))).toEqual([]);
    const [copy] = (await must(old.stub.listJobs(oldId, {}))).jobs.filter((j) => j.id !== daily.id);
    expect(copy).toMatchObject({ name: "tea", schedule: { at: iso(MAY + 70 * 60_000) }, nextRunAt: iso(MAY + 70 * 60_000) });

    expect(await say(`/skip ${daily.id}`)).toEqual([
      renderTelegramHtml(
        [
          "Skipped 13 May 09:00.",
          `\`${daily.id}\` 💬 Water the plants · every day at 09:00 · next 14 May 09:00 · 5 runs left · until 31 May 22:00`,
          "Next: Fri 14 May 09:00, Sat 15 May 09:00, Sun 16 May 09:00",
        ].join("\n"),
      ),
    ]);
    const skipped = (at: number) => ({ runId: `${daily.id}:${at}`, dueAt: iso(at), status: "skipped", detail: "skipped by hand" });
    const start = await jobOf(old.stub, oldId, daily.id);
    expect(start).toMatchObject({ nextRunAt: iso(berlinNine(14)), runsLeft: 5 });

    /** The daily job as it was, its next run `nextRunAt` and its skip at `skippedAt`; the copy as it was. */
    const kept = async (chat: TelegramChat, nextRunAt: number, skippedAt: number, changed: Partial<Job> = {}) => {
      const jobs = (await must(chat.stub.listJobs(chat.chatId, {}))).jobs;
      expect(jobs.find((j) => j.id === daily.id)).toEqual({ ...start, chatId: chat.chatId, nextRunAt: iso(nextRunAt), ...changed });
      expect(jobs.find((j) => j.id === copy!.id)).toEqual({ ...copy, chatId: chat.chatId });
      expect((await historyOf(chat.stub, chat.chatId, daily.id)).map((r) => ({ runId: r.runId, dueAt: r.dueAt, status: r.status, detail: r.detail }))).toEqual([
        skipped(skippedAt),
      ]);
    };

    // The zone it has: Thursday's 09:00 stays skipped.
    await say("/timezone Europe/Berlin");
    await kept(old, berlinNine(14), berlinNine(13));
    // Another zone: Thursday's 09:00 is Tokyo's now, and stays skipped; the copy keeps its instant.
    await say("/timezone Asia/Tokyo");
    await kept(old, tokyoNine(14), tokyoNine(13));
    await say("/timezone Europe/Berlin");
    await kept(old, berlinNine(14), berlinNine(13));

    expect(await say(`/resume ${daily.id}`)).toEqual([`Resumed ${daily.id} (Water the plants); next 14 May 09:00.`]);
    await kept(old, berlinNine(14), berlinNine(13));
    await say(`/pause ${daily.id}`);
    expect(await say(`/resume ${daily.id}`)).toEqual([`Resumed ${daily.id} (Water the plants); next 14 May 09:00.`]);
    await kept(old, berlinNine(14), berlinNine(13));

    await say(`/edit ${daily.id} text Water the ferns`);
    await kept(old, berlinNine(14), berlinNine(13), { name: "Water the ferns", text: "Water the ferns" });
    await say(`/edit ${daily.id} every day at 9:00`);
    await kept(old, berlinNine(14), berlinNine(13), { name: "Water the ferns", text: "Water the ferns" });

    // The group becomes a supergroup: all of it moves there, the skip too.
    await fresh.stub.testFreezeClock(await old.stub.testAdvanceClock(0));
    await bot.upgraded(oldId, freshId);
    vi.spyOn(console, "log").mockImplementation(() => {});
    expect((await postUpdate(hook(oldId), migrateTo(newUpdateId(), oldId, freshId, CY))).status).toBe(200);
    vi.restoreAllMocks();
    await kept(fresh, berlinNine(14), berlinNine(13), { name: "Water the ferns", text: "Water the ferns" });
    await post(fresh, oldId, groupText(newUpdateId(), supergroup(freshId, "Family"), CY, "/timezone Europe/Berlin"));
    await kept(fresh, berlinNine(14), berlinNine(13), { name: "Water the ferns", text: "Water the ferns" });

    // Friday's runs, counted: 4 left.
    const friday = await fire(fresh, daily.id);
    expect(friday.runId).toBe(`${daily.id}:${berlinNine(14)}`);
    expect(await jobOf(fresh.stub, freshId, daily.id)).toMatchObject({ nextRunAt: iso(berlinNine(15)), runsLeft: 4, until: start.until });
  });

  it("stays skipped after a zone to the west brings today's run back before it: that run fires, and so does a /skip of it, past the day skipped", async () => {
    const groupId = `-${4532000000 + next++}`;
    const group: TgChat = basicGroup(groupId);
    const chat = await telegramChat(bot, groupId, { allowed: [String(CY.id)], chats: [groupId] });
    await chat.stub.testFreezeClock(MAY);
    await must(chat.stub.setTimeZone(groupId, BERLIN));
    const say = (text: string) => post(chat, groupId, groupText(newUpdateId(), group, CY, text));
    const daily = (name: string) => must(chat.stub.createJob(groupId, { name, kind: "prompt", text: name, cron: "0 9 * * *" }, "user"));
    const [fires, skips] = [await daily("Stretch"), await daily("Read")];
    await say(`/skip ${fires.id}`);
    await say(`/skip ${skips.id}`);
    // 14:30 in Berlin is 08:30 in New York: Wednesday's 09:00 there is still to come; Thursday's stays skipped.
    const newYorkNine = (day: number) => Date.UTC(2027, 4, day, 13, 0);
    await say("/timezone America/New_York");
    for (const job of [fires, skips]) {
      expect((await jobOf(chat.stub, groupId, job.id)).nextRunAt).toBe(iso(newYorkNine(12)));
    }
    expect(await say(`/skip ${skips.id}`)).toEqual([
      renderTelegramHtml(
        [
          "Skipped 09:00.",
          `\`${skips.id}\` 💬 Read · every day at 09:00 · next 14 May 09:00`,
          "Next: Fri 14 May 09:00, Sat 15 May 09:00, Sun 16 May 09:00",
        ].join("\n"),
      ),
    ]);
    const wednesday = await fire(chat, fires.id);
    expect(wednesday.runId).toBe(`${fires.id}:${newYorkNine(12)}`);
    expect((await jobOf(chat.stub, groupId, fires.id)).nextRunAt).toBe(iso(newYorkNine(14)));
    expect((await historyOf(chat.stub, groupId, fires.id)).map((r) => [r.runId, r.status])).toEqual([
      [`${fires.id}:${newYorkNine(13)}`, "skipped"],
      [`${fires.id}:${newYorkNine(12)}`, "delivered"],
    ]);
  });
});
