/**
 * @module Playa's stores (docs/imports.md#playa), read tolerantly: `jobs.json` (`{ "version": 1, "jobs": [...] }`,
 * camelCase; `target` is the chat id; `kind` reminder | prompt | watcher, also as the .NET enum's number;
 * `schedule.at` an instant with its offset, or `schedule.cron`; `text`, `command`, `timeoutSeconds`) and
 * `chat-settings.json` (`{ "version": 1, "chats": { "<id>": { "timeZone" } } }`) for the chats' zones. A
 * reminder becomes a prompt `Remind me: <text>`; a one-off already past fires once, late, as Playa would.
 * Playa's cron is Cronos's dialect, which Cuckoo reads (ranges that wrap, `L`, `W`, `#`, `?`) but for one
 * rule: Cronos ANDs the two day fields where both are restricted, cron ORs them, so such an expression is
 * imported as the recurrence rule that means what Cronos meant (`cronosRule`: Friday the 13th), or left out
 * with the sentence why no rule can say it (docs/time.md).
 */
import { CHAT_ID } from "../contracts/ids";
import type { ImportEntry } from "../schemas/import";
import { cronosRule, parseCron } from "../time";
import { add, emptyPlan, type ImportPlan, idOf, objectOf, quoted, textOf } from "./plan";

/** JobKind in Playa's C#: `enum JobKind { Reminder, Prompt, Watcher }`, written as a name or a number. */
const KINDS = ["reminder", "prompt", "watcher"] as const;

/** An instant as .NET writes a DateTimeOffset (up to 7 fractional digits), in the form `at` reads (3). */
function atOf(value: string): string {
  return value.trim().replace(/(\.\d{3})\d+/, "$1");
}

/** The zones of Playa's chat-settings.json, by chat id (an invalid file reads as none, with a sentence). */
function zonesOf(settings: unknown, problems: string[]): Map<string, string> {
  const zones = new Map<string, string>();
  if (settings === undefined || settings === null) return zones;
  const chats = objectOf(objectOf(settings)?.chats);
  if (!chats) {
    problems.push(
      `"settings" is not Playa's chat-settings.json ({ "version": 1, "chats": { "<chat id>": { "timeZone": "Europe/Berlin" } } }); no zones were read.`,
    );
    return zones;
  }
  for (const [chatId, entry] of Object.entries(chats)) {
    const zone = textOf(objectOf(entry)?.timeZone);
    if (zone !== null) zones.set(chatId, zone.trim());
  }
  return zones;
}

/** Reads Playa's jobs (of one chat, when `onlyChat` is given). */
export function readPlaya(data: unknown, settings: unknown, onlyChat: string | null): ImportPlan {
  const plan = emptyPlan("Playa");
  const jobs = objectOf(data)?.jobs;
  if (!Array.isArray(jobs)) {
    plan.problems.push(`"data" is not Playa's jobs.json: it must be an object { "version": 1, "jobs": [...] }; nothing was imported.`);
    return plan;
  }
  const version = objectOf(data)?.version;
  if (version !== 1) plan.problems.push(`Playa's jobs.json says version ${JSON.stringify(version ?? null)}; it was read as version 1.`);
  const zones = zonesOf(settings, plan.problems);
  let otherChats = 0;
  const readOne = (raw: unknown, i: number) => {
    const job = objectOf(raw);
    const id = idOf(job?.id);
    const label = id !== null ? `Playa job ${quoted(id)}` : `Playa job #${i + 1}`;
    const problem = (why: string) => void plan.problems.push(`${label} ${why}; it was left out.`);
    if (!job) return problem("is not a JSON object");
    if (id === null) return problem(`has no "id"`);
    const target = idOf(job.target);
    if (target === null || !CHAT_ID.test(target)) return problem(`has a "target" that is not a Telegram chat id (${quoted(String(job.target ?? ""))})`);
    if (onlyChat !== null && target !== onlyChat) {
      otherChats++;
      return;
    }
    const rawKind = typeof job.kind === "number" ? KINDS[job.kind] : typeof job.kind === "string" ? job.kind.trim().toLowerCase() : undefined;
    const kind = KINDS.find((k) => k === rawKind);
    if (!kind) return problem(`has a "kind" that is not reminder, prompt or watcher (${quoted(String(job.kind ?? ""))})`);
    const schedule = objectOf(job.schedule);
    const at = textOf(schedule?.at);
    const cron = textOf(schedule?.cron);
    if ((at === null) === (cron === null)) return problem(`needs exactly one of "schedule.at" and "schedule.cron"`);
    let when: ImportEntry["when"] = at !== null ? { at: atOf(at) } : { cron: cron! };
    let fromCronos: string | undefined;
    if (cron !== null) {
      // An expression that does not parse goes on as it is: the chat's object says why, as for any cron.
      const parsed = parseCron(cron);
      const rule = parsed.ok ? cronosRule(parsed.value) : null;
      if (rule && !rule.ok) {
        plan.problems.push(`${label}: ${rule.error} It was left out.`);
        return;
      }
      if (rule) {
        when = { rrule: rule.value };
        fromCronos = cron.trim();
      }
    }
    const entry: ImportEntry = {
      sourceId: `playa:${id}`,
      label,
      job: {
        name: typeof job.name === "string" ? job.name : "",
        kind,
        ...(typeof job.text === "string" ? { text: job.text } : {}),
        ...(typeof job.command === "string" ? { command: job.command } : {}),
        ...(typeof job.timeoutSeconds === "number" ? { timeoutSeconds: job.timeoutSeconds } : {}),
      },
      when,
      enabled: true,
      ...(fromCronos === undefined ? {} : { fromCronos }),
    };
    add(plan, target, entry, zones.get(target) ?? null);
  };
  for (const [i, raw] of jobs.entries()) readOne(raw, i);
  if (otherChats > 0)
    plan.problems.push(
      `${otherChats} Playa ${otherChats === 1 ? "job of another chat was" : "jobs of other chats were"} left out (only chat ${onlyChat} was imported).`,
    );
  return plan;
}
