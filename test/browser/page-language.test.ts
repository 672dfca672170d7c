/**
 * The page in the chat's language (issue 33) in a real Chromium, against `wrangler dev` with a bot token (its Bot API
 * the local stub) so that the chats' languages are set as their users set them, through the webhook: chat 111's
 * user writes `/language de`, chat 112's user writes from a Telegram app in Russian, chat 113 stays English. The
 * admin page shows each chat in its language: the labels of index.html, the list and its states, the zone and
 * quiet hours, the dialog and the API's schedule descriptions (the preview asked in that language), dates in
 * its Intl locale; an English page loads no table but English's, and a chat in English after them shows the
 * labels exactly as index.html has them. The Mini App of chat 111 is German too, Telegram's main button included.
 * And in Node: every table under page/js/texts/ has exactly the keys of en.js, each of the same kind.
 */
/// <reference lib="dom" /> (page.evaluate callbacks run in the page)
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorker, type Worker, waitFor } from "../e2e/harness.js";
import { signInitData } from "../stub/init-data.js";
import { startTelegramStub, type TelegramStub } from "../stub/telegram-stub.js";
import { adminApi, fitsWidths, launch, openChat } from "./browser.js";

const TEXTS = fileURLToPath(new URL("../../page/js/texts/", import.meta.url));
const LANGUAGES = ["de", "en", "es", "fr", "it", "nl", "pt", "ru"];

type Table = Record<string, any>;
const table = async (lang: string): Promise<Table> => (await import(pathToFileURL(path.join(TEXTS, `${lang}.js`)).href)).default;

/** A value's kind, all the way down: "string", a function with its number of parameters, an object's or a list's kinds. */
function kinds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(kinds);
  if (typeof value === "function") return `function(${value.length})`;
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, kinds(v)]));
  return typeof value;
}

describe("the page's tables", () => {
  it("are one per language, each with exactly the keys of en.js, each of the same kind, no string empty", async () => {
    expect(readdirSync(TEXTS).sort()).toEqual(LANGUAGES.map((lang) => `${lang}.js`));
    const en = kinds(await table("en"));
    for (const lang of LANGUAGES) {
      const texts = await table(lang);
      expect(kinds(texts), lang).toEqual(en);
      const empty = Object.entries(texts).filter(([, v]) => typeof v === "string" && v.trim() === "");
      expect(empty, lang).toEqual([]);
    }
  });

  it("count in Russian's three forms (1, 21 one; 2–4 few; 11–14 and the rest many), in French's 0 and 1 singular", async () => {
    const ru = await table("ru");
    expect([1, 2, 4, 5, 11, 12, 14, 20, 21, 22, 25, 101, 111, 112].map((n) => ru.jobCount(n))).toEqual([
      "1 задача",
      "2 задачи",
      "4 задачи",
      "5 задач",
      "11 задач",
      "12 задач",
      "14 задач",
      "20 задач",
      "21 задача",
      "22 задачи",
      "25 задач",
      "101 задача",
      "111 задач",
      "112 задач",
    ]);
    expect([1, 3, 7, 21].map((n) => ru.runsLeft(n))).toEqual(["остался 1 запуск", "осталось 3 запуска", "осталось 7 запусков", "остался 21 запуск"]);
    expect([2, 5, 21].map((n) => ru.ago(ru.days(n)))).toEqual(["2 дня назад", "5 дней назад", "21 день назад"]);
    const fr = await table("fr");
    expect([0, 1, 2].map((n) => fr.jobCount(n))).toEqual(["0 tâche", "1 tâche", "2 tâches"]);
  });
});

const ADMIN = "browser-page-language-admin-token";
const BOT = "7000000444:AAE_browser-page-language_abcdefg";
const SECRET = "browser-language-hook-secret";
const [DE, RU, EN] = ["111", "112", "113"];

let stub: TelegramStub;
let worker: Worker;
let browser: Awaited<ReturnType<typeof launch>>;
let page: Page;
let updateId = 1;
/** The tables the page loaded (`de` for /js/texts/de.js), in order. */
const loaded: string[] = [];

const admin = adminApi(() => worker.base, ADMIN);

/** Chat `chatId`'s user writes `text` in a private chat, from a Telegram app in `language` when given. */
async function write(chatId: string, text: string, language?: string): Promise<void> {
  const from = { id: Number(chatId), is_bot: false, first_name: "Ada", ...(language ? { language_code: language } : {}) };
  const chat = { id: Number(chatId), type: "private", first_name: "Ada" };
  const id = updateId++;
  const res = await fetch(`${worker.base}/telegram/webhook`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Telegram-Bot-Api-Secret-Token": SECRET },
    body: JSON.stringify({ update_id: id, message: { message_id: id, from, chat, date: Math.floor(Date.now() / 1000), text } }),
    signal: AbortSignal.timeout(10_000),
  });
  expect(res.status, await res.text()).toBe(200);
}

/** Chat `chatId`'s language, once the API says it is `lang`. */
const languageIs = (chatId: string, lang: string) =>
  waitFor(`chat ${chatId} speaks ${lang}`, async () => ((await admin("GET", `/admin/chats/${chatId}/jobs`)).body.language === lang ? true : undefined));

/** What index.html's labels show: each `data-t` element's HTML, and each attribute written from the table. */
const labels = (p: Page) =>
  p.evaluate(() => [
    ...Array.from(document.querySelectorAll("[data-t]"), (el) => el.innerHTML),
    ...Array.from(document.querySelectorAll("[data-t-placeholder]"), (el) => el.getAttribute("placeholder")),
    ...Array.from(document.querySelectorAll("[data-t-aria-label]"), (el) => el.getAttribute("aria-label")),
  ]);

const text = (selector: string) => page.locator(selector).first().textContent();

beforeAll(async () => {
  stub = await startTelegramStub();
  worker = await startWorker({
    vars: {
      ADMIN_TOKEN: ADMIN,
      TELEGRAM_BOT_TOKEN: BOT,
      TELEGRAM_WEBHOOK_SECRET: SECRET,
      TELEGRAM_API_BASE: stub.url,
      ALLOWED_USER_IDS: `${DE},${RU},${EN}`,
    },
  });
  browser = await launch();
  page = browser.context.pages()[0] ?? (await browser.context.newPage());
  page.on("request", (request) => {
    const m = /\/js\/texts\/(\w+)\.js$/.exec(request.url());
    if (m?.[1]) loaded.push(m[1]);
  });
  // German chosen with /language; Russian followed from the app the user writes from.
  await write(DE, "/language de");
  await write(RU, "/help", "ru");
  await write(EN, "/help", "en");
  await languageIs(DE, "de");
  await languageIs(RU, "ru");
  expect((await admin("POST", `/admin/chats/${DE}/jobs`, { name: "Posteingang", kind: "prompt", text: "Fasse zusammen.", cron: "0 8 * * 1-5" })).status).toBe(
    201,
  );
});

afterAll(async () => {
  await browser?.close();
  await worker?.stop();
  await stub?.close();
});

describe("the admin page in the open chat's language", () => {
  let english: Awaited<ReturnType<typeof labels>>;

  it("is English for an English chat, loading no table but English's", async () => {
    await page.goto(`${worker.base}/#chat=${EN}`);
    english = await labels(page);
    await page.getByLabel("Admin token").fill(ADMIN);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Nothing scheduled yet" }).waitFor();
    await expect.poll(() => text("#zone-text")).toBe("Time zone: UTC");
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("en");
    expect(loaded).toEqual(["en"]);
  });

  it("is German for a German chat: labels, list, zone, quiet hours, dialog and the API's words", async () => {
    await openChat(page, DE);
    await page.getByRole("heading", { name: "Planer", level: 1 }).waitFor();
    expect(await page.evaluate(() => [document.documentElement.lang, document.title])).toEqual(["de", "Planer · Cuckoo"]);
    expect(loaded).toEqual(["en", "de"]);
    await expect.poll(() => text("#zone-text")).toBe("Zeitzone: UTC");
    await expect.poll(() => text("#quiet-text")).toBe("Ruhezeiten: aus");
    expect(await page.getByRole("button", { name: "Erstellen", exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole("group", { name: "Kategorie" }).getByRole("button").allTextContents()).toEqual([
      "Alle",
      "Einmalig",
      "Wiederkehrend",
      "Überwachung",
      "Ausgelöst",
    ]);
    expect(await page.getByPlaceholder("Jobs durchsuchen").count()).toBe(1);

    const row = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Posteingang" }) });
    await expect.poll(() => row.locator(".job-schedule").textContent()).toBe("werktags um 08:00 (UTC)");
    expect(await row.locator(".job-next").textContent()).toMatch(/^Nächster Lauf: (Mo|Di|Mi|Do|Fr)\., \d{1,2}\. \S+ 08:00 \(in \d+ (Min\.|Std\.|Tagen)\)$/);
    expect(await row.locator(".job-status").textContent()).toBe("Noch nicht gelaufen");
    expect(await row.locator(".job-actions button").allTextContents()).toEqual(["Jetzt ausführen", "Pausieren", "Bearbeiten", "Hook", "Verlauf", "Löschen"]);
    expect(await page.getByRole("button", { name: "Pausieren: Posteingang" }).count()).toBe(1);
    await expect.poll(() => page.getByLabel("Chat", { exact: true }).locator(`option[value="${DE}"]`).textContent()).toBe(`${DE} · 1 Job`);

    await page.getByLabel("Jobs durchsuchen").fill("zebra");
    await expect.poll(() => text("#list-state")).toBe("Keine Jobs zu „zebra“. Alle Jobs zeigen");
    await page.getByRole("button", { name: "Alle Jobs zeigen" }).click();
    await expect.poll(() => page.locator(".job").count()).toBe(1);

    await page.getByRole("button", { name: "Erstellen", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Job erstellen" });
    await dialog.waitFor();
    expect(await text("#job-where")).toBe(`In Chat ${DE}, Zeiten in UTC.`);
    expect(await dialog.locator("#job-schedule-hint code").allTextContents()).toContain("jeden zweiten Dienstag um 10");
    await dialog.getByLabel("Zeitplan", { exact: true }).fill("jeden Freitag um 17:00");
    await expect.poll(() => text("#preview-description")).toBe("jeden Freitag um 17:00 (UTC)");
    expect(await text("#job-schedule-understood")).toMatch(
      /^jeden Freitag um 17:00 · als Nächstes: Fr\., \d{1,2}\. \S+ 17:00, Fr\., \d{1,2}\. \S+( \d{4})? 17:00…$/,
    );
    expect(await dialog.locator("#preview-runs li").first().textContent()).toMatch(/^Fr\., \d{1,2}\. \S+ 17:00 \(in \d+ (Min\.|Std\.|Tagen?)\)$/);
    // Words in another of the bot's languages read too, described in the chat's.
    await dialog.getByLabel("Zeitplan", { exact: true }).fill("every day at 8");
    await expect.poll(() => text("#preview-description")).toBe("jeden Tag um 08:00 (UTC)");
    await dialog.getByLabel("Art", { exact: true }).selectOption("watcher");
    expect(await dialog.getByLabel("Befehl", { exact: true }).count()).toBe(1);
    await dialog.getByRole("button", { name: "Abbrechen" }).click();
    await dialog.waitFor({ state: "hidden" });

    // Editing shows the schedule in the chat's words, which read back as the same schedule.
    await page.getByRole("button", { name: "Bearbeiten: Posteingang" }).click();
    const edit = page.getByRole("dialog", { name: "„Posteingang“ bearbeiten" });
    await edit.waitFor();
    expect(await edit.getByLabel("Zeitplan", { exact: true }).inputValue()).toBe("werktags um 08:00");
    await expect.poll(() => text("#preview-description")).toBe("werktags um 08:00 (UTC)");
    await edit.getByLabel("Name", { exact: true }).fill("Posteingang morgens");
    await edit.getByRole("button", { name: "Speichern" }).click();
    await page.getByRole("heading", { name: "Posteingang morgens" }).waitFor();
    expect((await admin("GET", `/admin/chats/${DE}/jobs`)).body.jobs.map((j: any) => [j.name, j.schedule])).toEqual([
      ["Posteingang morgens", { cron: "0 8 * * 1-5" }],
    ]);
    await fitsWidths(page, "page-de");
  });

  it("is Russian for a Russian chat: the empty state, its suggestions and what one creates", async () => {
    await page.getByLabel("Chat-ID", { exact: true }).fill(RU);
    await page.getByRole("button", { name: "Öffnen", exact: true }).click();
    await page.getByRole("heading", { name: "Пока ничего не запланировано" }).waitFor();
    expect(await page.evaluate(() => [document.documentElement.lang, document.title])).toEqual(["ru", "Планировщик · Cuckoo"]);
    expect(loaded).toEqual(["en", "de", "ru"]);
    await expect.poll(() => text("#zone-text")).toBe("Часовой пояс: UTC");
    await expect.poll(() => text("#quiet-text")).toBe("Тихие часы: выключены");
    expect(await page.getByRole("button", { name: "Создать задачу" }).isVisible()).toBe(true);
    expect(await page.getByRole("list", { name: "Варианты" }).getByRole("heading").allTextContents()).toEqual([
      "Сводка почты по будням",
      "Напомнить через 20 минут",
      "Итоги недели по пятницам",
    ]);
    await fitsWidths(page, "page-ru-empty");

    await page.getByRole("button", { name: "Использовать: Сводка почты по будням" }).click();
    const dialog = page.getByRole("dialog", { name: "Новая задача" });
    await dialog.waitFor();
    expect(await dialog.getByLabel("Расписание", { exact: true }).inputValue()).toBe("по будням в 08:00");
    await expect.poll(() => text("#preview-description")).toBe("по будням в 08:00 (UTC)");
    expect(await dialog.locator("#preview-runs li").count()).toBe(5);
    expect(await dialog.locator("#preview-runs li").first().textContent()).toMatch(
      /^(пн|вт|ср|чт|пт), \d{1,2} \S+ 08:00 \((меньше чем через минуту|через \d+ (мин|ч|день|дня|дней))\)$/,
    );
    await dialog.getByRole("button", { name: "Сохранить" }).click();
    await dialog.waitFor({ state: "hidden" });
    const row = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Сводка почты по будням" }) });
    await expect.poll(() => row.locator(".job-schedule").textContent()).toBe("по будням в 08:00 (UTC)");
    expect(await row.locator(".job-status").textContent()).toBe("Ещё не запускалась");
    await expect.poll(() => page.getByLabel("Чат", { exact: true }).locator(`option[value="${RU}"]`).textContent()).toBe(`${RU} · 1 задача`);
    expect((await admin("GET", `/admin/chats/${RU}/jobs`)).body.jobs.map((j: any) => [j.name, j.schedule])).toEqual([
      ["Сводка почты по будням", { cron: "0 8 * * 1-5" }],
    ]);
  });

  it("is English again for an English chat, its labels exactly as index.html has them", async () => {
    await page.getByLabel("ID чата", { exact: true }).fill(EN);
    await page.getByRole("button", { name: "Открыть", exact: true }).click();
    await page.getByRole("heading", { name: "Nothing scheduled yet" }).waitFor();
    expect(await page.evaluate(() => [document.documentElement.lang, document.title])).toEqual(["en", "Scheduler · Cuckoo"]);
    await expect.poll(() => text("#zone-text")).toBe("Time zone: UTC");
    await expect.poll(() => text("#quiet-text")).toBe("Quiet hours: off");
    expect(await labels(page)).toEqual(english);
    expect(await page.getByLabel("Chat", { exact: true }).locator(`option[value="${RU}"]`).textContent()).toBe(`${RU} · 1 job`);
  });
});

describe("the Mini App of a German chat", () => {
  it("is in German, Telegram's main button too", async () => {
    const app = await browser.context.newPage();
    await app.route("https://telegram.org/**", (route) => route.abort());
    // Telegram's WebApp, as telegram-web-app.js makes it: the signed initData, and a main button that records its text.
    await app.addInitScript(
      (initData) => {
        const main = {
          text: "",
          handler: () => {},
          setText(text: string) {
            main.text = text;
          },
          show() {},
          hide() {},
          onClick(fn: () => void) {
            main.handler = fn;
          },
        };
        Object.assign(window, { Telegram: { WebApp: { initData, MainButton: main } }, __main: main });
      },
      await signInitData(BOT, Number(DE)),
    );
    await app.goto(`${worker.base}/app`);
    await app.getByRole("heading", { name: "Posteingang morgens" }).waitFor();
    await expect.poll(() => app.evaluate(() => document.documentElement.lang)).toBe("de");
    await expect.poll(() => app.locator("#zone-text").textContent()).toBe("Zeitzone: UTC");
    const mainText = () => app.evaluate(() => (window as unknown as { __main: { text: string } }).__main.text);
    expect(await mainText()).toBe("Erstellen");
    await app.evaluate(() => (window as unknown as { __main: { handler(): void } }).__main.handler());
    await app.getByRole("dialog", { name: "Job erstellen" }).waitFor();
    await expect.poll(mainText).toBe("Speichern");
    await app.close();
  });
});
