/**
 * Notices ahead and nag until done on the page (docs/telegram.md#notices-ahead, docs/telegram.md#nag-until-done,
 * docs/page.md) in a real Chromium, against the tier's shared `wrangler dev` with ADMIN_TOKEN: a recurring prompt job
 * created through the dialog with a notice an hour ahead and a nag every 10 minutes, 3 more times, which the API then
 * has as `before: ["PT1H"]` and `repeat: { every: "PT10M", times: 3 }` and the row says; the Edit dialog shows both,
 * refuses what the API refuses with its sentence beside the field, sends only what changed (the notices turned off:
 * `before: []`), and takes no more than three notices. A watcher is not offered Nag until done, a job only its hook
 * runs no notices. No horizontal overflow at 360 px, nothing serious for axe-core in the dialog.
 */
/// <reference lib="dom" /> (page.evaluate callbacks run in the page)
import type { Page, Response } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedWorker, type Worker } from "../e2e/harness.js";
import { ADMIN_TOKEN, adminApi, fitsWidths, launch, openChat, signIn } from "./browser.js";

/** This file's chat: no other file of the tier uses the 989… range. */
const CHAT = "9890001";
const REPEAT_SENTENCE = `"repeat" must be { "every": an ISO 8601 duration from PT1M to P1D, "times": a whole number from 1 to 20 }, such as { "every": "PT10M", "times": 6 }, or null for none.`;

let worker: Worker;
let browser: Awaited<ReturnType<typeof launch>>;
let page: Page;

const admin = adminApi(() => worker.base, ADMIN_TOKEN);

/** The answer to the page's next `method` request whose path ends with `tail`. */
const answerTo = (method: string, tail: string): Promise<Response> =>
  page.waitForResponse((r) => r.request().method() === method && new URL(r.url()).pathname.endsWith(tail));

const row = (id: string) => page.locator(`li.job[data-job-id="${id}"]`);
/** What the row says of the job's options ("" when it says nothing of them). */
const options = async (id: string) => ((await row(id).locator(".job-options").count()) === 0 ? "" : await row(id).locator(".job-options").textContent());

type Dialog = ReturnType<Page["getByRole"]>;
const notices = (dialog: Dialog) => dialog.getByRole("group", { name: "Notices ahead" });
/** The Notices ahead checkboxes as `[label, checked, disabled]`. */
const noticeBoxes = (dialog: Dialog) =>
  notices(dialog)
    .locator("label.check")
    .evaluateAll((labels) =>
      labels.map((l) => {
        const box = l.querySelector("input") as HTMLInputElement;
        return [l.textContent?.trim(), box.checked, box.disabled] as const;
      }),
    );
/** The Nag until done choices as `[value, label]`. */
const nagChoices = (dialog: Dialog) =>
  dialog
    .getByLabel("Nag until done", { exact: true })
    .evaluate((select) => Array.from((select as HTMLSelectElement).options, (o) => [o.value, o.textContent] as const));

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

describe("notices ahead and nag until done", () => {
  let id: string;

  it("creates a recurring prompt job with a notice 1 h ahead that nags every 10 min, 3 more times", async () => {
    await page.getByRole("button", { name: "Create", exact: true }).click();
    const create = page.getByRole("dialog", { name: "Create a job" });
    await create.waitFor();
    expect(await noticeBoxes(create)).toEqual([
      ["10 min", false, false],
      ["1 h", false, false],
      ["1 day", false, false],
      ["1 week", false, false],
    ]);
    expect(await nagChoices(create)).toEqual([
      ["", "Off (sent once)"],
      ["PT5M", "every 5 min"],
      ["PT10M", "every 10 min"],
      ["PT30M", "every 30 min"],
      ["PT1H", "every 1 h"],
    ]);
    // The count goes with an interval: hidden while off, the bot's 6 once one is chosen.
    expect(await create.getByLabel("Times (1–20)").isVisible()).toBe(false);

    await create.getByLabel("Name", { exact: true }).fill("Pills");
    await create.getByLabel("Prompt", { exact: true }).fill("Take the pills.");
    await create.getByLabel("Schedule", { exact: true }).fill("every day at 9:00");
    await notices(create).getByLabel("1 h", { exact: true }).check();
    await create.getByLabel("Nag until done", { exact: true }).selectOption("PT10M");
    expect(await create.getByLabel("Times (1–20)").inputValue()).toBe("6");
    await create.getByLabel("Times (1–20)").fill("3");
    // The screenshots show the two fields.
    await create.getByLabel("Times (1–20)").scrollIntoViewIfNeeded();
    await fitsWidths(page, "nags-dialog");

    const answered = answerTo("POST", `/admin/chats/${CHAT}/jobs`);
    await create.getByRole("button", { name: "Save" }).click();
    const answer = await answered;
    expect(answer.status()).toBe(201);
    expect(JSON.parse(answer.request().postData() ?? "null")).toMatchObject({
      name: "Pills",
      kind: "prompt",
      before: ["PT1H"],
      repeat: { every: "PT10M", times: 3 },
    });
    id = (await answer.json()).job.id;
    await create.waitFor({ state: "hidden" });

    const { body } = await admin("GET", `/admin/chats/${CHAT}/jobs/${id}`);
    expect(body.job.category).toBe("recurring");
    expect(body.job.before).toEqual(["PT1H"]);
    expect(body.job.repeat).toEqual({ every: "PT10M", times: 3 });
    await expect.poll(() => options(id)).toBe("notices: 1 h · nags every 10 min ×3");
  });

  it("shows both in the Edit dialog, puts the API's sentence beside the field, and takes no more than three notices", async () => {
    await page.getByRole("button", { name: "Edit: Pills" }).click();
    const edit = page.getByRole("dialog", { name: "Edit “Pills”" });
    await edit.waitFor();
    expect((await noticeBoxes(edit)).filter(([, checked]) => checked).map(([label]) => label)).toEqual(["1 h"]);
    expect(await edit.getByLabel("Nag until done", { exact: true }).inputValue()).toBe("PT10M");
    expect(await edit.getByLabel("Times (1–20)").inputValue()).toBe("3");

    // A count the API refuses: its sentence beside the field, nothing changed.
    await edit.getByLabel("Times (1–20)").fill("25");
    await edit.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => page.locator("#job-repeat-error").textContent()).toBe(REPEAT_SENTENCE);
    expect(await edit.getByLabel("Nag until done", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    await edit.getByLabel("Times (1–20)").fill("3");

    // A week ahead of a daily job: not shorter than its interval.
    await notices(edit).getByLabel("1 week", { exact: true }).check();
    await edit.getByRole("button", { name: "Save" }).click();
    await expect
      .poll(() => page.locator("#job-before-error").textContent())
      .toBe(`"before" P7D is not shorter than this job's shortest interval between runs (P1D).`);
    expect((await admin("GET", `/admin/chats/${CHAT}/jobs/${id}`)).body.job.before).toEqual(["PT1H"]);

    // Three checked: the fourth cannot be.
    await notices(edit).getByLabel("10 min", { exact: true }).check();
    expect(await noticeBoxes(edit)).toEqual([
      ["10 min", true, false],
      ["1 h", true, false],
      ["1 day", false, true],
      ["1 week", true, false],
    ]);
    await edit.getByRole("button", { name: "Cancel" }).click();
    await edit.waitFor({ state: "hidden" });
  });

  it("turns the notices off: only `before: []` is sent, and the job keeps nagging", async () => {
    await page.getByRole("button", { name: "Edit: Pills" }).click();
    const edit = page.getByRole("dialog", { name: "Edit “Pills”" });
    await edit.waitFor();
    await notices(edit).getByLabel("1 h", { exact: true }).uncheck();
    const answered = answerTo("PATCH", `/jobs/${id}`);
    await edit.getByRole("button", { name: "Save" }).click();
    const answer = await answered;
    expect(answer.status()).toBe(200);
    expect(JSON.parse(answer.request().postData() ?? "null")).toEqual({ name: "Pills", text: "Take the pills.", before: [] });
    await edit.waitFor({ state: "hidden" });

    const { body } = await admin("GET", `/admin/chats/${CHAT}/jobs/${id}`);
    expect(body.job.before).toEqual([]);
    expect(body.job.repeat).toEqual({ every: "PT10M", times: 3 });
    await expect.poll(() => options(id)).toBe("nags every 10 min ×3");
  });

  it("keeps a job's own values shown, offers no nagging to a watcher and no notices to a job only its hook runs", async () => {
    const made = await admin("PATCH", `/admin/chats/${CHAT}/jobs/${id}`, { before: ["PT2H"], repeat: { every: "PT15M", times: 20 } });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    // The list read again (the page reads it every 30 s): the dialog opens with the job as the list has it.
    const listed = answerTo("GET", `/admin/chats/${CHAT}/jobs`);
    await page.getByRole("group", { name: "Category" }).getByRole("button", { name: "All", exact: true }).click();
    await listed;
    await expect.poll(() => options(id)).toBe("notices: 2 h · nags every 15 min ×20");
    await page.getByRole("button", { name: "Edit: Pills" }).click();
    const edit = page.getByRole("dialog", { name: "Edit “Pills”" });
    await edit.waitFor();
    expect((await noticeBoxes(edit)).map(([label, checked]) => [label, checked])).toEqual([
      ["10 min", false],
      ["1 h", false],
      ["2 h", true],
      ["1 day", false],
      ["1 week", false],
    ]);
    expect((await nagChoices(edit)).map(([value]) => value)).toEqual(["", "PT5M", "PT10M", "PT15M", "PT30M", "PT1H"]);
    expect(await edit.getByLabel("Nag until done", { exact: true }).inputValue()).toBe("PT15M");
    expect(await edit.getByLabel("Times (1–20)").inputValue()).toBe("20");
    await edit.getByRole("button", { name: "Cancel" }).click();
    await edit.waitFor({ state: "hidden" });

    await page.getByRole("button", { name: "Create", exact: true }).click();
    const create = page.getByRole("dialog", { name: "Create a job" });
    await create.waitFor();
    await create.getByLabel("Kind", { exact: true }).selectOption("watcher");
    expect(await create.getByLabel("Nag until done", { exact: true }).isVisible()).toBe(false);
    expect(await notices(create).isVisible()).toBe(true);
    await create.getByLabel("Kind", { exact: true }).selectOption("prompt");
    await create.getByLabel("Run only when its hook is called").check();
    expect(await notices(create).isVisible()).toBe(false);
    expect(await create.getByLabel("Nag until done", { exact: true }).isVisible()).toBe(true);
    await create.getByRole("button", { name: "Cancel" }).click();
    await create.waitFor({ state: "hidden" });
  });
});
