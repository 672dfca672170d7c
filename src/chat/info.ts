/**
 * @module What every part of a chat's object asks about the chat itself (docs/api.md, docs/time.md, docs/telegram.md): the chat id it
 * is bound to, its zone, its language, its quiet hours, whether it may use the bot (also as the group it was before
 * it became a supergroup), and whether messages can reach it.
 */
import { type Config, isAllowedChat } from "../config";
import { badChatIdText, CHAT_ID } from "../contracts/ids";
import { err, ok, type Result } from "../result";
import { inQuietHours, parseZone, QUIET_TIME, type QuietHours } from "../time";
import { type Lang, langOf } from "../words";
import type { SettingsStore } from "./store/settings";

/** What a call that needs the chat's id is told before any caller named it (bound it). */
export const UNBOUND = "This chat's object is bound to no chat yet.";

export class ChatInfo {
  constructor(
    private readonly settings: SettingsStore,
    private readonly config: () => Config,
  ) {}

  /** The chat id this object belongs to, once a caller named it (the alarm has no caller to tell it). */
  chatId(): string | null {
    return this.settings.get("chat_id");
  }

  /** Binds the object to `chatId` on first use; refuses another chat's id. */
  bind(chatId: string): Result<string> {
    if (typeof chatId !== "string" || !CHAT_ID.test(chatId)) {
      return err("bad_request", badChatIdText(String(chatId)));
    }
    const bound = this.chatId();
    if (bound === null) this.settings.set("chat_id", chatId);
    else if (bound !== chatId) return err("bad_request", `This scheduler belongs to chat ${bound}, not ${chatId}.`);
    return ok(chatId);
  }

  /** The chat's zone: its own, else DEFAULT_TIMEZONE. */
  zone(): { zone: string; isDefault: boolean } {
    const own = this.settings.get("time_zone");
    if (own !== null && parseZone(own).ok) return { zone: own, isDefault: false };
    return { zone: this.config().defaultTimeZone, isDefault: true };
  }

  /**
   * The chat's language (docs/telegram.md#language): the one `/language` set; else the `language_code` of the message
   * answered (`tag`) when it is one of the eight (`pt-br` is pt); else the last such a message came in, so that a
   * job's message, which answers no one, is in it too; else English.
   */
  language(tag?: string): Lang {
    return this.chosenLanguage() ?? langOf(tag) ?? langOf(this.settings.get("seen_language") ?? undefined) ?? "en";
  }

  /** The language `/language` set, or null: the chat follows its messages' languages. */
  chosenLanguage(): Lang | null {
    return langOf(this.settings.get("language") ?? undefined);
  }

  /** Sets the chat's language, or with null lets it follow its messages' languages again. */
  setLanguage(lang: Lang | null): void {
    this.settings.set("language", lang);
  }

  /** A message came in with Telegram's `language_code` `tag`: one of the eight is kept as the last seen (written when it changes). */
  noteLanguage(tag: string | undefined): void {
    const lang = langOf(tag);
    if (lang !== null && lang !== this.settings.get("seen_language")) this.settings.set("seen_language", lang);
  }

  /** The model the chat's turns run on, as `/model` set it (docs/agent.md#models), or null: LLM_MODEL. */
  model(): string | null {
    return this.settings.get("model");
  }

  setModel(model: string | null): void {
    this.settings.set("model", model);
  }

  /** The chat's quiet hours (docs/telegram.md), or null when it has none. */
  quiet(): QuietHours | null {
    const [from, to] = (this.settings.get("quiet") ?? "").split("-");
    return from !== undefined && to !== undefined && QUIET_TIME.test(from) && QUIET_TIME.test(to) ? { from, to } : null;
  }

  /** Sets the chat's quiet hours (checked by the caller), or with null clears them. */
  setQuiet(quiet: QuietHours | null): void {
    this.settings.set("quiet", quiet === null ? null : `${quiet.from}-${quiet.to}`);
  }

  /** Whether a message sent at `now` goes out without a notification sound: inside the chat's quiet hours. */
  quietAt(now: number): boolean {
    const quiet = this.quiet();
    return quiet !== null && inQuietHours(quiet, this.zone().zone, now);
  }

  /** Changes whenever a setting is written (the D1 directory shows the zone and the blocked flag). */
  settingsChanges(): number {
    return this.settings.changes();
  }

  /** Telegram said the chat cannot be reached (403, "chat not found"); cleared when the user writes again. */
  blocked(): boolean {
    return this.settings.get("blocked") !== null;
  }

  setBlocked(blocked: boolean): void {
    this.settings.set("blocked", blocked ? "1" : null);
  }

  /**
   * Whether `chatId` may use the bot (the one allow-list check, docs/api.md#access): listed, or the supergroup a listed
   * group became (served as that group was until the operator lists the new id).
   */
  allowed(chatId: string): boolean {
    if (isAllowedChat(this.config(), chatId)) return true;
    const from = this.settings.get("moved_from");
    return from !== null && chatId === this.chatId() && isAllowedChat(this.config(), from);
  }

  /** The basic group this chat was before it became a supergroup, or null. */
  movedFrom(): string | null {
    return this.settings.get("moved_from");
  }

  /** The SHA-256 of the chat's calendar feed token (docs/calendar.md), or null when it has no feed. */
  calendar(): string | null {
    return this.settings.get("calendar");
  }

  /** Whether a due job can reach its chat now: allowed and not blocked (docs/api.md#how-a-job-fires "Undeliverable"). */
  deliverable(chatId: string): boolean {
    if (this.config().telegram.mode === "off") return true;
    return !this.blocked() && this.allowed(chatId);
  }

  /** Whether outbox rows can go anywhere: a bot with a usable token, a bound chat, and the chat not blocked. */
  canSend(): boolean {
    const t = this.config().telegram;
    return t.mode !== "off" && t.botToken !== null && this.chatId() !== null && !this.blocked();
  }
}
