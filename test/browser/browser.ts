/**
 * The browser tier's harness (docs/operations.md#checks; issue 15): Debian's `chromium` found on PATH, driven by
 * playwright-core, against the real Worker under `wrangler dev` (test/e2e/harness.ts). The tier's global setup
 * (test/browser/global-setup.ts) starts one Chromium for every file, each file in a fresh context of its own
 * (cookies, storage); a file run without it starts its own. Also what every page test checks the same way:
 * horizontal overflow, axe-core's serious and critical findings, and a screenshot per width, written to
 * test/browser/screenshots/ (git-ignored) for a person to look at.
 */
/// <reference lib="dom" /> (page.evaluate callbacks run in the page)
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { inject } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    /** The tier's Chromium (playwright's WebSocket endpoint), or why there is none (`{ error }`). */
    chromium: { endpoint: string } | { error: string };
  }
}

const here = path.dirname(fileURLToPath(import.meta.url));
export const SCREENSHOTS = path.join(here, "screenshots");
export const WIDTHS = [360, 768, 1440] as const;

/** The sentence the browser tests fail with when Chromium is not on PATH. */
export const NO_CHROMIUM =
  "The browser tests need Chromium on PATH: install it with `apt-get update && apt-get install -y chromium` (as root; .ci/run does this).";

/** The chromium binary on `path` (the PATH), or an error with the sentence saying how to install it. */
export function findChromium(path = process.env.PATH ?? ""): string {
  for (const name of ["chromium", "chromium-browser"]) {
    try {
      const found = execFileSync("/bin/sh", ["-c", `command -v ${name}`], { encoding: "utf8", env: { PATH: path } }).trim();
      if (found) return found;
    } catch {
      // not this name
    }
  }
  throw new Error(NO_CHROMIUM);
}

/** How the tier starts Chromium: headless, on loopback, quiet. */
export const CHROMIUM_OPTIONS = {
  headless: true,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
  timeout: 30_000,
};

/** Every file's window, at first. */
const VIEWPORT = { width: 1440, height: 900 };

/** The ADMIN_TOKEN of the Worker the files with a signed-in page share (`sharedWorker("admin")`). */
export const ADMIN_TOKEN = "browser-tests-admin-token";

/** The tier's Chromium, when its global setup started one (none outside a test file, or without one). */
function tierChromium(): { endpoint: string } | { error: string } | undefined {
  try {
    return inject("chromium");
  } catch {
    return undefined;
  }
}

/**
 * A fresh browser context, in the tier's Chromium or else in a headless Chromium with a fresh profile of its
 * own; `close()` ends the context (and its own Chromium, removing the profile).
 */
export async function launch(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const tier = tierChromium();
  if (tier && "error" in tier) throw new Error(tier.error);
  if (tier) {
    const browser = await chromium.connect(tier.endpoint, { timeout: 30_000 });
    const context = await browser.newContext({ viewport: VIEWPORT });
    return {
      context,
      async close() {
        await context.close().catch(() => {});
        await browser.close().catch(() => {});
      },
    };
  }
  const profile = mkdtempSync(path.join(tmpdir(), "cuckoo-chromium-"));
  const context = await chromium.launchPersistentContext(profile, { ...CHROMIUM_OPTIONS, executablePath: findChromium(), viewport: VIEWPORT });
  return {
    context,
    async close() {
      await context.close().catch(() => {});
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** How much wider than the window the page is (0: no horizontal overflow). */
export function overflow(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - document.documentElement.clientWidth);
}

const axeSource = lazyText(() => readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8"));

function lazyText(read: () => string): () => string {
  let text: string | null = null;
  return () => (text ??= read());
}

/** axe-core's serious and critical findings on the page as it is, one line each (rule: the elements). */
export async function axeFindings(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's Content-Security-Policy does not govern.
  await page.evaluate(axeSource());
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: { run(context: Document, options: object): Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] }> };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => JSON.stringify(n.target)) }));
  });
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.impact} ${v.id}: ${v.targets.join(", ")}`);
}

/** Writes `<name>-<width>.png` (the whole page) under the git-ignored screenshots folder. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
}

/** The admin API of the Worker at `base()` with a bearer `token`, as a script would call it. */
export function adminApi(base: () => string, token: string) {
  return async (method: string, route: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const res = await fetch(`${base()}${route}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    return { status: res.status, body: text === "" ? null : JSON.parse(text) };
  };
}

/** Signs the page in with the admin token, as a person does. */
export async function signIn(page: Page, base: string, token: string): Promise<void> {
  await page.goto(`${base}/`);
  await page.getByLabel("Admin token").fill(token);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Create", exact: true }).waitFor();
}

/** Opens `chatId` through the "Chat id" form (a chat with no jobs yet is not in the picker). */
export async function openChat(page: Page, chatId: string): Promise<void> {
  await page.getByLabel("Chat id", { exact: true }).fill(chatId);
  await page.getByRole("button", { name: "Open", exact: true }).click();
  await page.waitForFunction((id) => location.hash === `#chat=${id}`, chatId);
}

/**
 * At each of `widths` (360 and 1440 px unless given): nothing wider than the window and nothing serious for
 * axe-core, with a screenshot of each; the window is 1440 px wide again after.
 */
export async function fitsWidths(page: Page, name: string, widths: readonly number[] = [360, 1440]): Promise<void> {
  for (const width of widths) {
    await page.setViewportSize({ width, height: 900 });
    if ((await overflow(page)) !== 0) throw new Error(`${name} is ${await overflow(page)} px wider than the window at ${width} px`);
    const findings = await axeFindings(page);
    if (findings.length > 0) throw new Error(`${name} at ${width} px: ${findings.join("; ")}`);
    await screenshot(page, name);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** Whether any of the page's HTML, its fields' values, its storage or its address holds `secret` (a token shown once). */
export const pageHolds = (page: Page, secret: string): Promise<boolean> =>
  page.evaluate(
    (s) =>
      document.documentElement.outerHTML.includes(s) ||
      Array.from(document.querySelectorAll("input, textarea"), (el) => (el as HTMLInputElement).value).some((v) => v.includes(s)) ||
      JSON.stringify({ ...localStorage }).includes(s) ||
      JSON.stringify({ ...sessionStorage }).includes(s) ||
      location.href.includes(s),
    secret,
  );
