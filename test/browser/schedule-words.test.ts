/**
 * The page reads what the bot reads (docs/page.md; issues 24, 31) in a real Chromium, against `wrangler dev` with
 * ADMIN_TOKEN set: the suggestions' schedules are phrases, the dialog's Schedule field takes words and shows what
 * it understood as they are typed (`every 2 weeks on Tuesday at 10:00 · next: …`), a rule job and a job that ends
 * are created from it, editing shows a job's schedule in words that read back (never an RRULE), and Change zone
 * takes a place, offering the likely zones of an ambiguous one as buttons. At 360 and 1440 px nothing is wider
 * than the window and axe-core finds nothing serious. The chat is in UTC until it changes.
 */
/// <reference lib="dom" /> (page.evaluate callbacks run in the page)
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedWorker, type Worker } from "../e2e/harness.js";
import { ADMIN_TOKEN, adminApi, fitsWidths, launch, openChat, signIn } from "./browser.js";

const TOKEN = ADMIN_TOKEN;
const CHAT = "4200001";
let worker: Worker;
let browser: Awaited<ReturnType<typeof launch>>;
let page: Page;

const admin = adminApi(() => worker.base, TOKEN);

const field = (label: string) => page.getByLabel(label, { exact: true });

/** Creates a prompt job through the dialog from words; resolves once the API's description of them shows. */
async function createFromWords(name: string, prompt: string, words: string, description: string): Promise<void> {
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await field("Name").fill(name);
  await field("Prompt").fill(prompt);
  await field("Schedule").fill(words);
  await expect.poll(() => page.locator("#preview-description").textContent()).toBe(description);
  await page.getByRole("button", { name: "Save" }).click();
  await page.getByRole("dialog").waitFor({ state: "hidden" });
}

/** `Tue 8 Dec 10:00` in `zone`, the year added when it is not this one: how the page shows a run. */
function shown(at: string, zone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", {
      timeZone: zone,
      hourCycle: "h23",
      weekday: "short",
      day: "numeric",
      month: "short",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
    })
      .formatToParts(Date.parse(at))
      .map((p) => [p.type, p.value]),
  );
  const thisYear = new Intl.DateTimeFormat("en-GB", { timeZone: zone, year: "numeric" }).format(Date.now());
  return `${parts.weekday} ${parts.day} ${parts.month}${parts.year === thisYear ? "" : ` ${parts.year}`} ${parts.hour}:${parts.minute}`;
}

/** At 360 and 1440 px: nothing wider than the window, nothing serious for axe-core; a screenshot of each. */
const fits = (name: string): Promise<void> => fitsWidths(page, name);

beforeAll(async () => {
  worker = await sharedWorker("admin");
  browser = await launch();
  page = browser.context.pages()[0] ?? (await browser.context.newPage());
  await signIn(page, worker.base, TOKEN);
  await openChat(page, CHAT);
});

afterAll(async () => {
  await browser?.close();
});

describe("the Schedule field", () => {
  it("gets phrases from the suggestions, as a person types them to the bot, never a cron or an ISO duration", async () => {
    const cards = page.getByRole("list", { name: "Suggestions" }).getByRole("listitem");
    // The suggestions come with the chat's empty list, which may still be on its way.
    await expect.poll(() => cards.locator("code").allTextContents()).toEqual(["every weekday at 08:00", "in 20 minutes", "every Friday at 17:00"]);
    await page.getByRole("button", { name: "Use: Friday week review" }).click();
    expect(await field("Schedule").inputValue()).toBe("every Friday at 17:00");
    await expect.poll(() => page.locator("#preview-description").textContent()).toBe("every Friday at 17:00 (UTC)");
    await page.keyboard.press("Escape");
  });

  it("shows what words mean as they are typed, from the same parser as the bot, and the API's sentence for words it cannot read", async () => {
    await page.getByRole("button", { name: "Create", exact: true }).click();
    await field("Schedule").pressSequentially("every other tuesday at 10", { delay: 5 });
    const expected = (await admin("POST", "/admin/preview", { when: "every other tuesday at 10", timeZone: "UTC" })).body;
    expect(expected.description).toBe("every 2 weeks on Tuesday at 10:00 (UTC)");
    const understood = `every 2 weeks on Tuesday at 10:00 · next: ${shown(expected.occurrences[0], "UTC")}, ${shown(expected.occurrences[1], "UTC")}…`;
    await expect.poll(() => page.locator("#job-schedule-understood").textContent()).toBe(understood);
    expect(await page.locator("#preview-description").textContent()).toBe("every 2 weeks on Tuesday at 10:00 (UTC)");
    expect(await page.locator("#preview-runs li").count()).toBe(5);
    await fits("schedule-words");

    await field("Schedule").fill("evry day at 9");
    const refused = await admin("POST", "/admin/preview", { when: "evry day at 9", timeZone: "UTC" });
    expect(refused.status).toBe(400);
    await expect.poll(() => page.locator("#job-schedule-error").textContent()).toBe(refused.body.error.message);
    expect(await field("Schedule").getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator("#job-schedule-understood").textContent()).toBe("");
    await page.keyboard.press("Escape");
  });

  it("creates a rule job from words, and a job that ends, with their words and what is left in the list", async () => {
    await createFromWords("Review", "Review the sprint.", "every other tuesday at 10", "every 2 weeks on Tuesday at 10:00 (UTC)");
    const review = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Review" }) });
    await expect.poll(() => review.locator(".job-schedule").textContent()).toBe("every 2 weeks on Tuesday at 10:00 (UTC)");

    await createFromWords("Water", "Water the plants.", "every 3 days at 9 for 10 times", "every 3 days at 09:00 10 times (UTC)");
    const water = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Water" }) });
    await expect.poll(() => water.locator(".job-schedule").textContent()).toBe("every 3 days at 09:00 (UTC) · 10 runs left");

    const jobs = (await admin("GET", `/admin/chats/${CHAT}/jobs`)).body.jobs;
    const rules = jobs.map((j: any) => [j.name, j.category, j.schedule.rrule, j.runsLeft, j.until]);
    expect(rules).toEqual([
      ["Review", "recurring", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", null, null],
      ["Water", "recurring", "FREQ=DAILY;INTERVAL=3", 10, null],
    ]);
    // The preview's first run is the job's.
    const reviewJob = jobs[0];
    expect((await admin("POST", "/admin/preview", { ...reviewJob.schedule, timeZone: "UTC", count: 1 })).body.occurrences).toEqual([reviewJob.nextRunAt]);

    // Edited, the rule shows in words the bot reads back, never its RRULE, with its end in the preview; unchanged,
    // the schedule is not sent.
    await page.getByRole("button", { name: "Edit: Water" }).click();
    await expect.poll(() => field("Schedule").inputValue()).toBe("every 3 days at 09:00");
    await expect.poll(() => page.locator("#preview-description").textContent()).toBe("every 3 days at 09:00 10 times (UTC)");
    await field("Name").fill("Water the plants");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("heading", { name: "Water the plants" }).waitFor();
    expect((await admin("GET", `/admin/chats/${CHAT}/jobs`)).body.jobs[1]).toMatchObject({
      name: "Water the plants",
      runsLeft: 10,
      schedule: jobs[1].schedule,
    });
    await fits("rule-jobs");
  });
});

describe("Change zone", () => {
  it("takes a city that names one zone, and offers the zones of a country with several as buttons", async () => {
    await page.getByRole("button", { name: "Change zone" }).click();
    await field("Time zone").fill("USA");
    await page.getByRole("button", { name: "Save zone" }).click();
    const choices = page.getByRole("group", { name: "“USA” has more than one time zone. Choose yours:" });
    await choices.waitFor();
    const zones = (await admin("GET", "/admin/zones?place=USA")).body.zones.map((z: { label: string }) => z.label);
    expect(await choices.getByRole("button").allTextContents()).toEqual(zones);
    expect(zones[1]).toMatch(/^America\/Chicago \(UTC-0[56]:00\)$/);
    await fits("zone-choices");
    await choices.getByRole("button", { name: zones[1] }).click();
    await expect
      .poll(() => page.locator("#zone-result").textContent())
      .toMatch(/^Time zone set to America\/Chicago \(UTC-0[56]:00\)\. Now .* 2 recurring jobs now follow this zone\.$/);
    expect(await choices.isHidden()).toBe(true);

    await field("Time zone").fill("Berlin");
    await page.getByRole("button", { name: "Save zone" }).click();
    await expect.poll(() => page.locator("#zone-result").textContent()).toMatch(/^Time zone set to Europe\/Berlin \(UTC\+0[12]:00\)\./);
    await page.keyboard.press("Escape");
    await expect.poll(() => page.locator("#zone-text").textContent()).toBe("Time zone: Europe/Berlin");
    expect((await admin("GET", `/admin/chats/${CHAT}/settings`)).body).toEqual({ chatId: CHAT, timeZone: "Europe/Berlin", isDefault: false });
  });

  it("says so for a place it does not know", async () => {
    await page.getByRole("button", { name: "Change zone" }).click();
    await field("Time zone").fill("Atlantis");
    await page.getByRole("button", { name: "Save zone" }).click();
    await expect
      .poll(() => page.locator("#zone-error").textContent())
      .toBe(
        `"Atlantis" is not a time zone, city, country or offset I know; give a city such as Berlin, an offset such as UTC+2, or an IANA name such as America/New_York.`,
      );
    expect(await field("Time zone").getAttribute("aria-invalid")).toBe("true");
    await page.keyboard.press("Escape");
  });
});
