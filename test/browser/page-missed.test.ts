/**
 * A job's model and what a missed run does (docs/agent.md#models, docs/time.md#missed-runs) on the page, in a real
 * Chromium against a `wrangler dev` of its own with LLM_MODEL and LLM_MODELS (the echo agent: no LLM_BASE_URL, but
 * the models are the ones a job may choose): the row of a job made through the API with a pinned model and
 * `missed: "skip"` says both; the Edit dialog shows them in its Model, "If a run is missed" and Grace fields, and
 * sends only what changed (the policy, made "ask"), which the API then reports. A one-off is not offered "Run each",
 * a create sends only what is not the default, a job only its hook runs has neither field, and a grace that is none
 * of the field's choices stays selectable in its place.
 */
/// <reference lib="dom" /> (page.evaluate callbacks run in the page)
import type { Page, Response } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorker, type Worker } from "../e2e/harness.js";
import { adminApi, fitsWidths, launch, openChat, signIn } from "./browser.js";

const TOKEN = "browser-page-missed-admin-token";
/** This file's chats: no other file of the tier uses the 982… range. */
const CHAT = "9820001";
const [DEFAULT_MODEL, OTHER_MODEL] = ["gpt-4o-mini", "gpt-4o"];

let worker: Worker;
let browser: Awaited<ReturnType<typeof launch>>;
let page: Page;

const admin = adminApi(() => worker.base, TOKEN);

/** The answer to the page's next `method` request whose path ends with `tail`. */
const answerTo = (method: string, tail: string): Promise<Response> =>
  page.waitForResponse((r) => r.request().method() === method && new URL(r.url()).pathname.endsWith(tail));

const row = (id: string) => page.locator(`li.job[data-job-id="${id}"]`);
/** What the row says of the job's model and missed runs ("" when it says nothing of them). */
const options = async (id: string) => ((await row(id).locator(".job-options").count()) === 0 ? "" : await row(id).locator(".job-options").textContent());

/** A select's options as `[value, label, disabled]`. */
const choices = (dialog: ReturnType<Page["getByRole"]>, label: string) =>
  dialog
    .getByLabel(label, { exact: true })
    .evaluate((select) => Array.from((select as HTMLSelectElement).options, (o) => [o.value, o.textContent, o.disabled] as const));

beforeAll(async () => {
  worker = await startWorker({ vars: { ADMIN_TOKEN: TOKEN, LLM_MODEL: DEFAULT_MODEL, LLM_MODELS: OTHER_MODEL } });
  browser = await launch();
  page = browser.context.pages()[0] ?? (await browser.context.newPage());
});

afterAll(async () => {
  await browser?.close();
  await worker?.stop();
});

describe("a job's model and missed runs", () => {
  let pinned: string;
  let plain: string;

  it("are said on the row when not the defaults: `model gpt-4o · if missed: skip`", async () => {
    const model = await admin("GET", `/admin/chats/${CHAT}/model`);
    expect(model).toEqual({ status: 200, body: { model: null, effective: DEFAULT_MODEL, choices: [DEFAULT_MODEL, OTHER_MODEL] } });
    const made = await admin("POST", `/admin/chats/${CHAT}/jobs`, {
      name: "Morning digest",
      kind: "prompt",
      text: "Summarise the night.",
      cron: "0 8 * * *",
      model: OTHER_MODEL,
      missed: "skip",
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect([made.body.job.model, made.body.job.missed, made.body.job.grace]).toEqual([OTHER_MODEL, "skip", "PT1M"]);
    pinned = made.body.job.id;
    const other = await admin("POST", `/admin/chats/${CHAT}/jobs`, { name: "Evening note", kind: "prompt", text: "Say good night.", cron: "0 21 * * *" });
    expect(other.status).toBe(201);
    expect([other.body.job.model, other.body.job.missed, other.body.job.grace]).toEqual([null, "once", "PT1M"]);
    plain = other.body.job.id;

    await signIn(page, worker.base, TOKEN);
    await openChat(page, CHAT);
    await row(pinned).waitFor();
    await expect.poll(() => options(pinned)).toBe(`model ${OTHER_MODEL} · if missed: skip`);
    expect(await options(plain)).toBe("");
  });

  it("shows them in the Edit dialog, and sends only the policy when only it changed", async () => {
    await page.getByRole("button", { name: "Edit: Morning digest" }).click();
    const edit = page.getByRole("dialog", { name: "Edit “Morning digest”" });
    await edit.waitFor();
    expect(await edit.getByLabel("Model", { exact: true }).isVisible()).toBe(true);
    expect(await choices(edit, "Model")).toEqual([
      ["", `Chat's model (${DEFAULT_MODEL})`, false],
      [DEFAULT_MODEL, DEFAULT_MODEL, false],
      [OTHER_MODEL, OTHER_MODEL, false],
    ]);
    expect(await edit.getByLabel("Model", { exact: true }).inputValue()).toBe(OTHER_MODEL);
    expect(await edit.getByLabel("If a run is missed", { exact: true }).inputValue()).toBe("skip");
    expect(await choices(edit, "If a run is missed")).toEqual([
      ["once", "Run it once, late", false],
      ["skip", "Skip it", false],
      ["all", "Run each one, in order (at most 10)", false],
      ["ask", "Ask in the chat: Run now or Skip", false],
    ]);
    expect(await edit.getByLabel("Grace", { exact: true }).inputValue()).toBe("PT1M");
    expect((await choices(edit, "Grace")).map(([value, label]) => [value, label])).toEqual([
      ["PT0S", "none (0 s)"],
      ["PT1M", "1 min"],
      ["PT5M", "5 min"],
      ["PT15M", "15 min"],
      ["PT1H", "1 h"],
      ["PT6H", "6 h"],
      ["P1D", "1 day"],
    ]);
    await fitsWidths(page, "missed-dialog");

    await edit.getByLabel("If a run is missed", { exact: true }).selectOption("ask");
    const answered = answerTo("PATCH", `/jobs/${pinned}`);
    await edit.getByRole("button", { name: "Save" }).click();
    const answer = await answered;
    expect(answer.status()).toBe(200);
    expect(JSON.parse(answer.request().postData() ?? "null")).toEqual({ name: "Morning digest", text: "Summarise the night.", missed: "ask" });
    await edit.waitFor({ state: "hidden" });

    const { body } = await admin("GET", `/admin/chats/${CHAT}/jobs/${pinned}`);
    expect([body.job.model, body.job.missed, body.job.grace]).toEqual([OTHER_MODEL, "ask", "PT1M"]);
    await expect.poll(() => options(pinned)).toBe(`model ${OTHER_MODEL} · if missed: ask`);
  });

  it("unpins the model and sets a grace through the dialog: each sent, the row says the policy alone", async () => {
    await page.getByRole("button", { name: "Edit: Morning digest" }).click();
    const edit = page.getByRole("dialog", { name: "Edit “Morning digest”" });
    await edit.waitFor();
    await edit.getByLabel("Model", { exact: true }).selectOption("");
    await edit.getByLabel("Grace", { exact: true }).selectOption("PT15M");
    const answered = answerTo("PATCH", `/jobs/${pinned}`);
    await edit.getByRole("button", { name: "Save" }).click();
    const answer = await answered;
    expect(answer.status()).toBe(200);
    expect(JSON.parse(answer.request().postData() ?? "null")).toEqual({ name: "Morning digest", text: "Summarise the night.", model: null, grace: "PT15M" });
    const { job } = await answer.json();
    expect([job.model, job.missed, job.grace]).toEqual([null, "ask", "PT15M"]);
    await expect.poll(() => options(pinned)).toBe("if missed: ask");
  });

  it("keeps a grace that is none of the choices selectable, in its place", async () => {
    expect((await admin("PATCH", `/admin/chats/${CHAT}/jobs/${plain}`, { grace: "PT2H" })).body.job.grace).toBe("PT2H");
    // The list read again (the page reads it every 30 s): the dialog opens with the job as the list has it.
    const listed = answerTo("GET", `/admin/chats/${CHAT}/jobs`);
    await page.getByRole("group", { name: "Category" }).getByRole("button", { name: "All", exact: true }).click();
    await listed;
    await page.getByRole("button", { name: "Edit: Evening note" }).click();
    const edit = page.getByRole("dialog", { name: "Edit “Evening note”" });
    await edit.waitFor();
    expect(await edit.getByLabel("Grace", { exact: true }).inputValue()).toBe("PT2H");
    expect((await choices(edit, "Grace")).map(([value]) => value)).toEqual(["PT0S", "PT1M", "PT5M", "PT15M", "PT1H", "PT2H", "PT6H", "P1D"]);
    expect(await edit.getByLabel("Model", { exact: true }).inputValue()).toBe("");
    expect(await edit.getByLabel("If a run is missed", { exact: true }).inputValue()).toBe("once");
    await edit.getByRole("button", { name: "Cancel" }).click();
    await edit.waitFor({ state: "hidden" });
  });

  it("creates: no Run each for a one-off, only what is not the default sent, nothing to miss for a job only its hook runs", async () => {
    await page.getByRole("button", { name: "Create", exact: true }).click();
    const create = page.getByRole("dialog", { name: "Create a job" });
    await create.waitFor();
    expect(await create.getByLabel("Model", { exact: true }).inputValue()).toBe("");
    expect(await create.getByLabel("If a run is missed", { exact: true }).inputValue()).toBe("once");
    expect(await create.getByLabel("Grace", { exact: true }).inputValue()).toBe("PT1M");
    await create.getByLabel("Name", { exact: true }).fill("Call back");
    await create.getByLabel("Prompt", { exact: true }).fill("Remind me to call back.");
    await create.getByLabel("Schedule", { exact: true }).fill("in 2 hours");
    // Read as one time: "Run each" cannot be chosen.
    await expect.poll(async () => (await choices(create, "If a run is missed")).find(([value]) => value === "all")?.[2]).toBe(true);

    // Only its hook runs it: no missed runs, no grace; the model stays.
    await create.getByLabel("Run only when its hook is called").check();
    expect(await create.getByLabel("If a run is missed", { exact: true }).isVisible()).toBe(false);
    expect(await create.getByLabel("Grace", { exact: true }).isVisible()).toBe(false);
    expect(await create.getByLabel("Model", { exact: true }).isVisible()).toBe(true);
    await create.getByLabel("Run only when its hook is called").uncheck();
    expect(await create.getByLabel("If a run is missed", { exact: true }).isVisible()).toBe(true);

    await create.getByLabel("If a run is missed", { exact: true }).selectOption("skip");
    const answered = answerTo("POST", `/admin/chats/${CHAT}/jobs`);
    await create.getByRole("button", { name: "Save" }).click();
    const answer = await answered;
    expect(answer.status()).toBe(201);
    const sent = JSON.parse(answer.request().postData() ?? "null");
    expect(sent).toMatchObject({ name: "Call back", text: "Remind me to call back.", kind: "prompt", missed: "skip", at: expect.any(String) });
    expect(Object.keys(sent)).not.toContain("model");
    expect(Object.keys(sent)).not.toContain("grace");
    const { job } = await answer.json();
    expect([job.model, job.missed, job.grace]).toEqual([null, "skip", "PT1M"]);
    await create.waitFor({ state: "hidden" });
    await expect.poll(() => options(job.id)).toBe("if missed: skip");
  });
});
