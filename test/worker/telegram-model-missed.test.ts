/**
 * `/model` and `/edit <id> missed …` in Telegram (docs/agent.md#models, docs/telegram.md#model, issue 35), through the
 * webhook with the updates Telegram sends, from apps in English and German; each reply asserted whole, in the
 * sender's language (its replies' table). Chat ids 9840000 up.
 */
import { describe, expect, it } from "vitest";
import { renderTelegramHtml } from "../../src/telegram/render";
import { textsOf } from "../../src/texts";
import { chatIds, jobsOf, must, setInstanceVars } from "./helpers";
import { sayIn, type TelegramChat, TestBot, telegramChat } from "./telegram-helpers";

const bot = new TestBot("model-missed");
const newChat = chatIds(9_840_000);
const MODELS = { LLM_BASE_URL: "http://127.0.0.1:9/v1", LLM_MODEL: "gpt-4o-mini", LLM_MODELS: "gpt-4o, o3" };

async function chatWithModels(): Promise<TelegramChat> {
  const chat = await telegramChat(bot, newChat().chatId);
  await setInstanceVars(chat.stub, { ...bot.vars([chat.chatId]), ...MODELS });
  return chat;
}

describe("/model", () => {
  it("says there is none to choose when the bot runs no model", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    expect(await sayIn(bot, chat, "/model")).toBe(renderTelegramHtml("This bot runs no model, so there is none to choose (its owner sets LLM_MODEL)."));
  });

  it("shows the model and the choices, sets one, refuses one it does not offer, and goes back to the default", async () => {
    const chat = await chatWithModels();
    expect(await sayIn(bot, chat, "/model")).toBe(
      renderTelegramHtml(
        "Model: gpt-4o-mini (the bot's default). Choices: gpt-4o-mini, gpt-4o and o3. Change it with /model <name>; /model default goes back.",
      ),
    );
    expect(await sayIn(bot, chat, "/model GPT-4o")).toBe(renderTelegramHtml("Model: gpt-4o. Jobs with a model of their own keep theirs."));
    expect(await must(chat.stub.getModel(chat.chatId))).toEqual({ model: "gpt-4o", effective: "gpt-4o", choices: ["gpt-4o-mini", "gpt-4o", "o3"] });
    expect(await sayIn(bot, chat, "/model gpt-5")).toBe(renderTelegramHtml(`"gpt-5" is not one of this bot's models, which are gpt-4o-mini, gpt-4o and o3.`));
    expect(await sayIn(bot, chat, "/model default")).toBe(renderTelegramHtml("Model: gpt-4o-mini (the bot's default)."));
  });

  it("answers a German app in German, and takes its word for the default", async () => {
    const chat = await chatWithModels();
    const de = (await textsOf("de")).model;
    expect(await sayIn(bot, chat, "/model", "de")).toBe(renderTelegramHtml(de.shown("gpt-4o-mini", true, "gpt-4o-mini, gpt-4o und o3")));
    expect(await sayIn(bot, chat, "/model o3", "de")).toBe(renderTelegramHtml(de.set("o3")));
    expect(await sayIn(bot, chat, `/model ${de.defaultWord}`, "de")).toBe(renderTelegramHtml(de.reset("gpt-4o-mini")));
  });
});

describe("/edit <id> missed", () => {
  it("changes what a missed run does, in English and in German words, and /jobs shows it with a pinned model", async () => {
    const chat = await chatWithModels();
    const job = await must(chat.stub.createJob(chat.chatId, { name: "Digest", kind: "prompt", cron: "0 8 * * *", text: "Digest", model: "o3" }, "admin"));
    const changed = await sayIn(bot, chat, `/edit ${job.id} missed skip`);
    expect(changed.split("\n")[0]).toBe(
      renderTelegramHtml(
        `Changed \`${job.id}\` 💬 Digest · every day at 08:00 · next ${changed.match(/next ([^·]+) ·/)![1]!.trim()} · model o3 · if missed: skip`,
      ),
    );
    expect((await jobsOf(chat))[0]).toMatchObject({ missed: "skip", model: "o3" });

    const de = await textsOf("de");
    const german = await sayIn(bot, chat, `/edit ${job.id} ${de.job.missedWord} ${de.job.missedValues.ask}`, "de");
    expect(german.split("\n")[0]).toContain(`${de.jobs.model("o3")} · ${de.jobs.missed.ask}`);
    expect((await jobsOf(chat))[0]!.missed).toBe("ask");
    // Without its accent, and in English from a German app, it is read the same.
    await sayIn(bot, chat, `/edit ${job.id} verpasst uberspringen`, "de");
    expect((await jobsOf(chat))[0]!.missed).toBe("skip");

    expect(await sayIn(bot, chat, `/edit ${job.id} missed later`)).toBe(
      renderTelegramHtml(
        `What should a run missed while the bot was offline do? /edit ${job.id} missed once (one late run, the default), skip (none), all (each, at most 10) or ask (a message with Run now and Skip).`,
      ),
    );
    const jobs = await sayIn(bot, chat, "/jobs");
    expect(jobs).toContain(renderTelegramHtml(" · model o3 · if missed: skip"));
  });

  it("refuses all for a one-off with the API's sentence, and changes nothing", async () => {
    const chat = await chatWithModels();
    const job = await must(chat.stub.createJob(chat.chatId, { name: "Dentist", kind: "prompt", delay: "PT2H", text: "Call" }, "admin"));
    expect(await sayIn(bot, chat, `/edit ${job.id} missed all`)).toBe(
      renderTelegramHtml(`"missed": "all" is for recurring jobs: a one-off runs once; use "once", "skip" or "ask".`),
    );
    expect((await jobsOf(chat))[0]!.missed).toBe("once");
  });
});
