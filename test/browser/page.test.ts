/**
 * The Scheduler page in a real Chromium (docs/page.md, docs/operations.md; issue 15), against `wrangler dev` with ADMIN_TOKEN set:
 * sign-in, the empty state and its suggestions, create through the dialog with the live preview, edit,
 * pause/resume, delete, history, the zone, the chat picker; at 360, 768 and 1440 px no horizontal overflow, the
 * four filters visible and no serious or critical axe-core finding; the keyboard reaches every control.
 * Screenshots of each width, empty and with jobs, go to test/browser/screenshots/ (git-ignored).
 */
/// <reference lib="dom" /> (page.evaluate callbacks run in the page)
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedWorker, type Worker, waitFor } from "../e2e/harness.js";
import { ADMIN_TOKEN, adminApi, axeFindings, launch, openChat as openChatIn, overflow, screenshot, signIn as signInAs, WIDTHS } from "./browser.js";

const TOKEN = ADMIN_TOKEN;
let worker: Worker;
let browser: Awaited<ReturnType<typeof launch>>;
let context: BrowserContext;
let page: Page;

/** The admin API with the bearer token, as a script would call it. */
const admin = adminApi(() => worker.base, TOKEN);

/** The form field labelled exactly `label` (a visible `<label for>`). */
const field = (label: string) => page.getByLabel(label, { exact: true });

const signIn = (): Promise<void> => signInAs(page, worker.base, TOKEN);
const openChat = (chatId: string): Promise<void> => openChatIn(page, chatId);

/** What every width must hold: no horizontal overflow, the four filters in view, no serious axe finding. */
async function checkLayout(name: string): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    expect(await overflow(page), `${name} at ${width} px`).toBe(0);
    for (const filter of ["All", "One-time", "Recurring", "Monitoring"]) {
      const box = await page.getByRole("group", { name: "Category" }).getByRole("button", { name: filter, exact: true }).boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= width, `${filter} in view at ${width} px`).toBe(true);
    }
    expect(await axeFindings(page), `${name} at ${width} px`).toEqual([]);
    await screenshot(page, name);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

beforeAll(async () => {
  worker = await sharedWorker("admin");
  browser = await launch();
  context = browser.context;
  page = context.pages()[0] ?? (await context.newPage());
});

afterAll(async () => {
  await browser?.close();
});

describe("signing in", () => {
  it("refuses a wrong token with the API's sentence, then keeps a signed session cookie (not the token) for the right one", async () => {
    await page.goto(`${worker.base}/`);
    await page.getByLabel("Admin token").fill("not-the-token");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.locator("#login-error").textContent()).toBe("The token does not match ADMIN_TOKEN.");

    await signIn();
    const cookies = await context.cookies(worker.base);
    expect(cookies.map((c) => [c.name, c.httpOnly, c.secure, c.sameSite, c.path])).toEqual([["__Host-cuckoo-session", true, true, "Strict", "/"]]);
    expect(cookies[0]!.value).not.toContain(TOKEN);
    expect(await page.evaluate(() => document.cookie)).toBe("");

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByLabel("Admin token").waitFor();
    expect(await context.cookies(worker.base)).toEqual([]);
  });
});

describe("a chat with no jobs", () => {
  it("shows the introduction, Create and three suggestions that fit every width", async () => {
    await signIn();
    await openChat("4100001");
    await page.getByRole("heading", { name: "Nothing scheduled yet" }).waitFor();
    expect(await page.getByRole("list", { name: "Suggestions" }).getByRole("listitem").count()).toBe(3);
    const grid = await page.getByRole("list", { name: "Suggestions" }).boundingBox();
    expect(grid!.width).toBeLessThanOrEqual(960);
    await checkLayout("empty");
    await page.setViewportSize({ width: 360, height: 900 });
    const cards = await page
      .getByRole("list", { name: "Suggestions" })
      .getByRole("listitem")
      .evaluateAll((els) => new Set(els.map((e) => e.getBoundingClientRect().left)).size);
    expect(cards).toBe(1);
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it("Use opens the form filled in with a preview and creates nothing; Escape closes it", async () => {
    await page.getByRole("button", { name: "Use: Weekday inbox summary" }).click();
    const dialog = page.getByRole("dialog", { name: "Create a job" });
    await dialog.waitFor();
    expect(await field("Name").inputValue()).toBe("Weekday inbox summary");
    expect(await field("Kind").inputValue()).toBe("prompt");
    expect(await field("Prompt").inputValue()).toBe("Summarise what came in overnight and what needs an answer today.");
    expect(await field("Schedule").inputValue()).toBe("every weekday at 08:00");
    await expect.poll(() => page.locator("#preview-description").textContent()).toBe("every weekday at 08:00 (UTC)");
    expect(await page.locator("#preview-runs li").count()).toBe(5);

    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    expect((await admin("GET", "/admin/chats/4100001/jobs")).body.jobs).toEqual([]);
  });
});

describe("jobs through the page", () => {
  const chatId = "4100002";
  const name = "Inbox summary";

  it("creates a job through the dialog: the API's sentence beside the schedule, the preview, then the row", async () => {
    await openChat(chatId);
    await page.getByRole("button", { name: "Create", exact: true }).click();
    await field("Name").fill(name);
    await field("Prompt").fill("Summarise my inbox.");
    await field("Schedule").fill("61 8 * * *");
    // The field is read as the bot reads words (`when`): its sentence is the preview's for them.
    const preview = await admin("POST", "/admin/preview", { when: "61 8 * * *", timeZone: "UTC" });
    expect(preview.status).toBe(400);
    await expect.poll(() => page.locator("#job-schedule-error").textContent()).toBe(preview.body.error.message);
    expect(await field("Schedule").getAttribute("aria-invalid")).toBe("true");

    await field("Schedule").fill("0 8 * * 1-5");
    await expect.poll(() => page.locator("#preview-description").textContent()).toBe("every weekday at 08:00 (UTC)");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("dialog").waitFor({ state: "hidden" });

    const row = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name }) });
    await row.waitFor();
    await expect.poll(() => row.locator(".job-schedule").textContent()).toBe("every weekday at 08:00 (UTC)");
    const jobs = (await admin("GET", `/admin/chats/${chatId}/jobs`)).body.jobs;
    expect(jobs.map((j: any) => [j.name, j.kind, j.schedule, j.text, j.createdBy])).toEqual([
      [name, "prompt", { cron: "0 8 * * 1-5" }, "Summarise my inbox.", "admin"],
    ]);
    expect(await row.locator(".job-next").textContent()).toMatch(/^Next run: (Mon|Tue|Wed|Thu|Fri) \d{1,2} [A-Z][a-z]{2}( \d{4})? 08:00 \(in \d+ (min|h|d)\)$/);
  });

  it("lists the chat in the picker, with its id as the option's value", async () => {
    await page.reload();
    await page.getByRole("button", { name: "Create", exact: true }).waitFor();
    // The picker fills from GET /admin/chats once the page has started.
    const values = () =>
      page
        .getByLabel("Chat", { exact: true })
        .locator("option")
        .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    await expect.poll(values).toContain(chatId);
    expect(await page.getByLabel("Chat", { exact: true }).inputValue()).toBe(chatId);
  });

  it("edits, pauses and resumes it", async () => {
    await page.getByRole("button", { name: `Edit: ${name}` }).click();
    await page.getByRole("dialog", { name: `Edit “${name}”` }).waitFor();
    expect(await field("Schedule").inputValue()).toBe("every weekday at 08:00");
    await field("Name").fill("Morning inbox");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("heading", { name: "Morning inbox" }).waitFor();

    await page.getByRole("button", { name: "Pause: Morning inbox" }).click();
    await page.getByRole("button", { name: "Resume: Morning inbox" }).waitFor();
    expect(await page.locator(".badge.paused").textContent()).toBe("Paused");
    expect((await admin("GET", `/admin/chats/${chatId}/jobs`)).body.jobs.map((j: any) => [j.name, j.enabled, j.nextRunAt])).toEqual([
      ["Morning inbox", false, null],
    ]);

    await page.getByRole("button", { name: "Resume: Morning inbox" }).click();
    await page.getByRole("button", { name: "Pause: Morning inbox" }).waitFor();
    expect((await admin("GET", `/admin/chats/${chatId}/jobs`)).body.jobs.map((j: any) => j.enabled)).toEqual([true]);
  });

  it("runs it now and shows its history", async () => {
    await page.getByRole("button", { name: "Run now: Morning inbox" }).click();
    const jobId = (await admin("GET", `/admin/chats/${chatId}/jobs`)).body.jobs[0].id;
    await waitFor("the manual run is delivered", async () => {
      const runs = (await admin("GET", `/admin/chats/${chatId}/jobs/${jobId}/runs`)).body.runs;
      return runs[0]?.status === "delivered" ? true : undefined;
    });
    await page.getByRole("button", { name: "History: Morning inbox" }).click();
    const history = page.getByRole("dialog", { name: "History of “Morning inbox”" });
    await history.getByRole("list", { name: "Runs" }).waitFor();
    expect(await history.getByRole("listitem").count()).toBe(1);
    expect(await history.getByRole("listitem").first().textContent()).toMatch(/^delivered · .* · run by hand$/);
    await page.keyboard.press("Escape");
    await history.waitFor({ state: "hidden" });
  });

  it("changes the chat's zone, and the schedule reads in it", async () => {
    await page.getByRole("button", { name: "Change zone" }).click();
    await field("Time zone").fill("Asia/Tokyo");
    await page.getByRole("button", { name: "Save zone" }).click();
    await expect.poll(() => page.locator("#zone-result").textContent()).toMatch(/^Time zone set to Asia\/Tokyo \(UTC\+09:00\)\./);
    await page.keyboard.press("Escape");
    await expect.poll(() => page.locator("#zone-text").textContent()).toBe("Time zone: Asia/Tokyo");
    await expect.poll(() => page.locator(".job-schedule").first().textContent()).toBe("every weekday at 08:00 (Asia/Tokyo)");
  });

  it("fits every width with jobs listed", async () => {
    await page.getByRole("button", { name: "Create", exact: true }).click();
    await field("Name").fill("Price watch with a rather long name that has to wrap on a narrow phone screen");
    await field("Kind").selectOption("watcher");
    await field("Command").fill("curl -s https://example.com/price | awk '$1 < 50'");
    await field("Schedule").fill("*/10 * * * *");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("dialog").waitFor({ state: "hidden" });
    await expect.poll(() => page.locator(".job").count()).toBe(2);
    await checkLayout("jobs");
  });

  it("filters by category and search, with a state for no match", async () => {
    await page.getByRole("button", { name: "Monitoring", exact: true }).click();
    await expect
      .poll(() => page.locator(".job h3").allTextContents())
      .toEqual(["Price watch with a rather long name that has to wrap on a narrow phone screen"]);
    await page.getByRole("button", { name: "All", exact: true }).click();
    await page.getByLabel("Search jobs").fill("zebra");
    await expect.poll(() => page.locator("#list-state").textContent()).toBe("No jobs match “zebra”. Show all jobs");
    await page.getByRole("button", { name: "Show all jobs" }).click();
    await expect.poll(() => page.locator(".job").count()).toBe(2);
  });

  it("reaches every control with the keyboard", async () => {
    await page.locator("body").focus();
    const reached = new Set<string>();
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press("Tab");
      reached.add(await page.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.textContent?.trim() ?? ""));
    }
    for (const name of [
      "Search jobs",
      "Create",
      "All",
      "One-time",
      "Recurring",
      "Monitoring",
      "Run now: Morning inbox",
      "Pause: Morning inbox",
      "Edit: Morning inbox",
      "History: Morning inbox",
      "Delete: Morning inbox",
      "Change zone",
    ])
      expect(reached, name).toContain(name);
  });

  it("deletes a job after asking", async () => {
    await page.getByRole("button", { name: "Delete: Morning inbox" }).click();
    await page.getByRole("dialog", { name: "Delete “Morning inbox”?" }).getByRole("button", { name: "Delete" }).click();
    await page.getByRole("heading", { name: "Morning inbox" }).waitFor({ state: "detached" });
    expect((await admin("GET", `/admin/chats/${chatId}/jobs`)).body.jobs.map((j: any) => j.kind)).toEqual(["watcher"]);
  });
});
