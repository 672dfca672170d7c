/**
 * @module The chat's jobs (docs/api.md, docs/time.md, docs/telegram.md): create, edit, cancel, pause, resume, skip, run
 * now, list, history. Every input is checked by the pure core (`jobs/validate`) against the chat's zone and `now`;
 * a skip is a decision of the firing core written by `Firing.apply`. Expected failures are results with one
 * sentence, never throws. The chat's zone and quiet hours are its settings (`settings.ts`).
 */
import { type Config, isGroupId } from "../config";
import { newJobId, shown } from "../contracts/ids";
import { hookHash, newHookToken } from "../hooks/token";
import { decideEditNext, decideResume, decideSkip } from "../jobs/by-hand";
import { nextRecurringRun } from "../jobs/fire";
import { missedBetween } from "../jobs/missed";
import { type CopyRef, type JobRecord, newJobRecord, specDefaults } from "../jobs/records";
import { createdByText, memoryRefMissingText, noJobText, stillRunningText, tooManyJobsText } from "../jobs/texts";
import { validateCreate, validateEdit } from "../jobs/validate";
import { err, ok, type Result, type Said } from "../result";
import {
  CREATED_BY,
  type CreatedBy,
  type CreateJobInput,
  createJobInput,
  type EditJobInput,
  editJobInput,
  type Job,
  type JobFilter,
  type JobList,
  jobFilter,
  type Run,
} from "../schemas/jobs";
import { parseArgs } from "../sentence";
import type { Timing } from "../time";
import type { Firing } from "./firing";
import type { ChatInfo } from "./info";
import type { JobStore } from "./store/jobs";
import type { MemoryStore } from "./store/memory";
import type { RunStore } from "./store/runs";
import type { TurnRights } from "./turns";
import { toJob, toRun } from "./views";
import type { Watchers } from "./watchers";

export type JobDeps = {
  jobs: JobStore;
  memory: MemoryStore;
  runs: RunStore;
  info: ChatInfo;
  firing: Firing;
  watchers: Watchers;
  turns: TurnRights;
  config: () => Config;
  now: () => number;
  transaction: <T>(work: () => T) => T;
};

/**
 * How a new job comes to be: who made it; for an import, whether it is enabled, where it came from, and that
 * an `at` may lie in the past (it fires at once, late).
 */
export type NewJob = {
  createdBy: CreatedBy;
  pastAllowed?: boolean;
  enabled?: boolean;
  importedFrom?: string;
  /** The forum topic it is made in (its messages go there); null or left out: the main thread. */
  threadId?: number | null;
  /** The schedule the words' reader made, in place of the input's schedule fields. */
  timing?: Timing;
  /** A message of the chat a one-off brings back when it fires (a command's: docs/telegram.md#remind-me-about-this). */
  copyOf?: CopyRef | null;
  claim?: (job: JobRecord) => string | null;
};

/**
 * How a create over RPC or HTTP is made: `followUpOf`, the run gate token of the job's or watcher's turn whose one
 * follow-up it is; `threadId`, the forum topic it is made in (its messages go there).
 */
export type CreateOptions = { followUpOf?: string; threadId?: number | null };

/** A new job, or why not: the chat is full, the input breaks a rule, or `claim` refused it. */
export type Added = { ok: true; job: JobRecord; token: string | null } | { ok: false; why: "full" | "invalid" | "refused"; message: string; said?: Said };

export class JobOps {
  constructor(private readonly d: JobDeps) {}

  private view(job: JobRecord, chatId: string): Job {
    return toJob(job, chatId, this.d.config().defaultScriptTimeout);
  }

  /** The object bound to `chatId` and its job `id`, or why not (another chat's object, no such job). */
  private locate(chatId: string, id: string): Result<JobRecord> {
    const bound = this.d.info.bind(chatId);
    return bound.ok ? this.find(id) : bound;
  }

  private find(id: string): Result<JobRecord> {
    const job = typeof id === "string" ? this.d.jobs.get(id) : null;
    return job ? ok(job) : err("not_found", noJobText(shown(String(id))));
  }

  list(chatId: string, filter: JobFilter = {}): Result<JobList> {
    const bound = this.d.info.bind(chatId);
    if (!bound.ok) return bound;
    const parsedFilter = parseArgs(jobFilter(), filter);
    if (!parsedFilter.ok) return parsedFilter;
    const { category, q } = parsedFilter.value;
    const needle = q?.trim().toLowerCase() ?? "";
    const jobs = this.d.jobs
      .rows()
      .flatMap((row) => (row.ok ? [this.view(row.job, chatId)] : []))
      .filter((job) => !category || job.category === category)
      .filter((job) => !needle || [job.id, job.name, job.text ?? "", job.command ?? ""].some((s) => s.toLowerCase().includes(needle)));
    return ok({ chatId, timeZone: this.d.info.zone().zone, language: this.d.info.language(), now: new Date(this.d.now()).toISOString(), jobs });
  }

  get(chatId: string, id: string): Result<Job> {
    const job = this.locate(chatId, id);
    return job.ok ? ok(this.view(job.value, chatId)) : job;
  }

  /**
   * Creates a job for `createdBy`. `followUpOf`: the run gate token of the job's or watcher's turn that makes
   * it over HTTP or MCP (`X-Cuckoo-Turn`), whose one follow-up it is; `threadId`: the forum topic it is made in.
   */
  async create(
    chatId: string,
    input: CreateJobInput,
    createdBy: CreatedBy,
    options: CreateOptions & { timing?: Timing; copyOf?: CopyRef | null } = {},
  ): Promise<Result<Job>> {
    const made = await this.createWithHook(chatId, input, createdBy, options);
    return made.ok ? ok(made.value.job) : made;
  }

  /**
   * `create`, and the token of the hook a job only its hook runs is made with (docs/hooks.md; null for any other job):
   * shown once, as its URL and address, by the caller.
   */
  async createWithHook(
    chatId: string,
    input: CreateJobInput,
    createdBy: CreatedBy,
    options: CreateOptions & { timing?: Timing; copyOf?: CopyRef | null } = {},
  ): Promise<Result<{ job: Job; token: string | null }>> {
    const bound = this.d.info.bind(chatId);
    if (!bound.ok) return bound;
    const parsed = parseArgs(createJobInput(), input);
    if (!parsed.ok) return parsed;
    const refused = this.refusedChat(chatId);
    if (refused !== null) return err("bad_request", refused);
    // Over RPC `createdBy` is whatever the caller sent too: a value the row's CHECK refuses is one sentence, not a thrown SQL error.
    if (!(CREATED_BY as readonly unknown[]).includes(createdBy)) return err("bad_request", createdByText(createdBy));
    // Over RPC the options are whatever the caller sent: only a string token and a whole topic id are taken.
    const followUpOf = typeof options?.followUpOf === "string" ? options.followUpOf : undefined;
    const threadId = typeof options?.threadId === "number" && Number.isInteger(options.threadId) ? options.threadId : null;
    // The words' reader hands its schedule over only inside the object (a command); an RPC's options never carry one.
    const timing = options?.timing;
    const copyOf = options?.copyOf ?? null;
    const added = await this.add(
      parsed.value,
      followUpOf === undefined ? { createdBy, threadId, timing, copyOf } : { createdBy, threadId, timing, copyOf, claim: () => this.followUp(followUpOf) },
    );
    return added.ok ? ok({ job: this.view(added.job, chatId), token: added.token }) : err("bad_request", added.message, added.said);
  }

  /** A follow-up of the turn of `token`: recorded, or the sentence why that turn may not make it. */
  private followUp(token: string): string | null {
    const refused = this.d.turns.followUpRefusal(token);
    if (refused === null) this.d.turns.spendFollowUp(token);
    return refused;
  }

  /** The sentence when `chatId` may not use the bot (docs/api.md#access), or null. */
  refusedChat(chatId: string): string | null {
    if (this.d.info.allowed(chatId)) return null;
    return isGroupId(chatId)
      ? `Chat ${chatId} is not allowed to use this bot; add the group's id to ALLOWED_CHAT_IDS first.`
      : `Chat ${chatId} is not allowed to use this bot; add its user id to ALLOWED_USER_IDS first.`;
  }

  /**
   * The one way a job comes to be (a create, an import), for a chat the caller bound and checked: the chat's job
   * limit, the rules in the chat's zone at now, the memory records it names, and the insert. `claim` runs in
   * the insert's transaction, after the checks: it writes what goes with the job, or refuses it with a
   * sentence (an import of a source id that landed meanwhile, a turn that made its follow-up).
   */
  async add(input: CreateJobInput, how: NewJob): Promise<Added> {
    const limit = this.d.config().maxJobsPerChat;
    if (this.d.jobs.count() >= limit) return { ok: false, why: "full", message: tooManyJobsText(limit).sentence, said: tooManyJobsText(limit).said };
    const zone = this.d.info.zone().zone;
    const now = this.d.now();
    const valid = await validateCreate(input, { zone, now, pastAllowed: how.pastAllowed === true, models: this.d.config().agent.models }, how.timing);
    if (!valid.ok) return { ok: false, why: "invalid", message: valid.error };
    // A job only its hook runs is made with its hook: the token is shown once, its hash kept.
    const token = valid.value.spec.schedule.type === "hook" ? newHookToken() : null;
    const hook = token === null ? null : await hookHash(token);
    return this.d.transaction((): Added => {
      // Between the await above and here another create may have landed: count again, and pick a fresh id.
      if (this.d.jobs.count() >= limit) return { ok: false, why: "full", message: tooManyJobsText(limit).sentence, said: tooManyJobsText(limit).said };
      const gone = this.missingRef(valid.value.spec.memoryRefs);
      if (gone !== null) return { ok: false, why: "invalid", message: gone };
      const made = newJobRecord(valid.value.spec, {
        id: this.freshId(),
        createdAt: now,
        createdBy: how.createdBy,
        nextRunAt: valid.value.nextRunAt,
        ...(how.enabled === undefined ? {} : { enabled: how.enabled }),
        ...(how.importedFrom === undefined ? {} : { importedFrom: how.importedFrom }),
        threadId: how.threadId ?? null,
        hook,
      });
      // Only a one-off brings a message back.
      const job = how.copyOf && made.schedule.type === "at" ? { ...made, copyOf: how.copyOf } : made;
      const refused = how.claim?.(job) ?? null;
      if (refused !== null) return { ok: false, why: "refused", message: refused };
      this.d.jobs.insert(job);
      return { ok: true, job, token };
    });
  }

  /** A job id no job of this chat has. */
  private freshId(): string {
    let id = newJobId();
    while (this.d.jobs.exists(id)) id = newJobId();
    return id;
  }

  /** The sentence for the first of `refs` that is not a memory record of this chat, or null (docs/api.md#tools-for-agents). */
  private missingRef(refs: readonly string[]): string | null {
    if (refs.length === 0) return null;
    const found = this.d.memory.some(refs);
    const missing = refs.find((id) => !found.has(id));
    return missing === undefined ? null : memoryRefMissingText(missing);
  }

  /** Edits a job; it applies from the next occurrence and never touches a run in flight. */
  async edit(chatId: string, id: string, input: EditJobInput, options: { timing?: Timing } = {}): Promise<Result<Job>> {
    const bound = this.d.info.bind(chatId);
    if (!bound.ok) return bound;
    const parsed = parseArgs(editJobInput(), input);
    if (!parsed.ok) return parsed;
    const found = this.find(id);
    if (!found.ok) return found;
    const ctx = { zone: this.d.info.zone().zone, now: this.d.now(), models: this.d.config().agent.models };
    const edited = await validateEdit(found.value, parsed.value, ctx, options.timing);
    if (!edited.ok) return err("bad_request", edited.error);
    const latest = this.find(id);
    if (!latest.ok) return latest;
    // Only the references the edit names are checked: a job keeps a reference that went, until it is changed.
    if (parsed.value.memoryRefs !== undefined) {
      const gone = this.missingRef(edited.value.spec.memoryRefs);
      if (gone !== null) return err("bad_request", gone);
    }
    const job: JobRecord = { ...latest.value, ...edited.value.spec };
    if ((edited.value.scheduleChanged || edited.value.reopened) && job.enabled) {
      const now = this.d.now();
      const next = decideEditNext(job, edited.value.nextRunAt, this.d.info.zone().zone, now, this.d.firing.skipped(id, now));
      if (!next.ok) return err("bad_request", next.error.sentence, next.error.said);
      job.nextRunAt = next.value;
    }
    this.d.jobs.save(job);
    return ok(this.view(job, chatId));
  }

  /**
   * Removes a job and its history. A running watcher is killed through the runner and its outcome discarded
   * (its run is gone); an agent run in progress is not aborted (its settle finds no job).
   */
  async cancel(chatId: string, id: string): Promise<Result<Job>> {
    const found = this.locate(chatId, id);
    if (!found.ok) {
      // A row that no longer parses can still be removed (it would otherwise count against the limit forever).
      const name = found.error.code === "not_found" ? this.d.jobs.rawName(id) : null;
      if (name === null) return found;
      this.d.transaction(() => {
        this.d.jobs.delete(id);
        this.d.runs.deleteOf(id);
      });
      return ok(this.view(unreadableJob(id, name), chatId));
    }
    const running = this.d.watchers.running().filter((run) => run.jobId === id);
    this.d.transaction(() => {
      this.d.jobs.delete(id);
      this.d.runs.deleteOf(id);
    });
    await this.d.watchers.kill(running);
    return ok(this.view(found.value, chatId));
  }

  pause(chatId: string, id: string): Result<Job> {
    const found = this.locate(chatId, id);
    if (!found.ok) return found;
    const job: JobRecord = { ...found.value, enabled: false, nextRunAt: null };
    this.d.jobs.save(job);
    return ok(this.view(job, chatId));
  }

  /**
   * Resumes (`decideResume` of the firing core): a recurring job from now, an occurrence skipped by hand still
   * skipped; a one-off at its time, at once (late) when that has passed. A recurring job with no run left before its
   * end is not resumed (409, with the sentence): its `until` or `runsLeft` must change first.
   */
  async resume(chatId: string, id: string): Promise<Result<Job>> {
    const found = this.locate(chatId, id);
    if (!found.ok) return found;
    const resumed = decideResume(found.value, this.d.info.zone().zone, this.d.now(), this.d.firing.skipped(id, this.d.now()));
    if (!resumed.ok) return err("conflict", resumed.error.sentence, resumed.error.said);
    this.d.jobs.save(resumed.value);
    return ok(this.view(resumed.value, chatId));
  }

  /**
   * Skip (docs/api.md#jobs): a recurring job's next occurrence passed over and recorded as `skipped`, its next run
   * moved to the one after (`decideSkip` of the firing core, written by `Firing.apply`); `skipped` is the
   * occurrence passed over.
   */
  async skip(chatId: string, id: string): Promise<Result<{ job: Job; skipped: string }>> {
    const found = this.locate(chatId, id);
    if (!found.ok) return found;
    const now = this.d.now();
    const skip = decideSkip(found.value, this.d.info.zone().zone, now, this.d.firing.skipped(id, now));
    if (!skip.ok) return err("bad_request", skip.error.sentence, skip.error.said);
    this.d.firing.apply(skip.value, now);
    return ok({ job: this.view(skip.value.job, chatId), skipped: new Date(skip.value.run.dueAt).toISOString() });
  }

  /**
   * Run now (docs/api.md#how-a-job-fires): a manual run `<jobId>:<now>`, dispatched at once; nothing deleted or rescheduled. A
   * prompt whose memory record is gone fails that run at once, with a sentence to the chat.
   */
  async runNow(chatId: string, id: string): Promise<Result<Job>> {
    const found = this.locate(chatId, id);
    if (!found.ok) return found;
    if (found.value.runningRunId !== null) return err("conflict", stillRunningText(id).sentence, stillRunningText(id).said);
    const now = this.d.now();
    const run = this.d.firing.claimManual(found.value, chatId, now);
    if (run === null) return err("conflict", stillRunningText(id).sentence, stillRunningText(id).said);
    if (run.state === "claimed") await this.d.firing.dispatch(now);
    // A watcher may have finished (or failed to start) while it was being started: show the job as it is now.
    return ok(this.view(this.d.jobs.get(id) ?? found.value, chatId));
  }

  /**
   * Run now or Skip under a message about a job's missed runs (docs/time.md#missed-runs): one late run of the latest,
   * its late line counting them all; or each recorded skipped, a one-off deleted. The message's buttons act once.
   */
  async answerMissed(chatId: string, id: string, choice: { run: boolean; first: number; last: number }): Promise<Result<{ job: Job; count: number }>> {
    const found = this.locate(chatId, id);
    if (!found.ok) return found;
    const job = found.value;
    const schedule = job.schedule;
    const zone = this.d.info.zone().zone;
    const next = schedule.type === "at" || schedule.type === "hook" ? null : (t: number) => nextRecurringRun(schedule, zone, t);
    const { dues, total } = missedBetween(next, choice.first, choice.last);
    const now = this.d.now();
    if (!choice.run) {
      this.d.firing.skipMissed(job, dues, now);
      return ok({ job: this.view(job, chatId), count: total });
    }
    if (job.runningRunId !== null) return err("conflict", stillRunningText(id).sentence, stillRunningText(id).said);
    const run = this.d.firing.claimMissed(job, chatId, choice.last, total, now);
    if (run === null) return err("conflict", stillRunningText(id).sentence, stillRunningText(id).said);
    if (run.state === "claimed") await this.d.firing.dispatch(now);
    return ok({ job: this.view(this.d.jobs.get(id) ?? job, chatId), count: total });
  }

  runs(chatId: string, id: string): Result<Run[]> {
    const found = this.locate(chatId, id);
    if (!found.ok) return found;
    return ok(this.d.runs.of(id).map(toRun));
  }
}

/** A stand-in for a row that no longer parses, so that cancelling it can still say what went. */
function unreadableJob(id: string, name: string): JobRecord {
  const spec = { ...specDefaults(), name, kind: "prompt" as const, schedule: { type: "at" as const, at: 0 }, text: "" };
  return { ...newJobRecord(spec, { id, createdAt: 0, createdBy: "admin", nextRunAt: null, enabled: false }), quarantined: "unreadable" };
}
