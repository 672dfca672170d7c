/**
 * @module Memory records in jobs and texts (docs/api.md; issue 16), pure: the section of a prompt that
 * holds the current content of the records a job refers to, each marked with its id, title and revision, cut
 * to a budget with every cut marked (ids and titles always kept); what a run says when a record it refers to
 * is gone (it fails; nothing falls back to old content); and the sentences of the memory records' rules.
 */
import { listed } from "./texts";

/** A memory record as a fire reads it. */
export type MemoryContent = { id: string; title: string; body: string; revision: number };

/**
 * The most characters of record bodies one prompt carries: five full records (5 × 16 KB) would crowd out
 * the conversation a model reads, and a queue message holds at most 128 KB.
 */
export const MEMORY_PROMPT_CHARS = 24_000;

/** The line that introduces the records in a prompt. */
export const MEMORY_INTRO =
  "The memory records this job refers to, as they are now (to record what you did for the next run, use memory_update with the revision shown):";

/**
 * How many characters of each body fit in `budget`, shared fairly: a short body takes what it needs and
 * leaves the rest to the longer ones (the shortest first, each at most an equal share of what is left).
 */
export function shares(lengths: readonly number[], budget: number): number[] {
  const order = lengths.map((n, i) => [n, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(lengths.length).fill(0);
  let left = Math.max(0, budget);
  order.forEach(([n, i], k) => {
    const share = Math.floor(left / (order.length - k));
    out[i] = Math.min(n, share);
    left -= out[i]!;
  });
  return out;
}

/** `body` cut to `max` characters (never inside a surrogate pair), with the cut marked and the way to the rest. */
function cut(record: MemoryContent, max: number): string {
  if (record.body.length <= max) return record.body;
  let end = max;
  if (end > 0 && /[\uD800-\uDBFF]/.test(record.body[end - 1]!)) end--;
  const rest = record.body.length - end;
  return `${record.body.slice(0, end)}\n[… ${rest} more characters cut here; memory_get ${record.id} reads the whole record]`;
}

/**
 * The prompt's memory section: the intro, then each record between its marks, in the order the job lists
 * them; empty when the job refers to none. `budget` is the characters of bodies it may hold in all.
 */
export function memorySection(records: readonly MemoryContent[], budget: number = MEMORY_PROMPT_CHARS): string {
  if (records.length === 0) return "";
  const fit = shares(
    records.map((r) => r.body.length),
    budget,
  );
  const blocks = records.map((r, i) => {
    const head = `--- Memory ${r.id} ${JSON.stringify(r.title)} (revision ${r.revision}) ---`;
    return `${head}\n${cut(r, fit[i]!)}\n--- End of memory ${r.id} ---`;
  });
  return [MEMORY_INTRO, ...blocks].join("\n");
}

/** The records a job refers to, in its order, or the ids that are gone. */
export function resolveRefs(
  refs: readonly string[],
  found: ReadonlyMap<string, MemoryContent>,
): { ok: true; records: MemoryContent[] } | { ok: false; missing: string[] } {
  const missing = refs.filter((id) => !found.has(id));
  if (missing.length > 0) return { ok: false, missing };
  return { ok: true, records: refs.map((id) => found.get(id)!) };
}

/** `memory record m4x7pq no longer exists` / `memory records m4x7pq and k2n8vq no longer exist`: a run's detail. */
export function goneDetail(missing: readonly string[]): string {
  if (missing.length === 1) return `memory record ${missing[0]} no longer exists`;
  return `memory records ${listed(missing)} no longer exist`;
}

/**
 * The sentence to the chat when a run fails for a record that is gone (direct, like an alert, naming the
 * job), by what the run leaves of the job (`runEnd`): a scheduled one-off is kept paused, so it says how to run
 * it again; a recurring job's last run ends it.
 */
export function memoryGoneText(job: { id: string; name: string }, missing: readonly string[], after: "pause" | "keep" | "delete"): string {
  const head = `⚠️ Job "${job.name}" (${job.id}) did not run: its ${goneDetail(missing)}.`;
  if (after === "pause") return `${head} It is paused: change its memoryRefs, then /resume ${job.id}; or /cancel ${job.id} removes it.`;
  if (after === "delete") return `${head} That was its last scheduled run, so the job has ended.`;
  return `${head} Change its memoryRefs, or /cancel ${job.id} removes it; until then each of its runs fails.`;
}

export const noMemoryText = (id: string) => `No memory record ${id} in this chat.`;
export const tooManyRecordsText = (limit: number) => `This chat already has ${limit} memory records (the limit); delete one first.`;
/** A stale revision (409 `conflict`, or `ok: false` for a model): nothing was written. */
export const staleRevisionText = (id: string, read: number, current: number) =>
  `Memory record ${id} is at revision ${current}, not ${read}: it changed since you read it. ` +
  "Read it again (memory_get) and apply your change to the current text.";
