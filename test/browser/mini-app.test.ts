/**
 * The Scheduler as a Telegram Mini App in a real Chromium (docs/page.md; issue 18), against `wrangler dev` with a
 * bot token (its Bot API the local stub) so that sessions are checked for real. `window.Telegram.WebApp` is put
 * in place before the page loads (Telegram's own script is blocked, as it is off the network): initData signed
 * here for user 111, a dark theme, and a main and back button that record what the page does with them. The page
 * shows chat 111's jobs and never 112's, creates a job through the main button, offers the device's zone when it
 * differs from the chat's (one tap sets it), fits 360 px, and axe-core finds nothing serious; without Telegram,
 * or for a user not allowed, it says so in a sentence.
 */
/// <reference lib="dom" /> (page.evaluate callbacks run in the page)
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorker, type Worker } from "../e2e/harness.js";
import { signInitData } from "../stub/init-data.js";
import { startTelegramStub, type TelegramStub } from "../stub/telegram-stub.js";
import { adminApi, axeFindings, fitsWidths, launch, overflow, screenshot, WIDTHS } from "./browser.js";

const ADMIN = "browser-mini-app-admin-token";
/** A supergroup the bot serves, opened by its direct link (issue 26). */
const GROUP = "-1001110000111";
const BOT = "7000000111:AAE_browser-mini-app_abcdefghijk";
/** A dark theme as Telegram sends one; its hint and button colours read under 4.5:1, which the page corrects. */
const THEME = {
  bg_color: "#17212b",
  secondary_bg_color: "#0e1621",
  section_bg_color: "#17212b",
  text_color: "#f5f5f5",
  hint_color: "#708499",
  link_color: "#6ab3f3",
  button_color: "#5288c1",
  button_text_color: "#ffffff",
  destructive_text_color: "#ec3942",
};

let stub: TelegramStub;
let worker: Worker;
let browser: Awaited<ReturnType<typeof launch>>;

const admin = adminApi(() => worker.base, ADMIN);

type Recorder = { calls: string[]; main: { text: string; visible: boolean }; back: { visible: boolean } };

/**
 * A fresh page whose Telegram script request is refused (and recorded); with `initData`, a WebApp object like
 * telegram-web-app.js makes, whose buttons record their state and whose handlers `window.__tg` can press.
 */
async function openApp(initData: string | null, deviceZone?: string): Promise<{ page: Page; scripts: string[] }> {
  const page = await browser.context.newPage();
  // The device's own zone, as Telegram's web view would report it (Chrome's DevTools protocol sets it per page).
  if (deviceZone) await (await browser.context.newCDPSession(page)).send("Emulation.setTimezoneOverride", { timezoneId: deviceZone });
  const scripts: string[] = [];
  await page.route("https://telegram.org/**", (route) => {
    scripts.push(route.request().url());
    return route.abort();
  });
  if (initData !== null) {
    await page.addInitScript(
      ({ initData, theme }) => {
        const calls: string[] = [];
        const handlers: Record<string, () => void> = {};
        const main = {
          text: "",
          visible: false,
          setText(t: string) {
            main.text = t;
          },
          show() {
            main.visible = true;
          },
          hide() {
            main.visible = false;
          },
          onClick(fn: () => void) {
            handlers.main = fn;
          },
        };
        const back = {
          visible: false,
          show() {
            back.visible = true;
          },
          hide() {
            back.visible = false;
          },
          onClick(fn: () => void) {
            handlers.back = fn;
          },
        };
        const webApp = {
          initData,
          themeParams: theme,
          colorScheme: "dark",
          ready: () => calls.push("ready"),
          expand: () => calls.push("expand"),
          onEvent: (name: string) => calls.push(`onEvent:${name}`),
          MainButton: main,
          BackButton: back,
        };
        Object.assign(window, { Telegram: { WebApp: webApp }, __tg: { calls, main, back, press: (which: string) => handlers[which]?.() } });
      },
      { initData, theme: THEME },
    );
  }
  await page.goto(`${worker.base}/app`);
  return { page, scripts };
}

const recorder = (page: Page) => page.evaluate(() => JSON.parse(JSON.stringify((window as unknown as { __tg: Recorder }).__tg)) as Recorder);
const press = (page: Page, which: "main" | "back") => page.evaluate((w) => (window as unknown as { __tg: { press(w: string): void } }).__tg.press(w), which);

beforeAll(async () => {
  stub = await startTelegramStub();
  worker = await startWorker({
    vars: {
      ADMIN_TOKEN: ADMIN,
      TELEGRAM_BOT_TOKEN: BOT,
      TELEGRAM_WEBHOOK_SECRET: "browser-hook-secret",
      TELEGRAM_API_BASE: stub.url,
      ALLOWED_USER_IDS: "111,112",
      ALLOWED_CHAT_IDS: GROUP,
    },
  });
  browser = await launch();
  expect((await admin("POST", "/admin/chats/112/jobs", { name: "Their private job", kind: "prompt", text: "Not yours.", cron: "0 7 * * *" })).status).toBe(201);
  expect(
    (await admin("POST", "/admin/chats/111/jobs", { name: "Morning summary", kind: "prompt", text: "Summarise the night.", cron: "0 8 * * *" })).status,
  ).toBe(201);
  expect((await admin("POST", `/admin/chats/${GROUP}/jobs`, { name: "Team standup", kind: "prompt", text: "Standup time.", cron: "0 9 * * 1-5" })).status).toBe(
    201,
  );
});

afterAll(async () => {
  await browser?.close();
  await worker?.stop();
  await stub?.close();
});

describe("the Mini App of user 111", () => {
  it("shows chat 111's jobs and not 112's, without a chat picker, in Telegram's theme, after ready() and expand()", async () => {
    const { page, scripts } = await openApp(await signInitData(BOT, 111));
    await page.getByRole("heading", { name: "Morning summary" }).waitFor();
    expect(await page.locator(".job h3").allTextContents()).toEqual(["Morning summary"]);
    expect(await page.getByText("Their private job").count()).toBe(0);
    expect(await page.locator("#chat-pick").isVisible()).toBe(false);
    expect(await page.locator("#open-chat").isVisible()).toBe(false);
    expect(await page.evaluate(() => location.hash)).toBe("");
    expect(scripts).toEqual(["https://telegram.org/js/telegram-web-app.js"]);

    const tg = await recorder(page);
    expect(tg.calls).toEqual(["onEvent:themeChanged", "ready", "expand"]);
    expect(tg.main).toEqual({ text: "Create", visible: true });
    expect(tg.back).toEqual({ visible: false });
    expect(await page.getByRole("button", { name: "Create", exact: true }).isVisible()).toBe(false);

    const style = await page.evaluate(() => {
      const root = getComputedStyle(document.documentElement);
      return { page: root.backgroundColor, text: root.getPropertyValue("--text"), surface: root.getPropertyValue("--surface"), scheme: root.colorScheme };
    });
    expect(style).toEqual({ page: "rgb(14, 22, 33)", text: "#f5f5f5", surface: "#17212b", scheme: "dark" });

    const cookies = await browser.context.cookies(worker.base);
    expect(cookies.map((c) => [c.name, c.httpOnly, c.secure, c.sameSite, c.path])).toEqual([["__Host-cuckoo-app", true, true, "None", "/"]]);
    expect(cookies[0]!.value).toMatch(/^app1\.111\./);
    expect(cookies[0]!.value).not.toContain(BOT.split(":")[1]!);
    await page.close();
  });

  it("creates a job with Telegram's main button (Create, then Save), and the back button closes the dialog", async () => {
    const { page } = await openApp(await signInitData(BOT, 111));
    await page.getByRole("heading", { name: "Morning summary" }).waitFor();
    const dialog = page.getByRole("dialog", { name: "Create a job" });

    await press(page, "main");
    await dialog.waitFor();
    await expect.poll(async () => (await recorder(page)).main).toEqual({ text: "Save", visible: true });
    expect((await recorder(page)).back).toEqual({ visible: true });
    await press(page, "back");
    await dialog.waitFor({ state: "hidden" });
    await expect.poll(async () => (await recorder(page)).main).toEqual({ text: "Create", visible: true });
    expect((await recorder(page)).back).toEqual({ visible: false });

    await press(page, "main");
    await dialog.waitFor();
    expect(await page.locator("#job-where").textContent()).toBe("In chat 111, times in UTC.");
    await page.getByLabel("Name", { exact: true }).fill("Water the plants");
    await page.getByLabel("Prompt", { exact: true }).fill("Remind me to water the plants.");
    await page.getByLabel("Schedule", { exact: true }).fill("0 18 * * 0");
    await expect.poll(() => page.locator("#preview-description").textContent()).toBe("every Sunday at 18:00 (UTC)");
    await press(page, "main");
    await dialog.waitFor({ state: "hidden" });
    await page.getByRole("heading", { name: "Water the plants" }).waitFor();

    const mine = (await admin("GET", "/admin/chats/111/jobs")).body.jobs.map((j: any) => [j.name, j.schedule, j.text]);
    expect(mine).toEqual([
      ["Morning summary", { cron: "0 8 * * *" }, "Summarise the night."],
      ["Water the plants", { cron: "0 18 * * 0" }, "Remind me to water the plants."],
    ]);
    expect((await admin("GET", "/admin/chats/112/jobs")).body.jobs.map((j: any) => j.name)).toEqual(["Their private job"]);

    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      expect(await overflow(page), `overflow at ${width} px`).toBe(0);
      expect(await axeFindings(page), `axe at ${width} px`).toEqual([]);
      await screenshot(page, "mini-app");
    }
    await page.close();
  });
});

describe("quiet hours in the Mini App", () => {
  it("shows chat 111's quiet hours and sets them through the app's session", async () => {
    const { page } = await openApp(await signInitData(BOT, 111));
    await page.getByRole("heading", { name: "Morning summary" }).waitFor();
    await expect.poll(() => page.locator("#quiet-text").textContent()).toBe("Quiet hours: off");
    await page.getByRole("button", { name: "Change quiet hours" }).click();
    const dialog = page.getByRole("dialog", { name: "Quiet hours" });
    await dialog.getByLabel("From").fill("22:30");
    await dialog.getByLabel("To").fill("07:15");
    await dialog.getByRole("button", { name: "Save quiet hours" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await page.locator("#quiet-text").textContent()).toBe("Quiet hours: 22:30–07:15");
    expect((await admin("GET", "/admin/chats/111/quiet")).body).toEqual({ quiet: { from: "22:30", to: "07:15" } });
    expect((await admin("GET", "/admin/chats/112/quiet")).body).toEqual({ quiet: null });
    await page.setViewportSize({ width: 360, height: 800 });
    expect(await overflow(page)).toBe(0);
    await page.close();
  });
});

describe("the Mini App on a device in another zone", () => {
  it("offers the device's zone while it differs from the chat's, and one tap sets it", async () => {
    const { page } = await openApp(await signInitData(BOT, 112), "Europe/Berlin");
    await page.getByRole("heading", { name: "Their private job" }).waitFor();
    const offer = page.locator("#device-zone");
    await expect.poll(() => offer.textContent()).toBe("This device is on Europe/Berlin; the chat's times are in UTC. Use Europe/Berlin");
    await fitsWidths(page, "mini-app-device-zone");
    await page.getByRole("button", { name: "Use Europe/Berlin" }).click();
    await expect.poll(() => page.locator("#zone-text").textContent()).toBe("Time zone: Europe/Berlin");
    expect(await offer.isHidden()).toBe(true);
    expect((await admin("GET", "/admin/chats/112/settings")).body).toEqual({ chatId: "112", timeZone: "Europe/Berlin", isDefault: false });
    await page.close();
    // In the chat's own zone, nothing is offered.
    const again = (await openApp(await signInitData(BOT, 112), "Europe/Berlin")).page;
    await again.getByRole("heading", { name: "Their private job" }).waitFor();
    await expect.poll(() => again.locator("#zone-text").textContent()).toBe("Time zone: Europe/Berlin");
    expect(await again.locator("#device-zone").isHidden()).toBe(true);
    await again.close();
  });
});

describe("the Mini App without a way in", () => {
  it("renders without Telegram's script and WebApp, and says where to open it", async () => {
    const { page, scripts } = await openApp(null);
    await expect
      .poll(() => page.locator("#boot").textContent())
      .toBe("Open the scheduler from the bot in Telegram (its menu button, or Open scheduler under /jobs): Telegram signs you in.");
    expect(scripts).toEqual(["https://telegram.org/js/telegram-web-app.js"]);
    expect(await page.locator("#scheduler").isVisible()).toBe(false);
    expect(await page.locator("#login").isVisible()).toBe(false);
    expect(await axeFindings(page)).toEqual([]);
    await page.setViewportSize({ width: 360, height: 800 });
    expect(await overflow(page)).toBe(0);
    await page.close();
  });

  it("tells a Telegram user who is not allowed that the bot does not serve them", async () => {
    const { page } = await openApp(await signInitData(BOT, 113));
    await expect
      .poll(() => page.locator("#boot").textContent())
      .toBe("Telegram user 113 may not use this bot; the operator lists the users it serves in ALLOWED_USER_IDS.");
    expect(await page.locator(".job").count()).toBe(0);
    await page.close();
  });
});

describe("the Mini App opened from a group by a member who is not its admin", () => {
  it("shows the group's jobs read-only: no Create, no main button, History alone on each row, the zone and quiet hours shown and not offered", async () => {
    stub.script({ method: "getChatMember", answers: [{ kind: "member", status: "member" }], token: BOT, chat_id: GROUP });
    // On a device in another zone than the group's, which a member may not set.
    const { page } = await openApp(await signInitData(BOT, 113, { startParam: GROUP }), "Europe/Berlin");
    await page.getByRole("heading", { name: "Team standup" }).waitFor();
    expect(await page.locator(".job h3").allTextContents()).toEqual(["Team standup"]);
    expect(await page.locator(".job-actions button").allTextContents()).toEqual(["History"]);
    expect(await page.getByRole("button", { name: "Create", exact: true }).isVisible()).toBe(false);
    expect(await page.locator("#zone-change").isVisible()).toBe(false);
    // The quiet hours are shown, not offered to change; nor is the device's zone.
    await expect.poll(() => page.locator("#quiet-text").textContent()).toBe("Quiet hours: off");
    expect(await page.locator("#quiet-change").isVisible()).toBe(false);
    expect(await page.locator("#device-zone").isVisible()).toBe(false);
    expect(await page.locator("#access").textContent()).toBe("Read only: the group's admins change its jobs");
    expect((await recorder(page)).main).toEqual({ text: "", visible: false });
    expect(stub.calls({ token: BOT, method: "getChatMember" }).map((c) => c.params)).toEqual([{ chat_id: GROUP, user_id: 113 }]);
    expect(await axeFindings(page)).toEqual([]);
    await page.close();
  });
});
