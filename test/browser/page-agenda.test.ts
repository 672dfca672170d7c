/**
 * The daily agenda on the page (docs/telegram.md#agenda, docs/page.md) in a real Chromium, against the tier's shared
 * `wrangler dev` with ADMIN_TOKEN: shown beside the quiet hours (`Daily agenda: off`), set in its dialog of one time
 * of day, which the API then answers with its next instant; a time the API refuses keeps the dialog open with the
 * API's sentence; Turn off stops it. No horizontal overflow at 360 px, nothing serious for axe-core in the dialog.
 */
/// <reference lib="dom" /> (page.evaluate callbacks run in the page)
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedWorker, type Worker } from "../e2e/harness.js";
import { ADMIN_TOKEN, adminApi, axeFindings, launch, openChat, overflow, signIn } from "./browser.js";

/** This file's chat: no other file of the tier uses the 986… range. */
const CHAT = "9860001";

let worker: Worker;
let browser: Awaited<ReturnType<typeof launch>>;
let page: Page;

const admin = adminApi(() => worker.base, ADMIN_TOKEN);

beforeAll(async () => {
  worker = await sharedWorker("admin");
  browser = await launch();
  page = browser.context.pages()[0] ?? (await browser.context.newPage());
  await signIn(page, worker.base, ADMIN_TOKEN);
  await openChat(page, CHAT);
});

afterAll(async () => {
  await browser?.close();
});

describe("the daily agenda on the page", () => {
  it("is shown beside the quiet hours, set to 08:00 in its dialog, refused when empty, and turned off", async () => {
    // The chat's own settings, not those of a chat the page showed before it: its zone is the default, UTC.
    await expect.poll(() => page.locator("#zone-text").textContent()).toMatch(/^Time zone: UTC\b/);
    await expect.poll(() => page.locator("#agenda-text").textContent()).toBe("Daily agenda: off");
    await page.getByRole("button", { name: "Change daily agenda" }).click();
    const dialog = page.getByRole("dialog", { name: "Daily agenda" });
    await dialog.waitFor();
    expect(await dialog.getByLabel("Time of day").inputValue()).toBe("08:00");
    expect(await page.locator("#agenda-about").textContent()).toBe(
      "At this time, in the chat's time zone, UTC, the bot sends one message listing the rest of the day's runs; nothing on a day without any.",
    );
    expect(await axeFindings(page)).toEqual([]);

    // An empty time is the API's to refuse: its sentence, in the dialog, which stays open.
    await dialog.getByLabel("Time of day").fill("");
    await dialog.getByRole("button", { name: "Save agenda" }).click();
    await expect.poll(() => page.locator("#agenda-error").textContent()).toBe(`"agenda" must be a time of day as HH:mm, such as "08:00", or null for none.`);
    expect(await dialog.getByLabel("Time of day").getAttribute("aria-invalid")).toBe("true");
    expect((await admin("GET", `/admin/chats/${CHAT}/agenda`)).body).toEqual({ agenda: null, next: null });

    await dialog.getByLabel("Time of day").fill("08:00");
    await dialog.getByRole("button", { name: "Save agenda" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await page.locator("#agenda-text").textContent()).toBe("Daily agenda: 08:00");
    const set = await admin("GET", `/admin/chats/${CHAT}/agenda`);
    expect(set.status).toBe(200);
    expect(set.body.agenda).toBe("08:00");
    // The next one is the chat's (UTC) 08:00 within a day.
    const next = Date.parse(set.body.next);
    expect(new Date(next).toISOString().slice(11, 16)).toBe("08:00");
    expect(next - Date.now()).toBeGreaterThan(0);
    expect(next - Date.now()).toBeLessThanOrEqual(86_400_000);

    await page.setViewportSize({ width: 360, height: 900 });
    expect(await overflow(page)).toBe(0);
    await page.getByRole("button", { name: "Change daily agenda" }).click();
    await dialog.waitFor();
    expect(await dialog.getByLabel("Time of day").inputValue()).toBe("08:00");
    await dialog.getByRole("button", { name: "Turn off" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await page.locator("#agenda-text").textContent()).toBe("Daily agenda: off");
    expect((await admin("GET", `/admin/chats/${CHAT}/agenda`)).body).toEqual({ agenda: null, next: null });
    await page.setViewportSize({ width: 1440, height: 900 });
  });
});
