/**
 * Benchmark: a chat's calendar feed (docs/calendar.md) with 50 jobs in Europe/Berlin, the mix a busy chat holds: 20
 * one-offs, 15 cron jobs (an hourly one, gap times, weekdays, `L`, `5L`), 10 recurrence rules and 5 schedules listed
 * run by run (`15W`, cron's OR of two day fields). The time to build it (the first build, which finds the zone's
 * transitions, and the median of later ones, as the chat's object builds it on each fetch) and its size. Printed,
 * never asserted. Bundled by bench/run.mjs and run on Node 22.
 */
import { calendarFeed } from "../src/calendar/feed";
import { type JobRecord, newJobRecord, specDefaults } from "../src/jobs/records";
import { nextOccurrence, nextRuleOccurrence, parseCron, parseRuleSchedule, type StoredSchedule } from "../src/time";

const ZONE = "Europe/Berlin";
const NOW = Date.parse("2026-12-07T17:00:00Z");
const CRONS = [
  "0 * * * *",
  "30 2 * * *",
  "0 8 * * 1-5",
  "0 9 L * *",
  "0 17 * * 5L",
  "*/30 9-17 * * 1-5",
  "0 9 * * 1#1",
  "15 6 * * *",
  "0 20 * * 0",
  "0 12 1,15 * *",
];
const RULES = [
  "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU",
  "FREQ=DAILY;INTERVAL=3",
  "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
  "FREQ=HOURLY;INTERVAL=4",
  "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=14",
];
const LISTED = ["0 9 15W * *", "0 12 13 * 5", "0 9 L-2W * *", "30 7 1 * 1", "0 18 * * 5#2"];

function job(i: number, schedule: StoredSchedule): JobRecord {
  let next: number | null = null;
  if (schedule.type === "at") next = schedule.at;
  else if (schedule.type === "cron") {
    const cron = parseCron(schedule.cron);
    if (cron.ok) next = nextOccurrence(cron.value, ZONE, NOW)?.at ?? null;
  } else if (schedule.type === "rule") {
    const rule = parseRuleSchedule(schedule, ZONE);
    if (rule.ok) next = nextRuleOccurrence(rule.value, ZONE, NOW)?.at ?? null;
  }
  const spec = {
    ...specDefaults(),
    kind: "prompt" as const,
    name: `Job ${i}: something to do`,
    schedule,
    text: `Remind me, please, to do thing number ${i}; then report back`,
  };
  return newJobRecord(spec, { id: `j${String(i).padStart(4, "0")}`, createdAt: NOW - 86_400_000, createdBy: "user", nextRunAt: next });
}

const jobs: JobRecord[] = [];
for (let i = 0; i < 20; i++) jobs.push(job(jobs.length, { type: "at", at: NOW + (i + 1) * 3 * 3_600_000 }));
for (let i = 0; i < 15; i++) jobs.push(job(jobs.length, { type: "cron", cron: CRONS[i % CRONS.length]! }));
for (let i = 0; i < 10; i++) jobs.push(job(jobs.length, { type: "rule", rrule: RULES[i % RULES.length]!, start: "2026-12-01T09:00" }));
for (let i = 0; i < 5; i++) jobs.push(job(jobs.length, { type: "cron", cron: LISTED[i]! }));

const build = () => calendarFeed({ chatId: "123456789", zone: ZONE, now: NOW, jobs, skippedOf: () => new Set(), host: "cuckoo.example", name: "Cuckoo" });
let t0 = performance.now();
const text = build();
const first = performance.now() - t0;
const samples: number[] = [];
for (let r = 0; r < 30; r++) {
  t0 = performance.now();
  build();
  samples.push(performance.now() - t0);
}
samples.sort((a, b) => a - b);
const bytes = new TextEncoder().encode(text).length;
console.log(
  `feed of 50 jobs (${ZONE}): first build ${first.toFixed(1)} ms (finds the zone's transitions), then median ${samples[15]!.toFixed(1)} ms, p90 ${samples[27]!.toFixed(1)} ms`,
);
console.log(`  ${bytes.toLocaleString("en")} bytes, ${text.split("BEGIN:VEVENT").length - 1} events, ${text.split("\r\n").length - 1} lines`);
