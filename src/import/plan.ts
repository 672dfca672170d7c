/**
 * @module What an import reads from a source (issue 16), pure and shared by the three formats: the plan (each
 * chat's entries, the zone the source kept for it, and the problem sentences), and the small tolerant
 * readers of loosely typed JSON the formats use.
 */
import { shown } from "../contracts/ids";
import type { ImportEntry } from "../schemas/import";

/** One chat's part of an import. */
export type ChatPlan = { zone: string | null; entries: ImportEntry[] };

/** What a source holds for Cuckoo: per chat, its entries; and one sentence per entry that was left out. */
export type ImportPlan = { source: string; chats: Map<string, ChatPlan>; problems: string[] };

export function emptyPlan(source: string): ImportPlan {
  return { source, chats: new Map(), problems: [] };
}

/** Adds an entry to its chat's part. */
export function add(plan: ImportPlan, chatId: string, entry: ImportEntry, zone: string | null = null): void {
  const chat = plan.chats.get(chatId) ?? { zone, entries: [] };
  chat.entries.push(entry);
  plan.chats.set(chatId, chat);
}

/** A JSON object (not an array, not null), or null. */
export function objectOf(value: unknown): Record<string, unknown> | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** A string that is not blank, or null. */
export function textOf(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

/** An id as a source writes it: a non-blank string, or a whole number. */
export function idOf(value: unknown): string | null {
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  return textOf(value)?.trim() ?? null;
}

/** A name for a job from a text: its first line, whitespace collapsed, cut to `max` characters with "…". */
export function nameFrom(text: string, max: number): string {
  const line = (text.split(/\r?\n/).find((l) => l.trim() !== "") ?? text).replace(/\s+/g, " ").trim();
  const chars = [...line];
  return chars.length <= max ? line : `${chars.slice(0, max - 1).join("")}…`;
}

/** `"k7m2q"` for a sentence: printable and cut to 40 characters, as `shown`. */
export function quoted(value: string): string {
  return JSON.stringify(shown(value));
}
