/**
 * Helpers of the agent-path tests (agent-*.test.ts) that look at a chat only from outside, as a consumer or a
 * client does: the run gate taken and probed through its own RPCs instead of its tables, several jobs fired
 * by one alarm, and the object's clock read around a call (for the instants the object stamps). The shared
 * clock, history, settle and console helpers are in agent-helpers.ts.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { expect } from "vitest";
import type { PromptMessage } from "../../src/contracts/prompt-message";
import { advanceTo, clockOf, createPrompt, MINUTE, must, queued, userMessage, type Fired, type Stub } from "./agent-helpers";

/** What `gateOffer` answers. */
export type Offer = { result: "duplicate" | "queued" } | { result: "run"; token: string; timeZone?: string };

/** A prompt the run gate has not seen within this long after its dispatch is sent again (DESIGN §5 Leases). */
export const OFFER_DEADLINE_MS = 2 * MINUTE;

/** Takes the gate for `message`, failing the test when it does not answer `run`; returns the token. */
export async function take(stub: Stub, message: PromptMessage): Promise<string> {
  const offer = await must<Offer>(stub.gateOffer(message));
  if (offer.result !== "run") throw new Error(`expected run, got ${offer.result}`);
  expect(offer.token).toMatch(/^\S{8,}$/);
  return offer.token;
}

let probes = 0;

/**
 * The run gate is free and nothing waits in it, as a consumer finds out: a fresh prompt takes the gate at
 * once (a held gate would answer `queued`), and the holder's next prompt is none (a waiting one would be
 * handed over), which frees the gate again. Writes nothing to the transcript.
 */
export async function expectGateFree(stub: Stub, chatId: string): Promise<void> {
  const probe = userMessage(chatId, `probe-${++probes}`, "probe");
  const offer = await must<Offer>(stub.gateOffer(probe));
  expect(offer.result, "the run gate is held").toBe("run");
  const token = (offer as { token: string }).token;
  await must(stub.gateSettle(token, probe.key, "delivered"));
  expect(await must(stub.gateNext(token)), "a prompt was waiting in the run gate").toEqual({ message: null });
}

/**
 * Prompt one-offs (due 5 minutes after creation) fired together by one alarm: the object's clock is moved
 * to the last one's due time and the alarm run once. Returns each job with the message the chat sent for it.
 */
export async function fireTogether<const Names extends readonly string[]>(chatId: string, stub: Stub, names: Names): Promise<{ [K in keyof Names]: Fired }> {
  const jobs = [];
  for (const name of names) jobs.push(await createPrompt(chatId, stub, { delay: "PT5M" }, name, `${name}.`));
  const dues = jobs.map((job) => Date.parse(job.nextRunAt!));
  await advanceTo(stub, Math.max(...dues));
  const before = (await queued(stub)).length;
  expect(await runDurableObjectAlarm(stub)).toBe(true);
  const sent = (await queued(stub)).slice(before).map((s) => s.body as PromptMessage);
  const fired = jobs.map((job, i): Fired => {
    const runId = `${job.id}:${dues[i]}`;
    const mine = sent.filter((m) => m.key === runId);
    expect(mine, runId).toHaveLength(1);
    return { job, runId, dueAt: dues[i]!, message: mine[0]! };
  });
  return fired as { [K in keyof Names]: Fired };
}

/** The object's clock around `work`: its now before and after (for instants the object stamps). */
export async function clockAround<T>(stub: Stub, work: () => Promise<T>): Promise<{ value: T; t0: number; t1: number }> {
  const t0 = await clockOf(stub);
  const value = await work();
  const t1 = await clockOf(stub);
  return { value, t0, t1 };
}

