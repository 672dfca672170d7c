/**
 * The page under `npm run dev` with no ADMIN_TOKEN (docs/api.md, docs/page.md; issue 15): it opens without a login on
 * localhost; a first job can be created before any chat exists (the dialog asks for the chat id); the chat
 * panel of transcript mode shows the transcript and writes as the user; a failing API shows an error state
 * with a way to try again.
 */
/// <reference lib="dom" /> (page.evaluate callbacks run in the page)
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorker, type Worker } from "../e2e/harness.js";
import { axeFindings, launch } from "./browser.js";

let worker: Worker;
let browser: Awaited<ReturnType<typeof launch>>;
let page: Page;
/** The page as a developer opens it: on localhost, which the open dev mode requires. */
let site: string;

beforeAll(async () => {
  worker = await startWorker();
  site = worker.base.replace("127.0.0.1", "localhost");
  browser = await launch();
  page = browser.context.pages()[0] ?? (await browser.context.newPage());
});

afterAll(async () => {
  await browser?.close();
  await worker?.stop();
});

describe("open dev mode", () => {
  it("opens without a login, and a first job names its chat in the dialog", async () => {
    await page.goto(`${site}/`);
    await page.getByText("Open dev mode").waitFor();
    expect(await page.getByLabel("Admin token").isVisible()).toBe(false);
    expect(await page.getByRole("button", { name: "Sign out" }).isVisible()).toBe(false);
    await page.getByRole("heading", { name: "Nothing scheduled yet" }).waitFor();

    await page.getByRole("button", { name: "Create job" }).click();
    await page.getByLabel("Telegram chat id").fill("4200001");
    await page.getByLabel("Name", { exact: true }).fill("Stretch");
    await page.getByLabel("Prompt", { exact: true }).fill("Time to stretch.");
    await page.getByLabel("Schedule", { exact: true }).fill("in 2 hours");
    await expect.poll(() => page.locator("#preview-runs li").count()).toBe(1);
    expect(await page.locator("#preview-description").textContent()).toMatch(/^[A-Z][a-z]{2} \d{1,2} [A-Z][a-z]{2}( \d{4})? \d{2}:\d{2} \(UTC\)$/);
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("heading", { name: "Stretch" }).waitFor();
    expect(await page.evaluate(() => location.hash)).toBe("#chat=4200001");
    const jobs = (await worker.send("GET", "/admin/chats/4200001/jobs")).body.jobs;
    expect(jobs.map((j: { name: string; category: string }) => [j.name, j.category])).toEqual([["Stretch", "one-time"]]);
    expect(await axeFindings(page)).toEqual([]);
  });

  it("writes as the chat's user in the chat panel and shows the reply", async () => {
    const panel = page.getByRole("complementary", { name: "Conversation" });
    await panel.getByLabel("Message").fill("Hello there");
    await panel.getByRole("button", { name: "Send" }).click();
    await expect
      .poll(() => panel.getByRole("listitem").allTextContents(), { timeout: 15_000 })
      .toEqual([
        expect.stringMatching(/^You · .*Hello there$/),
        expect.stringMatching(/^Prompt to the agent · /),
        // The echo agent (no model configured) answers what a user writes with this sentence.
        expect.stringMatching(
          /^Bot · .*\d\dNo model is configured, so I can only run your scheduled jobs\. Send \/help for the commands\. For a reminder: \/remind tomorrow 9:00 call mum$/,
        ),
      ]);
  });

  it("shows an error with a way to try again when the API fails", async () => {
    await page.route("**/admin/chats/4200001/jobs?**", (route) =>
      route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ error: { code: "internal", message: "Something went wrong on our side; the error has been logged." } }),
      }),
    );
    await page.getByRole("button", { name: "Recurring", exact: true }).click();
    await expect
      .poll(() => page.locator("#list-state").textContent())
      .toBe("The jobs could not be loaded: Something went wrong on our side; the error has been logged. Try again");
    await page.unroute("**/admin/chats/4200001/jobs?**");
    await page.getByRole("button", { name: "All", exact: true }).click();
    await page.getByRole("heading", { name: "Stretch" }).waitFor();
    expect(await page.locator("#list-state").textContent()).toBe("");
  });
});
