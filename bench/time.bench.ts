/**
 * Benchmark: next occurrence of the time engine against cron-parser's own `next()` on the same expressions,
 * zones and start instants, and a recurrence rule's next occurrence on the same zones and instants. Printed,
 * never asserted. Bundled by bench/run.mjs and run on Node 22.
 */
import { CronExpressionParser } from "cron-parser";
import { type CronSchedule, hasNativeTemporal, nextOccurrence, nextRuleOccurrence, parseCron, parseRuleSchedule, type RuleSchedule } from "../src/time";

const EXPRESSIONS = ["*/5 * * * *", "0 8 * * 1-5", "30 2 * * *", "0 0 1 * *", "15 10 * * 6,0", "0 */2 * * *", "0 12 13 * 5"];
const ZONES = ["UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Tokyo"];
const STARTS = 200;

function starts(): number[] {
  // Spread over 2026, including the DST weeks, deterministic.
  const list: number[] = [];
  const from = Date.UTC(2026, 0, 1);
  for (let i = 0; i < STARTS; i++) list.push(from + Math.floor(((i * 7919) % STARTS) * ((365 * 86_400_000) / STARTS)) + i * 61_000);
  return list;
}

function time(rounds: number, body: () => void): number {
  body(); // warm-up: caches, formatters, JIT
  body();
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    body();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)]!;
}

const instants = starts();

// One case per expression, zone and instant; cron-parser's `next()` throws on a few (a loop limit near
// Lord Howe's 30-minute shift), and those are left out of both timings.
type Case = { zone: string; t: number; cron: CronSchedule; parser: ReturnType<typeof CronExpressionParser.parse> };
const cases: Case[] = [];
let excluded = 0;
for (const expr of EXPRESSIONS) {
  const cron = parseCron(expr);
  if (!cron.ok) throw new Error(cron.error);
  for (const zone of ZONES) {
    const parser = CronExpressionParser.parse(expr, { tz: zone });
    for (const t of instants) {
      try {
        parser.reset(new Date(t));
        parser.next();
        cases.push({ zone, t, cron: cron.value, parser });
      } catch {
        excluded++;
      }
    }
  }
}
const calls = cases.length;
let sink = 0;

const engineMs = time(15, () => {
  for (const c of cases) sink += nextOccurrence(c.cron, c.zone, c.t)?.at ?? 0;
});
const cronParserMs = time(15, () => {
  for (const c of cases) {
    c.parser.reset(new Date(c.t));
    sink += c.parser.next().getTime();
  }
});

const us = (ms: number) => (ms * 1000) / calls;
console.log(
  `next occurrence (${EXPRESSIONS.length} expressions × ${ZONES.length} zones × ${instants.length} instants = ${calls} calls, median of 15 rounds; ${excluded} left out where cron-parser threw)`,
);
console.log(`  time engine:      ${us(engineMs).toFixed(2)} µs/call`);
console.log(`  cron-parser next: ${us(cronParserMs).toFixed(2)} µs/call`);
console.log(`  ratio engine / cron-parser: ${(engineMs / cronParserMs).toFixed(2)}× (target ≤ 1×; ≤ 0.5× with native Temporal)`);
console.log(`  native Temporal in this runtime: ${hasNativeTemporal() ? "yes" : "no"} (the cron walk uses Intl offsets either way)`);
// Recurrence rules started two years before the instants: the walk jumps to the period holding each one.
const RULES = ["FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;BYHOUR=10;BYMINUTE=0", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "FREQ=MINUTELY;INTERVAL=90"];
const ruleCases: { zone: string; t: number; rule: RuleSchedule }[] = [];
for (const rrule of RULES) {
  for (const zone of ZONES) {
    const parsed = parseRuleSchedule({ rrule, start: "2024-01-02T09:00" }, zone);
    if (!parsed.ok) throw new Error(parsed.error);
    for (const t of instants) ruleCases.push({ zone, t, rule: parsed.value });
  }
}
const ruleMs = time(15, () => {
  for (const c of ruleCases) sink += nextRuleOccurrence(c.rule, c.zone, c.t)?.at ?? 0;
});
console.log(
  `rule next occurrence (${RULES.length} rules × ${ZONES.length} zones × ${instants.length} instants = ${ruleCases.length} calls, median of 15 rounds)`,
);
console.log(`  time engine:      ${((ruleMs * 1000) / ruleCases.length).toFixed(2)} µs/call (${RULES.join(", ")})`);
if (sink === 42) console.log("");
