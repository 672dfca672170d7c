/**
 * A job's hook on the page (docs/hooks.md) in a real Chromium, against the tier's shared `wrangler dev` with
 * ADMIN_TOKEN: the row's Hook button opens a dialog that says whether the job has a hook, makes one and shows its URL
 * once (read-only, with Copy and the sentence that it is secret), which the test then calls as the world would; the
 * URL leaves the page when the dialog closes; Revoke makes the same URL answer 404. The row's hook badge comes and
 * goes with it. A job made with "Run only when its hook is called" shows its URL once after Save, its row says when
 * it runs in words, and the Triggered filter lists it; the five filters fit 360, 768 and 1440 px.
 */
/// <reference lib="dom" /> (page.evaluate callbacks run in the page)
import type { Page, Response } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedWorker, type Worker } from "../e2e/harness.js";
import { ADMIN_TOKEN, adminApi, axeFindings, fitsWidths, launch, openChat, overflow, pageHolds, screenshot, signIn, WIDTHS } from "./browser.js";

/** This file's chat: no other file of the tier uses the 45… range. */
const CHAT = "4500001";
const SHOWN_ONCE = "Shown once: whoever has this address can run the job. Keep it secret.";
const HAS_HOOK = "This job has a hook. A new one replaces it: the old URL stops working.";
const NO_HOOK = "This job has no hook.";

let worker: Worker;
let browser: Awaited<ReturnType<typeof launch>>;
let page: Page;

const admin = adminApi(() => worker.base, ADMIN_TOKEN);

/** The hook URL a Worker at `base` answers: its origin, `/hooks/`, and 32 lowercase letters and digits. */
const hookUrl = (base: string) => new RegExp(`^${new URL(base).origin.replace(/[.]/g, "\\.")}/hooks/[a-z0-9]{32}$`);

/** Calls a hook's URL as a script would: a text body. */
async function call(url: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, { method: "POST", headers: { "Content-Type": "text/plain" }, body: "hi", signal: AbortSignal.timeout(10_000) });
  return { status: res.status, body: await res.json() };
}

/** The answer to the page's next `method` request whose path ends with `tail`. */
const answerTo = (method: string, tail: string): Promise<Response> =>
  page.waitForResponse((r) => r.request().method() === method && new URL(r.url()).pathname.endsWith(tail));

const row = (id: string) => page.locator(`li.job[data-job-id="${id}"]`);
/** The row's hook badge: its visible words and its accessible name. */
const badge = (id: string) =>
  row(id)
    .locator(".badge.hook")
    .evaluateAll((els) => els.map((el) => [el.textContent, el.getAttribute("role"), el.getAttribute("aria-label")]));

beforeAll(async () => {
  worker = await sharedWorker("admin");
  browser = await launch();
  page = browser.context.pages()[0] ?? (await browser.context.newPage());
  await browser.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(worker.base).origin });
});

afterAll(async () => {
  await browser?.close();
});

describe("a job's hook, from its row", () => {
  let id: string;
  let url: string;

  it("makes one: the URL shown once with Copy, the badge on the row, and the URL runs the job", async () => {
    const made = await admin("POST", `/admin/chats/${CHAT}/jobs`, { name: "Deploy notes", kind: "prompt", text: "Summarise what came.", cron: "0 9 * * 1" });
    expect(made.status).toBe(201);
    expect(made.body.job.hook).toBe(false);
    id = made.body.job.id;
    await signIn(page, worker.base, ADMIN_TOKEN);
    await openChat(page, CHAT);
    await row(id).waitFor();
    expect(await badge(id)).toEqual([]);
    expect(await row(id).locator(".job-actions button").allTextContents()).toEqual(["Run now", "Pause", "Edit", "Hook", "History", "Delete"]);

    await page.getByRole("button", { name: "Hook: Deploy notes", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Hook of “Deploy notes”" });
    await dialog.waitFor();
    expect(await dialog.locator("#hook-status").textContent()).toBe(NO_HOOK);
    expect(await dialog.getByRole("button", { name: "Revoke" }).isVisible()).toBe(false);
    expect(await dialog.getByLabel("URL", { exact: true }).isVisible()).toBe(false);

    const answered = answerTo("POST", `/jobs/${id}/hook`);
    await dialog.getByRole("button", { name: "Make hook", exact: true }).click();
    const answer = await answered;
    expect(answer.status()).toBe(201);
    const hook = await answer.json();
    expect(hook).toEqual({ url: expect.stringMatching(hookUrl(worker.base)), email: null });
    await expect.poll(() => dialog.getByLabel("URL", { exact: true }).inputValue()).toMatch(hookUrl(worker.base));
    url = await dialog.getByLabel("URL", { exact: true }).inputValue();
    expect(url).toBe(hook.url);
    expect(await dialog.getByLabel("URL", { exact: true }).getAttribute("readonly")).toBe("");
    expect(await dialog.locator(".secret").textContent()).toBe(SHOWN_ONCE);
    expect(await dialog.locator(".secret").isVisible()).toBe(true);
    expect(await dialog.locator("#hook-status").textContent()).toBe(HAS_HOOK);
    expect(await dialog.getByRole("button", { name: "Replace hook", exact: true }).isVisible()).toBe(true);
    expect(await dialog.getByRole("button", { name: "Revoke" }).isVisible()).toBe(true);
    // No EMAIL_DOMAIN: no address.
    expect(await dialog.getByLabel("Email address", { exact: true }).isVisible()).toBe(false);
    // The dialog with its URL: no overflow and nothing serious for axe-core at 360 and 1440 px, screenshots of both.
    await fitsWidths(page, "hook-dialog");

    await dialog.getByRole("button", { name: "Copy the URL" }).click();
    await expect.poll(() => dialog.locator("#hook-copied").textContent()).toBe("Copied.");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

    // The row was read again behind the dialog: it has the badge now.
    await expect.poll(() => badge(id)).toEqual([["🔗 Hook", "img", "Has a hook"]]);
    expect((await admin("GET", `/admin/chats/${CHAT}/jobs/${id}`)).body.job.hook).toBe(true);

    expect(await call(url)).toEqual({ status: 202, body: { accepted: true, runId: expect.stringMatching(new RegExp(`^${id}:\\d+$`)) } });
  });

  it("takes the URL out of the page when the dialog closes (Escape), and keeps it nowhere", async () => {
    const dialog = page.getByRole("dialog", { name: "Hook of “Deploy notes”" });
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    const token = url.slice(url.lastIndexOf("/") + 1);
    expect(await pageHolds(page, token)).toBe(false);
  });

  it("revokes it: the badge goes, and the same URL finds nothing", async () => {
    await page.getByRole("button", { name: "Hook: Deploy notes", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Hook of “Deploy notes”" });
    await dialog.waitFor();
    // Shown once: opened again, it says the job has a hook, not where.
    expect(await dialog.locator("#hook-status").textContent()).toBe(HAS_HOOK);
    expect(await dialog.getByLabel("URL", { exact: true }).isVisible()).toBe(false);

    const answered = answerTo("DELETE", `/jobs/${id}/hook`);
    await dialog.getByRole("button", { name: "Revoke" }).click();
    expect((await answered).status()).toBe(204);
    await expect.poll(() => dialog.locator("#hook-status").textContent()).toBe(NO_HOOK);
    expect(await dialog.getByRole("button", { name: "Make hook", exact: true }).isVisible()).toBe(true);
    expect(await dialog.getByRole("button", { name: "Revoke" }).isVisible()).toBe(false);
    await expect.poll(() => badge(id)).toEqual([]);
    expect((await admin("GET", `/admin/chats/${CHAT}/jobs/${id}`)).body.job.hook).toBe(false);

    expect(await call(url)).toEqual({ status: 404, body: { error: { code: "not_found", message: "No hook at this address." } } });
    await page.getByRole("button", { name: "Close" }).click();
    await dialog.waitFor({ state: "hidden" });
  });
});

describe("a job only its hook runs, made through the dialog", () => {
  let id: string;

  it("shows its URL once after Save, and its row says it runs when its hook is called", async () => {
    await page.getByRole("button", { name: "Create", exact: true }).click();
    const create = page.getByRole("dialog", { name: "Create a job" });
    await create.waitFor();
    await create.getByLabel("Name", { exact: true }).fill("Build alerts");
    await create.getByLabel("Prompt", { exact: true }).fill("Tell me what the build said.");
    expect(await create.getByLabel("Schedule", { exact: true }).isVisible()).toBe(true);
    await create.getByLabel("Run only when its hook is called").check();
    expect(await create.getByLabel("Schedule", { exact: true }).isVisible()).toBe(false);
    expect(await create.getByRole("heading", { name: "Next runs" }).isVisible()).toBe(false);
    await fitsWidths(page, "hook-only-dialog");

    const answered = answerTo("POST", `/admin/chats/${CHAT}/jobs`);
    await create.getByRole("button", { name: "Save" }).click();
    const answer = await answered;
    expect(answer.status()).toBe(201);
    expect(JSON.parse(answer.request().postData() ?? "null")).toEqual({
      name: "Build alerts",
      text: "Tell me what the build said.",
      trigger: "hook",
      kind: "prompt",
    });
    const body = await answer.json();
    id = body.job.id;
    expect([body.job.schedule, body.job.category, body.job.nextRunAt, body.job.hook]).toEqual([{ trigger: "hook" }, "triggered", null, true]);
    expect(body.hook).toEqual({ url: expect.stringMatching(hookUrl(worker.base)), email: null });

    const dialog = page.getByRole("dialog", { name: "Hook of “Build alerts”" });
    await dialog.waitFor();
    expect(await dialog.getByLabel("URL", { exact: true }).inputValue()).toBe(body.hook.url);
    expect(await dialog.locator(".secret").textContent()).toBe(SHOWN_ONCE);
    expect(await dialog.locator("#hook-status").textContent()).toBe(HAS_HOOK);
    expect(await call(body.hook.url)).toEqual({ status: 202, body: { accepted: true, runId: expect.stringMatching(new RegExp(`^${id}:\\d+$`)) } });
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    expect(await pageHolds(page, body.hook.url.slice(body.hook.url.lastIndexOf("/") + 1))).toBe(false);

    await row(id).waitFor();
    await expect.poll(() => row(id).locator(".job-schedule").textContent()).toBe("When its hook is called");
    expect(await row(id).locator(".job-next").count()).toBe(0);
    expect(await badge(id)).toEqual([["🔗 Hook", "img", "Has a hook"]]);
  });

  it("edits as a job only its hook runs: the box ticked, no schedule", async () => {
    await page.getByRole("button", { name: "Edit: Build alerts" }).click();
    const edit = page.getByRole("dialog", { name: "Edit “Build alerts”" });
    await edit.waitFor();
    expect(await edit.getByLabel("Run only when its hook is called").isChecked()).toBe(true);
    expect(await edit.getByLabel("Schedule", { exact: true }).isVisible()).toBe(false);
    await edit.getByRole("button", { name: "Cancel" }).click();
    await edit.waitFor({ state: "hidden" });
  });

  it("is listed by the Triggered filter, and the five filters fit every width", async () => {
    const group = page.getByRole("group", { name: "Category" });
    expect(await group.getByRole("button").allTextContents()).toEqual(["All", "One-time", "Recurring", "Monitoring", "Triggered"]);
    const listed = answerTo("GET", `/admin/chats/${CHAT}/jobs`);
    await group.getByRole("button", { name: "Triggered", exact: true }).click();
    expect(new URL((await listed).url()).searchParams.get("category")).toBe("triggered");
    await expect.poll(() => page.locator(".job h3").allTextContents()).toEqual(["Build alerts"]);
    expect(await group.getByRole("button", { name: "Triggered", exact: true }).getAttribute("aria-pressed")).toBe("true");

    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      expect(await overflow(page), `at ${width} px`).toBe(0);
      for (const filter of ["All", "One-time", "Recurring", "Monitoring", "Triggered"]) {
        const box = await group.getByRole("button", { name: filter, exact: true }).boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= width, `${filter} in view at ${width} px`).toBe(true);
      }
      expect(await axeFindings(page), `at ${width} px`).toEqual([]);
      await screenshot(page, "hooks");
    }
    // At 360 px the row of filters wraps: Triggered starts a line below All.
    await page.setViewportSize({ width: 360, height: 900 });
    const [all, triggered] = await Promise.all(["All", "Triggered"].map((f) => group.getByRole("button", { name: f, exact: true }).boundingBox()));
    expect(triggered!.y).toBeGreaterThan(all!.y);
    await page.setViewportSize({ width: 1440, height: 900 });

    await group.getByRole("button", { name: "All", exact: true }).click();
    await expect
      .poll(() =>
        page
          .locator(".job h3")
          .allTextContents()
          .then((names) => names.sort()),
      )
      .toEqual(["Build alerts", "Deploy notes"]);
  });
});

describe("a timed job made one only its hook runs", () => {
  it("sends trigger in place of its schedule, then opens the Hook dialog to make the hook it lacks", async () => {
    await page.getByRole("button", { name: "Edit: Deploy notes" }).click();
    const edit = page.getByRole("dialog", { name: "Edit “Deploy notes”" });
    await edit.waitFor();
    expect(await edit.getByLabel("Run only when its hook is called").isChecked()).toBe(false);
    await edit.getByLabel("Run only when its hook is called").check();
    const id = (await admin("GET", `/admin/chats/${CHAT}/jobs`)).body.jobs.find((j: any) => j.name === "Deploy notes").id;
    const answered = answerTo("PATCH", `/jobs/${id}`);
    await edit.getByRole("button", { name: "Save" }).click();
    const answer = await answered;
    expect(answer.status()).toBe(200);
    expect(JSON.parse(answer.request().postData() ?? "null")).toEqual({ name: "Deploy notes", text: "Summarise what came.", trigger: "hook" });
    const { job } = await answer.json();
    expect([job.schedule, job.category, job.nextRunAt, job.hook]).toEqual([{ trigger: "hook" }, "triggered", null, false]);

    const dialog = page.getByRole("dialog", { name: "Hook of “Deploy notes”" });
    await dialog.waitFor();
    expect(await dialog.locator("#hook-status").textContent()).toBe(NO_HOOK);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    await expect.poll(() => row(id).locator(".job-schedule").textContent()).toBe("When its hook is called");
    expect(await row(id).locator(".job-next").textContent()).toBe("No hook: nothing runs it until one is made");
    expect(await badge(id)).toEqual([]);
  });
});
