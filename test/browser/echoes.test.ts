/**
 * The page echoes what shows (docs/page.md, docs/api.md#get-adminzones; issue 32), in Chromium at 360 px against
 * `wrangler dev`: it writes every text with `textContent` (nothing is read as markup), and what it echoes of what a
 * person typed comes from the API's answers, which leave out control, bidi and zero-width characters, so the page
 * needs no copy of that rule: a job's name in its row, a place quoted in Change zone. Kept apart from page.test.ts,
 * on the same harness.
 */
/// <reference lib="dom" /> (page.evaluate callbacks run in the page)
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorker, type Worker } from "../e2e/harness.js";
import { launch, openChat, signIn } from "./browser.js";

const TOKEN = "browser-echoes-admin-token";
const CHAT = "4310001";
/** U+202E RIGHT-TO-LEFT OVERRIDE, U+200B ZERO WIDTH SPACE, U+2060 WORD JOINER. */
const [RLO, ZWSP, WJ] = ["\u202e", "\u200b", "\u2060"];
let worker: Worker;
let browser: Awaited<ReturnType<typeof launch>>;
let page: Page;

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

describe("what the page echoes", () => {
  it("shows a job's name and a place typed with hidden characters as they show", async () => {
    await signIn(page, worker.base, TOKEN);
    await openChat(page, CHAT);
    await page.getByRole("button", { name: "Create", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Create a job" });
    await dialog.waitFor();
    await page.getByLabel("Name", { exact: true }).fill(`Stand${ZWSP}up${WJ}`);
    await page.getByLabel("Prompt", { exact: true }).fill("Stand up.");
    await page.getByLabel("Schedule", { exact: true }).fill("0 9 * * *");
    await page.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "hidden" });
    await expect.poll(() => page.evaluate(() => Array.from(document.querySelectorAll("#jobs h3"), (h) => h.textContent))).toEqual(["Standup"]);

    await page.getByRole("button", { name: "Change zone" }).click();
    await page.getByLabel("Time zone", { exact: true }).fill(`U${RLO}S${ZWSP}A`);
    await page.getByRole("button", { name: "Save zone" }).click();
    await expect.poll(() => page.locator("#zone-choices-title").textContent()).toBe("“USA” has more than one time zone. Choose yours:");
  });
});
