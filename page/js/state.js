// @ts-check
/**
 * @module What the page is showing: its mode (`admin`, every chat with a picker; a later one-chat mode sets
 * `chat` and a fixed chat id), the chosen chat and its zone, the filter and search, and the last job list.
 */

/**
 * The page's copies of the API's `LastResult` and `Job` (src/schemas/jobs.ts, the one list of a job's fields):
 * plain JS keeps no import of it, so test/unit/page-state.test.ts fails when these drift from the schema.
 * @typedef {{ status: string, exitCode?: number | null, timedOut?: boolean, stderrTail?: string, at: string }} LastResult
 * @typedef {{ id: string, chatId: string, name: string, kind: "prompt" | "watcher", category: string,
 *   schedule: { at: string } | { cron: string } | { rrule: string, start: string } | { trigger: "hook" }, until?: string | null,
 *   runsLeft?: number | null, text?: string, command?: string, timeoutSeconds?: number,
 *   onlyOnChange?: boolean, memoryRefs?: string[], silent?: boolean, model: string | null,
 *   missed: "once" | "skip" | "all" | "ask", grace: string, before: string[], repeat: { every: string, times: number } | null, importedFrom?: string, threadId?: number, enabled: boolean, createdAt: string,
 *   createdBy: string, nextRunAt: string | null, lastRunAt: string | null, lastResult: LastResult | null,
 *   running: boolean, hook: boolean }} Job
 */

export const state = {
  /** @type {"admin" | "chat"} */
  mode: "admin",
  /** @type {string | null} */
  chatId: null,
  zone: "UTC",
  zoneIsDefault: true,
  category: "",
  q: "",
  /** @type {Job[]} */
  jobs: [],
  /** The server's now when the list was read, and the page's clock then: relative times run from these. */
  serverNow: 0,
  readAt: 0,
  /** No bot token: the chat panel shows the transcript and writes as the user. */
  transcriptMode: false,
  /** A group's member who is not its admin, in the Mini App: the jobs are shown, nothing changes them. */
  readOnly: false,
};

/** The server's now, as the page best knows it. */
export const now = () => (state.serverNow ? state.serverNow + (Date.now() - state.readAt) : Date.now());

/** Telegram chat ids (docs/api.md#access). */
export const CHAT_ID = /^-?[1-9]\d{0,15}$/;
