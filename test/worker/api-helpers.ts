/** Shared helpers of the API tests (admin job, settings and tool routes): requests, expected answers, jobs. */
import { listDurableObjectIds } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { Job } from "../../src/schemas/jobs";
import { nextOccurrence, parseCron } from "../../src/time";
import { call, envWith } from "./helpers";

export type Answer = { status: number; body: any };

/** A request as the page or an agent sends it (JSON content type on every method), read back as JSON. */
export async function send(method: string, path: string, body?: unknown, testEnv: Env = envWith()): Promise<Answer> {
  const init: RequestInit = { method, headers: { "Content-Type": "application/json" } };
  if (body !== undefined) init.body = typeof body === "string" ? body : JSON.stringify(body);
  const res = await call(path, init, testEnv);
  const text = await res.text();
  return { status: res.status, body: text === "" ? null : JSON.parse(text) };
}

export const badRequest = (message: string): Answer => ({ status: 400, body: { error: { code: "bad_request", message } } });
export const noJob = (id: string): Answer => ({ status: 404, body: { error: { code: "not_found", message: `No job ${id} in this chat.` } } });

/** Creates a job through the admin API and returns it (the create must succeed). */
export async function createJob(chatId: string, input: Record<string, unknown>): Promise<Job> {
  const res = await send("POST", `/admin/chats/${chatId}/jobs`, input);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.job as Job;
}

/** The next occurrence of `cron` in `zone` strictly after `after`, as RFC 3339 UTC. */
export function nextRun(cron: string, zone: string, after = Date.now()): string {
  const parsed = parseCron(cron);
  if (!parsed.ok) throw new Error(parsed.error);
  const next = nextOccurrence(parsed.value, zone, after);
  if (!next) throw new Error(`${cron} never fires`);
  return new Date(next.at).toISOString();
}

/** Whether a ChatScheduler object has ever been created (and stored anything) for this chat id. */
export async function objectExists(chatId: string): Promise<boolean> {
  const wanted = env.CHAT.idFromName(chatId);
  return (await listDurableObjectIds(env.CHAT)).some((id) => id.equals(wanted));
}

/** `yyyy-MM-dd HH:mm` of an instant in UTC, the form of the time rules' sentences. */
export const utcWall = (ms: number): string => new Date(ms).toISOString().slice(0, 16).replace("T", " ");

export const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const JOB_ID = /^[abcdefghjkmnpqrstuvwxyz23456789]{5}$/;
export const UTC_NOW_LINE = /^Now: (Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{4}-\d{2}-\d{2} \d{2}:\d{2} \(UTC, UTC\+00:00\)$/;

/** The next 1 January 00:00 UTC and the two after it, the yearly cron `0 0 1 1 *` tests use for stable texts. */
export function newYears(): { iso: string[]; shown: string[] } {
  const first = new Date().getUTCFullYear() + 1;
  const years = [first, first + 1, first + 2];
  return { iso: years.map((y) => `${y}-01-01T00:00:00.000Z`), shown: years.map((y) => `1 Jan ${y} 00:00`) };
}
