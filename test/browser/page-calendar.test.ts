/**
 * The chat's calendar feed on the page (docs/calendar.md, docs/page.md) in a real Chromium, against the tier's shared
 * `wrangler dev` with ADMIN_TOKEN: the chat bar's Calendar feed row makes the feed and shows its address once
 * (read-only, with Copy, how to subscribe and that it is secret), which the test then fetches as a calendar app
 * would; Replace address and Turn off ask first, and after them the old address answers 404; after a reload the row
 * only says the chat has a feed, and the address is nowhere in the page. No overflow and nothing serious for axe-core.
 */
/// <reference lib="dom" /> (page.evaluate callbacks run in the page)
import type { Page, Response } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedWorker, type Worker } from "../e2e/harness.js";
import { ADMIN_TOKEN, adminApi, axeFindings, fitsWidths, launch, openChat, pageHolds, signIn } from "./browser.js";

/** This file's chat: no other file of the tier uses the 992… range. */
const CHAT = "9920001";
const HINT =
  "Subscribe to it in your calendar: Google Calendar, Other calendars → From URL; Apple Calendar, File → New Calendar Subscription; Outlook, Add calendar → Subscribe from web.";
const SECRET = "Shown once: whoever has this address sees the chat's jobs. Keep it secret.";
const GONE = { status: 404, type: "application/json", body: '{"error":{"code":"not_found","message":"No calendar at this address."}}' };

let worker: Worker;
let browser: Awaited<ReturnType<typeof launch>>;
let page: Page;

const admin = adminApi(() => worker.base, ADMIN_TOKEN);

/** A feed address of the Worker at `base`: its origin, `/calendar/`, 32 base32 letters and `.ics`. */
const feedUrl = (base: string) => new RegExp(`^${new URL(base).origin.replace(/[.]/g, "\\.")}/calendar/[a-z2-7]{32}\\.ics$`);

/** Fetches a feed as a calendar app does: its status, its content type's media type and its body. */
async function fetchFeed(url: string): Promise<{ status: number; type: string; body: string }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  return { status: res.status, type: res.headers.get("Content-Type") ?? "", body: await res.text() };
}

/** The answer to the page's next `method` request to the chat's calendar route. */
const answerTo = (method: string): Promise<Response> =>
  page.waitForResponse((r) => r.request().method() === method && new URL(r.url()).pathname === `/admin/chats/${CHAT}/calendar`);

const row = () => page.getByRole("group", { name: "Calendar feed" });
const field = () => row().getByLabel("Feed address", { exact: true });
/** Which of the row's three buttons show. */
const buttons = () =>
  Promise.all(["Make calendar feed", "Replace address", "Turn off"].map((name) => row().getByRole("button", { name, exact: true }).isVisible()));

/** The token of a feed address. */
const tokenOf = (url: string) => url.slice(url.lastIndexOf("/") + 1, -".ics".length);

/** Presses `button` in the row, then answers the confirm dialog (`title`) with `choice`. */
async function confirmed(button: string, title: string, choice: string): Promise<void> {
  await row().getByRole("button", { name: button, exact: true }).click();
  const dialog = page.getByRole("dialog", { name: title });
  await dialog.waitFor();
  await dialog.getByRole("button", { name: choice, exact: true }).click();
  await dialog.waitFor({ state: "hidden" });
}

beforeAll(async () => {
  worker = await sharedWorker("admin");
  browser = await launch();
  page = browser.context.pages()[0] ?? (await browser.context.newPage());
  await browser.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(worker.base).origin });
  const made = await admin("POST", `/admin/chats/${CHAT}/jobs`, { name: "Standup notes", kind: "prompt", text: "Gather the notes.", cron: "0 9 * * 1-5" });
  expect(made.status).toBe(201);
  await signIn(page, worker.base, ADMIN_TOKEN);
  await openChat(page, CHAT);
});

afterAll(async () => {
  await browser?.close();
});

describe("the calendar feed in the chat bar", () => {
  let first: string;
  let second: string;

  it("makes the feed: its address shown once with Copy and how to subscribe, and a calendar app gets the chat's jobs", async () => {
    await expect.poll(() => page.locator("#calendar-text").textContent()).toBe("Calendar feed: off");
    expect(await buttons()).toEqual([true, false, false]);
    expect(await field().isVisible()).toBe(false);

    const answered = answerTo("POST");
    await row().getByRole("button", { name: "Make calendar feed", exact: true }).click();
    const answer = await answered;
    expect(answer.status()).toBe(201);
    expect(answer.request().postData()).toBeNull();
    const { url } = await answer.json();
    expect(url).toMatch(/\/calendar\/[a-z2-7]{32}\.ics$/);
    expect(url).toMatch(feedUrl(worker.base));
    await expect.poll(() => field().inputValue()).toBe(url);
    first = url;
    expect(await field().getAttribute("readonly")).toBe("");
    expect(await row().locator("#calendar-hint").textContent()).toBe(HINT);
    expect(await row().locator(".secret").textContent()).toBe(SECRET);
    expect(await page.locator("#calendar-text").textContent()).toBe("Calendar feed: on");
    expect(await buttons()).toEqual([false, true, true]);
    expect((await admin("GET", `/admin/chats/${CHAT}/calendar`)).body).toEqual({ calendar: true });
    // The row with its address: no overflow and nothing serious for axe-core at 360, 768 and 1440 px.
    await fitsWidths(page, "calendar", [360, 768, 1440]);

    await row().getByRole("button", { name: "Copy the feed address" }).click();
    await expect.poll(() => page.locator("#calendar-copied").textContent()).toBe("Copied.");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

    const feed = await fetchFeed(url);
    expect([feed.status, feed.type]).toEqual([200, "text/calendar; charset=utf-8"]);
    expect(feed.body.startsWith("BEGIN:VCALENDAR\r\n")).toBe(true);
    expect(feed.body.split("\r\n").filter((l) => l.startsWith("SUMMARY:"))).toEqual(["SUMMARY:Standup notes"]);
  });

  it("asks before replacing: Cancel keeps the address, Replace address makes a new one and the old finds nothing", async () => {
    await row().getByRole("button", { name: "Replace address", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Replace the calendar address?" });
    await dialog.waitFor();
    expect(await page.locator("#confirm-text").textContent()).toBe(
      "The address in use stops working at once: calendars subscribed to it stop updating until they are given the new one.",
    );
    expect(await dialog.getByRole("button").allTextContents()).toEqual(["Cancel", "Replace address"]);
    expect(await axeFindings(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Cancel", exact: true }).click();
    await dialog.waitFor({ state: "hidden" });
    // Nothing asked of the API: the address shown still works.
    expect(await field().inputValue()).toBe(first);
    expect((await fetchFeed(first)).status).toBe(200);

    const answered = answerTo("POST");
    await confirmed("Replace address", "Replace the calendar address?", "Replace address");
    expect((await answered).status()).toBe(201);
    await expect.poll(() => field().inputValue()).not.toBe(first);
    second = await field().inputValue();
    expect(second).toMatch(feedUrl(worker.base));
    expect(await pageHolds(page, tokenOf(first))).toBe(false);
    expect(await fetchFeed(first)).toEqual(GONE);
    expect((await fetchFeed(second)).status).toBe(200);
    // The confirm dialog has its own words back, for a job's Delete.
    expect(await page.locator("#confirm-dialog .dialog-actions button").allTextContents()).toEqual(["Keep it", "Delete"]);
  });

  it("asks before turning it off: the address leaves the page and finds nothing", async () => {
    const answered = answerTo("DELETE");
    await confirmed("Turn off", "Turn off the calendar feed?", "Turn off");
    expect((await answered).status()).toBe(204);
    await expect.poll(() => page.locator("#calendar-text").textContent()).toBe("Calendar feed: off");
    expect(await buttons()).toEqual([true, false, false]);
    expect(await field().isVisible()).toBe(false);
    expect(await pageHolds(page, tokenOf(second))).toBe(false);
    expect(await fetchFeed(second)).toEqual(GONE);
    expect((await admin("GET", `/admin/chats/${CHAT}/calendar`)).body).toEqual({ calendar: false });
  });

  it("after a reload only says the chat has a feed: its address is nowhere in the page, and still works", async () => {
    const answered = answerTo("POST");
    await row().getByRole("button", { name: "Make calendar feed", exact: true }).click();
    expect((await answered).status()).toBe(201);
    await expect.poll(() => field().inputValue()).toMatch(feedUrl(worker.base));
    const url = await field().inputValue();

    await page.reload();
    await expect.poll(() => page.locator("#calendar-text").textContent()).toBe("Calendar feed: on");
    expect(await buttons()).toEqual([false, true, true]);
    expect(await field().isVisible()).toBe(false);
    expect(await pageHolds(page, tokenOf(url))).toBe(false);
    expect((await fetchFeed(url)).status).toBe(200);
  });
});
