/**
 * The chat panel is the chat (docs/page.md; issue 25), in a real Chromium against `wrangler dev` in transcript mode
 * (open dev mode, the echo agent): a bot entry's Markdown is shown as Telegram renders it, and its `<script>` and
 * `<img onerror>` as the text they are; an offered reminder's Create works in the panel and its job is in the list
 * at once (not after the page's 30-second refresh), as is a `/remind`; a job's message carries its buttons, and
 * 10 min snoozes it there; quiet hours are shown and set beside the zone. No horizontal overflow at 360 and
 * 1440 px, and no serious axe-core finding.
 */
/// <reference lib="dom" /> (page.evaluate callbacks run in the page)
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorker, type Worker } from "../e2e/harness.js";
import { axeFindings, launch, overflow, screenshot } from "./browser.js";

const CHAT = "4400001";
let worker: Worker;
let browser: Awaited<ReturnType<typeof launch>>;
let page: Page;
let panel: Locator;

/** What the list shows, soon: well within a second or two, never the page's 30-second refresh. */
const SOON = { timeout: 5_000 };

beforeAll(async () => {
  worker = await startWorker();
  browser = await launch();
  page = browser.context.pages()[0] ?? (await browser.context.newPage());
  // The chat exists with one message in it: a bot entry of every kind of markup, and of markup that is not Telegram's.
  const markdown = [
    "**Bold** _italic_ ~~gone~~ `code` [a link](https://example.com/x?a=1&b=2)",
    "```js",
    "const x = 1 < 2;",
    "```",
    "> quoted",
    '<script>window.__injected = 1</script> <img src=x onerror="window.__injected = 2">',
  ].join("\n");
  expect((await worker.send("POST", `/tools/${CHAT}/deliver`, { key: "m:markup", markdown })).status).toBe(200);
  // localhost: the open dev mode's rule for pages.
  await page.goto(`${worker.base.replace("127.0.0.1", "localhost")}/#chat=${CHAT}`);
  panel = page.getByRole("complementary", { name: "Conversation" });
  await panel.getByRole("listitem").first().waitFor();
});

afterAll(async () => {
  await browser?.close();
  await worker?.stop();
});

/** Writes `text` in the panel as the chat's user. */
async function write(text: string): Promise<void> {
  await panel.getByLabel("Message").fill(text);
  await panel.getByRole("button", { name: "Send" }).click();
}

describe("the chat panel", () => {
  it("shows a bot entry's Markdown as Telegram renders it, and anything else of it as text", async () => {
    const shown = await panel
      .locator("li.bot .entry-text")
      .first()
      .evaluate((el) => el.innerHTML);
    expect(shown).toBe(
      [
        '<b>Bold</b> <i>italic</i> <s>gone</s> <code>code</code> <a href="https://example.com/x?a=1&amp;b=2" target="_blank" rel="noopener noreferrer nofollow">a link</a>',
        '<pre><code class="language-js">const x = 1 &lt; 2;</code></pre>',
        "<blockquote>quoted</blockquote>",
        '&lt;script&gt;window.__injected = 1&lt;/script&gt; &lt;img src=x onerror="window.__injected = 2"&gt;',
      ].join("\n"),
    );
    expect(
      await page.evaluate(() => ({
        injected: (window as unknown as { __injected?: number }).__injected,
        elements: document.querySelectorAll("#transcript script, #transcript img").length,
      })),
    ).toEqual({
      injected: undefined,
      elements: 0,
    });
  });

  it("shows an offered reminder's Create and Cancel; Create works there, and its job is in the list at once", async () => {
    await write("remind me in 10 minutes to stretch");
    const offer = panel.getByRole("listitem").filter({ hasText: "this reads as a reminder" });
    await offer.getByRole("button", { name: "Create", exact: true }).click();
    await expect.poll(() => panel.getByRole("status").textContent()).toMatch(/^Created [a-z2-9]{5}\.$/);
    await page.getByRole("heading", { name: "stretch" }).waitFor(SOON);
    // Answered: the offer's buttons are gone.
    await expect.poll(() => offer.getByRole("button").count()).toBe(0);
    await write("/remind 2h water the plants");
    await page.getByRole("heading", { name: "water the plants" }).waitFor(SOON);
  });

  it("shows a job's message with its buttons, and 10 min snoozes it: the line replaces them and the copy is listed", async () => {
    const job = (await worker.send("POST", `/admin/chats/${CHAT}/jobs`, { name: "Tea", kind: "prompt", text: "Time for **tea**.", delay: "PT3H" })).body.job;
    await write(`/run ${job.id}`);
    const message = panel.getByRole("listitem").filter({ hasText: "Time for tea." });
    await message.waitFor({ timeout: 15_000 });
    expect(await message.locator(".entry-text").evaluate((el) => el.innerHTML)).toBe("Time for <b>tea</b>.");
    expect(await message.getByRole("button").allTextContents()).toEqual(["Done", "10 min", "1 h", "Tomorrow 9:00"]);
    await message.getByRole("button", { name: "10 min" }).click();
    await expect.poll(() => panel.getByRole("status").textContent()).toMatch(/^Snoozed until \d{2}:\d{2}\.$/);
    const until = (await panel.getByRole("status").textContent())!.replace(/^Snoozed until (.+)\.$/, "$1");
    await expect.poll(() => message.getByRole("button").allTextContents()).toEqual([`⏰ Snoozed until ${until}`]);
    await expect.poll(() => page.getByRole("heading", { name: "Tea" }).count(), SOON).toBe(2);
    await message.getByRole("button").click();
    await expect.poll(() => panel.getByRole("status").textContent()).toBe("This was answered already.");
  });

  it("fits 360 and 1440 px with no horizontal overflow, and axe-core finds nothing serious", async () => {
    for (const width of [360, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await overflow(page), `overflow at ${width} px`).toBe(0);
      expect(await axeFindings(page), `axe at ${width} px`).toEqual([]);
      const box = await panel.boundingBox();
      expect(box!.x >= 0 && box!.x + box!.width <= width, `the panel within ${width} px`).toBe(true);
      await screenshot(page, "chat-panel");
    }
    await page.setViewportSize({ width: 1440, height: 900 });
  });
});

describe("quiet hours on the page", () => {
  it("are shown beside the zone and set in their dialog, or turned off", async () => {
    await expect.poll(() => page.locator("#quiet-text").textContent()).toBe("Quiet hours: off");
    await page.getByRole("button", { name: "Change quiet hours" }).click();
    const dialog = page.getByRole("dialog", { name: "Quiet hours" });
    await dialog.waitFor();
    expect([await dialog.getByLabel("From").inputValue(), await dialog.getByLabel("To").inputValue()]).toEqual(["22:00", "07:00"]);
    await dialog.getByLabel("From").fill("23:00");
    await dialog.getByLabel("To").fill("06:30");
    expect(await axeFindings(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Save quiet hours" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await page.locator("#quiet-text").textContent()).toBe("Quiet hours: 23:00–06:30");
    expect((await worker.send("GET", `/admin/chats/${CHAT}/quiet`)).body).toEqual({ quiet: { from: "23:00", to: "06:30" } });
    await page.setViewportSize({ width: 360, height: 900 });
    expect(await overflow(page)).toBe(0);
    await page.getByRole("button", { name: "Change quiet hours" }).click();
    await dialog.getByRole("button", { name: "Turn off" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await page.locator("#quiet-text").textContent()).toBe("Quiet hours: off");
    expect((await worker.send("GET", `/admin/chats/${CHAT}/quiet`)).body).toEqual({ quiet: null });
    await page.setViewportSize({ width: 1440, height: 900 });
  });
});
