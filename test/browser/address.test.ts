/**
 * The page follows its address (docs/page.md, issue 32), in Chromium at 360 px against `wrangler dev`: a `#chat=`
 * typed, back and forward show the chat the address names, and a job created after each change is that chat's; an
 * address that names no chat id says so and shows no chat. Kept apart from page.test.ts, on the same harness.
 */
/// <reference lib="dom" /> (page.evaluate callbacks run in the page)
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorker, type Worker } from "../e2e/harness.js";
import { adminApi, launch, openChat, overflow, signIn } from "./browser.js";

const TOKEN = "browser-address-admin-token";
const [A, B] = ["4300001", "-1004300000002"];
let worker: Worker;
let browser: Awaited<ReturnType<typeof launch>>;
let page: Page;
const admin = adminApi(() => worker.base, TOKEN);

beforeAll(async () => {
  worker = await startWorker({ vars: { ADMIN_TOKEN: TOKEN } });
  browser = await launch();
  page = browser.context.pages()[0] ?? (await browser.context.newPage());
  await page.setViewportSize({ width: 360, height: 800 });
});

afterAll(async () => {
  await browser?.close();
  await worker?.stop();
});

/** The names of the chat's jobs, as the API has them. */
const jobNames = async (chatId: string): Promise<string[]> =>
  (await admin("GET", `/admin/chats/${chatId}/jobs`)).body.jobs.map((j: { name: string }) => j.name);

/** Creates a job through the page's dialog, which must say it is for `chatId`, and waits for its row. */
async function createIn(chatId: string, name: string): Promise<void> {
  await page.getByRole("button", { name: "Create", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Create a job" });
  await dialog.waitFor();
  expect(await page.locator("#job-where").textContent()).toBe(`In chat ${chatId}, times in UTC.`);
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Prompt", { exact: true }).fill(`${name}.`);
  await page.getByLabel("Schedule", { exact: true }).fill("0 9 * * *");
  await page.getByRole("button", { name: "Save" }).click();
  await dialog.waitFor({ state: "hidden" });
  await page.getByRole("heading", { name }).waitFor();
}

/** Waits until the page shows `chatId`: the picker names it and the list is read. */
async function shows(chatId: string): Promise<void> {
  const within = { timeout: 10_000 };
  await page.waitForFunction((id) => (document.getElementById("chat-select") as HTMLSelectElement | null)?.value === id, chatId, within);
  await page.waitForFunction(() => document.getElementById("jobs")?.getAttribute("aria-busy") !== "true", undefined, within);
}

describe("the address names the chat", () => {
  it("shows the chat a typed #chat=, back and forward name, and creates each job in the chat shown", async () => {
    await signIn(page, worker.base, TOKEN);
    await openChat(page, A);
    await shows(A);
    // Typed in the address bar: the page moves to B, and a job made now is B's.
    await page.goto(`${worker.base}/#chat=${B}`);
    await shows(B);
    await createIn(B, "Standup in B");
    expect([await jobNames(A), await jobNames(B)]).toEqual([[], ["Standup in B"]]);
    // Back to A: B's row goes, and a job made now is A's.
    await page.goBack();
    await page.waitForFunction((id) => location.hash === `#chat=${id}`, A);
    await shows(A);
    expect(await page.getByRole("heading", { name: "Standup in B" }).count()).toBe(0);
    await createIn(A, "Water in A");
    expect([await jobNames(A), await jobNames(B)]).toEqual([["Water in A"], ["Standup in B"]]);
    // Forward to B again: its row, not A's.
    await page.goForward();
    await shows(B);
    await page.getByRole("heading", { name: "Standup in B" }).waitFor();
    expect(await page.getByRole("heading", { name: "Water in A" }).count()).toBe(0);
    expect(await overflow(page)).toBe(0);
  });

  it("says when the address names no chat id, and shows no chat's jobs", async () => {
    await page.goto(`${worker.base}/#chat=abc`);
    await expect
      .poll(() => page.locator("#list-state").textContent())
      .toBe("The address names “#chat=abc”, which is not a chat id such as 123456789 or -1001234567890; choose a chat above.");
    expect(await page.getByRole("heading", { name: "Standup in B" }).count()).toBe(0);
    // The picker, filled again from the directory, names no chat either.
    await expect.poll(() => page.locator("#chat-select").inputValue()).toBe("");
  });

  it("reads a new job's times in the zone of the chat just chosen, also when the dialog opened before that chat was read", async () => {
    const C = "4300003";
    await admin("PUT", `/admin/chats/${A}/settings`, { timeZone: "Asia/Tokyo" });
    await openChat(page, A);
    await shows(A);
    // C's jobs (and so its zone) answer late: the dialog opens while the page still knows only A's zone.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(`**/admin/chats/${C}/jobs?**`, async (route) => {
      await held;
      await route.continue();
    });
    await openChat(page, C);
    await page.getByRole("button", { name: "Create", exact: true }).click();
    await page.getByLabel("Schedule", { exact: true }).fill("every day at 9");
    release();
    await expect.poll(() => page.locator("#job-where").textContent()).toBe(`In chat ${C}, times in UTC.`);
    await expect.poll(() => page.locator("#preview-description").textContent()).toBe("every day at 09:00 (UTC)");
    await page.unroute(`**/admin/chats/${C}/jobs?**`);
    await page.getByRole("dialog", { name: "Create a job" }).press("Escape");
  });
});
