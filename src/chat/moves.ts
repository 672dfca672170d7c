/**
 * @module A basic group becoming a supergroup (docs/telegram.md#groups-and-topics; issue 26). Telegram gives the
 * supergroup a new id (`-100…`), announced by the pair of service messages (`migrate_to_chat_id` in the old
 * group, `migrate_from_chat_id` in the new one) and by a send to the old id answered "group chat was upgraded to
 * a supergroup chat". The chat's jobs, settings, memory, transcript, outbox and runs move to the new id's object,
 * in steps a crash cannot leave half done:
 *
 * 1. the old object notes `moving_to` (from then on every call and alarm finishes the move before anything else,
 *    and nothing else runs while it is under way: the object's input is blocked);
 * 2. it sends its state to the new object in chunks, which the new one stages and, at the last, takes in one
 *    transaction that also records `moved_from` (a chunk arriving after that is answered "taken already");
 * 3. the old object forgets everything but its chat id and the forwarding note `moved_to`, in one transaction;
 *    a call naming the old id is then handed to the new object.
 *
 * A crash between 2 and 3 leaves the note `moving_to` and the old state: the retry sends it again, the new object
 * answers that it has it, and step 3 runs. Nothing is taken twice and nothing is forgotten before it was taken.
 * The new id is served as the old one was (`ChatInfo.allowed`; the webhook reads the D1 row the new object writes).
 *
 * A move is Telegram's or nothing (issue 32): anyone holding the webhook's secret can post a service message, and
 * a move hands one chat's jobs and memory to another. So only a served basic group moves, only to a supergroup,
 * and only once Telegram itself says so: a send to the old id answered "upgraded" (the outbox's proof), or, for
 * an update that announces it, `getChatMemberCount` on the old id answered the same. That method is asked because
 * Telegram gives the answer only to calls that need the member list or write access (`getChat` answers a migrated
 * group with 200), and it changes nothing in the chat.
 */
import type { Config } from "../config";
import { CHAT_ID, isBasicGroupId, isSupergroupId } from "../contracts/ids";
import { err, ok, type Problem, type Result } from "../result";
import { parseArgs } from "../sentence";
import { callBotApi, TelegramError } from "../telegram/api";
import { type ChatInfo, UNBOUND } from "./info";
import { type MoveChunk, type MoveStore, moveChunk } from "./store/moves";
import type { SettingsStore } from "./store/settings";

/** The start of the sentence of an `Unconfirmed` move. */
export const MOVE_UNCONFIRMED = "Telegram could not be asked whether the group moved:";

/**
 * Telegram could not be asked whether a move happened (it did not answer, or answered a 5xx or a 429): returned,
 * not thrown, so that the webhook answers the update with an error (Telegram sends it again) and no rejection
 * crosses the RPC unhandled.
 */
export type Unconfirmed = { ok: false; error: Problem; unconfirmed: true };

/** After a move that did not finish, the alarm tries again this soon. */
export const MOVE_RETRY_MS = 60_000;
/** Telegram is asked while the webhook's caller waits: a shorter limit than a send's. */
const CONFIRM_TIMEOUT_MS = 5_000;

/**
 * How a move is known: `announced` by an update (a service message anyone with the secret could forge, so Telegram
 * is asked), or `answered`: a send to the old id was refused with the new id, which is Telegram's word already.
 */
export type MoveProof = "announced" | "answered";

/** The new chat's object, as the old one reaches it. */
export type MovePeer = { acceptMove(to: string, from: string, chunk: MoveChunk): Promise<Result<{ done: boolean }>> };

export type MoveDeps = {
  store: MoveStore;
  settings: SettingsStore;
  info: ChatInfo;
  peer: (chatId: string) => MovePeer;
  config: () => Config;
  /** Runs `work` with the object's input blocked: no other call or alarm interleaves with the move. */
  exclusive: <T>(work: () => Promise<T>) => Promise<T>;
  transaction: <T>(work: () => T) => T;
  /** What the object's parts remember of its tables, forgotten once the tables changed under them. */
  forget: () => void;
  now: () => number;
};

export class ChatMoves {
  constructor(private readonly d: MoveDeps) {}

  /** The supergroup this chat moved to: calls naming it go there. */
  movedTo(): string | null {
    return this.d.settings.get("moved_to");
  }

  /** The basic group this chat was, whose state it took (and whose place in ALLOWED_CHAT_IDS it keeps). */
  movedFrom(): string | null {
    return this.d.settings.get("moved_from");
  }

  /** A move that has not finished (a crash, or the new object did not answer). */
  moving(): string | null {
    return this.d.settings.get("moving_to");
  }

  /** When the alarm should try an unfinished move again. */
  retryAt(): number | null {
    if (this.moving() === null) return null;
    const at = Number(this.d.settings.get("move_retry_at"));
    return Number.isFinite(at) && at > 0 ? at : this.d.now();
  }

  /**
   * Where a call naming `chatId` (null: a call that names none, such as a gate token's) goes: the supergroup once
   * this chat moved there, else null (it is answered here). An unfinished move is finished first; one that still
   * cannot finish throws, so that the caller tries again (Telegram, the queue and the runner do).
   */
  async forwarding(chatId: string | null): Promise<string | null> {
    const moving = this.moving();
    if (moving !== null) {
      const moved = await this.run(moving);
      if (!moved.ok) throw new Error(moved.error.message);
    }
    const to = this.movedTo();
    if (to === null) return null;
    return chatId === null || chatId === this.d.info.chatId() ? to : null;
  }

  /**
   * The alarm's part: an unfinished move, tried again when its time came. Without a retry time it is due at once
   * (not at `retryAt()`'s now, which a millisecond after the alarm's `now` would put off).
   */
  async tick(now: number): Promise<boolean> {
    const moving = this.moving();
    if (moving === null) return false;
    const at = Number(this.d.settings.get("move_retry_at"));
    if (Number.isFinite(at) && at > now) return false;
    return !(await this.run(moving)).ok;
  }

  /**
   * Moves this chat (`chatId`, a served basic group) to supergroup `to` once Telegram confirmed it (`proof`); done
   * already is done. Every refusal changes nothing and says why in a sentence.
   */
  async moveTo(chatId: string, to: string, proof: MoveProof = "announced"): Promise<Result<{ movedTo: string }> | Unconfirmed> {
    if (typeof to !== "string" || !CHAT_ID.test(to) || !isSupergroupId(to)) {
      return err("bad_request", `"${String(to).slice(0, 40)}" is not a supergroup's chat id such as -1001234567890; a group moves only to a supergroup.`);
    }
    // Checked before the object is bound to anything, and Telegram asked before too: a forged move leaves no state.
    if (typeof chatId !== "string" || !CHAT_ID.test(chatId) || !isBasicGroupId(chatId)) {
      return err("bad_request", `Chat ${String(chatId).slice(0, 40)} is not a basic group; only a basic group becomes a supergroup.`);
    }
    const boundTo = this.d.info.chatId();
    if (boundTo !== null && boundTo !== chatId) {
      const bound = this.d.info.bind(chatId);
      if (!bound.ok) return bound;
    }
    if (!this.d.info.allowed(chatId)) return err("bad_request", `Chat ${chatId} is not served, so nothing of it moves.`);
    const done = this.movedTo();
    if (done !== null) return done === to ? ok({ movedTo: to }) : err("conflict", `Chat ${chatId} moved to ${done} already.`);
    const moving = this.moving();
    if (moving !== null && moving !== to) return err("conflict", `Chat ${chatId} is moving to ${moving} already.`);
    // A move under way was confirmed before its note was written.
    if (proof === "announced" && moving === null) {
      const confirmed = await this.confirmed(chatId, to);
      if (!confirmed.ok) return confirmed;
    }
    const bound = this.d.info.bind(chatId);
    if (!bound.ok) return bound;
    return this.run(to);
  }

  /**
   * Whether Telegram says basic group `from` became supergroup `to`: `getChatMemberCount(from)` answered "upgraded"
   * with `to`. A Telegram that could not be asked (no answer, a 5xx, a 429) is `Unconfirmed`, so that the update
   * announcing the move is answered with an error and Telegram sends it again: refused, it would be gone.
   */
  private async confirmed(from: string, to: string): Promise<Result<true> | Unconfirmed> {
    const refused = (why: string) => err<true>("conflict", `Telegram did not confirm that chat ${from} became supergroup ${to}: ${why}`);
    const t = this.d.config().telegram;
    if (t.mode === "off" || t.botToken === null) return refused("there is no bot to ask.");
    try {
      const count = await callBotApi({ base: t.apiBase, token: t.botToken }, "getChatMemberCount", { chat_id: from }, CONFIRM_TIMEOUT_MS);
      return refused(`getChatMemberCount answered ${JSON.stringify(count)}, so it is still a group.`);
    } catch (error) {
      const upgraded = error instanceof TelegramError && error.code === 400 && /upgraded to a supergroup/i.test(error.description);
      if (upgraded && error.migrateTo === to) return ok(true);
      if (upgraded) return refused(`Telegram says it became ${error.migrateTo ?? "a supergroup it does not name"}.`);
      if (error instanceof TelegramError && error.code < 500 && error.code !== 429) return refused(`${error.message}.`);
      const why = `${MOVE_UNCONFIRMED} ${error instanceof Error ? error.message : String(error)}`;
      return { ok: false, error: { code: "conflict", message: why }, unconfirmed: true };
    }
  }

  /** Step 1, the note: from now on every call and alarm finishes the move to `to` before anything else. */
  begin(to: string): void {
    this.d.settings.set("moving_to", to);
  }

  /** Steps 1–3, with the object's input blocked; a step that fails leaves `moving_to` for the retry. */
  private run(to: string): Promise<Result<{ movedTo: string }>> {
    const from = this.d.info.chatId();
    if (from === null) return Promise.resolve(err("bad_request", UNBOUND));
    return this.d.exclusive(async () => {
      // Another call may have finished it while this one waited for the object.
      if (this.movedTo() === to) return ok({ movedTo: to });
      this.begin(to);
      try {
        const peer = this.d.peer(to);
        for (const chunk of this.d.store.export()) {
          const taken = await peer.acceptMove(to, from, chunk);
          if (!taken.ok) throw new Error(taken.error.message);
          if (taken.value.done) break;
        }
      } catch (error) {
        const retryAt = this.d.now() + MOVE_RETRY_MS;
        this.d.settings.set("move_retry_at", String(retryAt));
        console.error(
          `chat ${from}: the move to supergroup ${to} did not finish; trying again from ${new Date(retryAt).toISOString()}`,
          error instanceof Error ? error.message : error,
        );
        return err("conflict", `Chat ${from} is moving to supergroup ${to}; the move did not finish and is tried again in a minute.`);
      }
      this.d.transaction(() => {
        this.d.store.forgetAll();
        this.d.settings.set("moving_to", null);
        this.d.settings.set("move_retry_at", null);
        this.d.settings.set("moved_to", to);
      });
      this.d.forget();
      console.log(
        `chat ${from} became supergroup ${to}: its jobs, settings, memory and transcript moved there, ` +
          `and ${to} is served as ${from} was; add ${to} to ALLOWED_CHAT_IDS`,
      );
      return ok({ movedTo: to });
    });
  }

  /**
   * The new object's side: a chunk of `from`'s state, staged; with the last one all are taken in one transaction
   * and `moved_from` recorded. `done`: the move is in (now or before); a chunk after that changes nothing.
   */
  accept(to: string, from: unknown, input: unknown): Result<{ done: boolean }> {
    if (typeof from !== "string" || !CHAT_ID.test(from) || !isBasicGroupId(from)) return err("bad_request", `"from" must be the basic group's chat id.`);
    const parsed = parseArgs(moveChunk(), input);
    if (!parsed.ok) return parsed;
    const bound = this.d.info.bind(to);
    if (!bound.ok) return bound;
    if (!isSupergroupId(to)) return err("bad_request", `Chat ${to} is not a supergroup; a group moves only to a supergroup.`);
    const already = this.movedFrom();
    if (already === from) return ok({ done: true });
    if (already !== null) return err("conflict", `Chat ${to} took the state of ${already} already.`);
    const done = this.d.transaction(() => {
      this.d.store.stage(parsed.value);
      const staged = this.d.store.staged();
      if (staged === null) return false;
      this.d.store.apply(staged, from, to);
      this.d.store.clearStaged();
      this.d.settings.set("moved_from", from);
      return true;
    });
    if (done) this.d.forget();
    return ok({ done });
  }
}
