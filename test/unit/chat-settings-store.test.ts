/**
 * The chat's settings store over a fake SQL handle that logs each statement: the first read takes every key in
 * one statement, later reads take none, a key set is read again on its own, and `forget` reads them all again
 * (the values are always the table's).
 */
import { describe, expect, it } from "vitest";
import type { Db } from "../../src/chat/store/db";
import { SettingsStore } from "../../src/chat/store/settings";

/** The settings table in memory, answering the three statements the store runs; `log` holds each one run. */
function fakeDb(rows: Record<string, string>): { db: Db; log: string[]; table: Map<string, string> } {
  const table = new Map(Object.entries(rows));
  const log: string[] = [];
  const exec = (query: string, ...bindings: unknown[]) => {
    log.push(query);
    const [key, value] = bindings as [string, string];
    let result: { key?: string; value: string }[] = [];
    if (query === "SELECT key, value FROM settings") result = [...table].map(([k, v]) => ({ key: k, value: v }));
    else if (query === "SELECT value FROM settings WHERE key = ?") result = table.has(key) ? [{ value: table.get(key)! }] : [];
    else if (query.startsWith("INSERT INTO settings")) table.set(key, value);
    else if (query === "DELETE FROM settings WHERE key = ?") table.delete(key);
    else throw new Error(`unexpected statement: ${query}`);
    return { toArray: () => result };
  };
  return { db: { sql: { exec } as unknown as SqlStorage }, log, table };
}

describe("SettingsStore", () => {
  it("reads every key in one statement on first use, then answers from memory, absent keys as null", () => {
    const { db, log } = fakeDb({ chat_id: "42", time_zone: "Europe/Berlin", schema_version: "9" });
    const settings = new SettingsStore(db);
    expect(settings.get("chat_id")).toBe("42");
    expect(settings.get("time_zone")).toBe("Europe/Berlin");
    expect(settings.get("moving_to")).toBeNull();
    expect(settings.get("blocked")).toBeNull();
    expect(log).toEqual(["SELECT key, value FROM settings"]);
  });

  it("reads a key that was set again on its own, and every key again after forget", () => {
    const { db, log, table } = fakeDb({ chat_id: "42" });
    const settings = new SettingsStore(db);
    settings.get("chat_id");
    settings.set("quiet", "22:00-07:00");
    expect(settings.get("quiet")).toBe("22:00-07:00");
    expect(settings.get("chat_id")).toBe("42");
    expect(log).toEqual(["SELECT key, value FROM settings", expect.stringMatching(/^INSERT INTO settings/), "SELECT value FROM settings WHERE key = ?"]);
    // A write the store did not make (a rolled-back transaction, a move taken in) is seen after forget.
    table.set("time_zone", "Asia/Tokyo");
    table.delete("quiet");
    settings.forget();
    expect(settings.get("time_zone")).toBe("Asia/Tokyo");
    expect(settings.get("quiet")).toBeNull();
    expect(log.slice(3)).toEqual(["SELECT key, value FROM settings"]);
  });
});
