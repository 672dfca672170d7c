/**
 * The one function every echo goes through (src/contracts/ids.ts, issue 32): `printable` leaves out what never
 * shows and can reorder or hide the text around it, `shown` quotes a client's value with it and cuts it to 40
 * characters, and its kin use it: an import's `quoted`, a job's name made from a reminder's text, an unknown
 * field's name in a sentence, and a job's name as a client sees it.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { toJob } from "../../src/chat/views";
import { printable, shown } from "../../src/contracts/ids";
import { quoted } from "../../src/import/plan";
import { parseArgs } from "../../src/sentence";
import { nameOf } from "../../src/telegram/schedule";
import { jobRecord } from "./records";

describe("printable", () => {
  it("leaves out C0 and C1 controls and DEL, and makes a line break or a tab a space", () => {
    expect(printable("a\u0000b\u0007c\u001bd\u007fe\u0085f\u009fg")).toBe("abcdefg");
    expect(printable("one\ntwo\r\nthree\rfour\tfive\u2028six\u2029seven\u000bend")).toBe("one two three four five six seven end");
  });

  it("leaves out the bidi embeddings, overrides, isolates and marks, so nothing turns the text around", () => {
    expect(printable("\u202aa\u202bb\u202cc\u202dd\u202ee")).toBe("abcde");
    expect(printable("\u2066a\u2067b\u2068c\u2069d")).toBe("abcd");
    expect(printable("\u200ea\u200fb\u061cc")).toBe("abc");
  });

  it("leaves out zero-width spaces, joiners, the word joiner, the soft hyphen, the byte order mark and the like", () => {
    expect(printable("a\u200bb\u200cc\u200dd\u2060e\u2063f\u00adg\ufeffh\u180ei\ufff9j")).toBe("abcdefghij");
  });

  it("keeps a joiner inside an emoji sequence, and every visible letter of every script", () => {
    expect(printable("👩‍💻 code, 👨‍👩‍👧 dinner, ❤️‍🔥, 👍🏽")).toBe("👩‍💻 code, 👨‍👩‍👧 dinner, ❤️‍🔥, 👍🏽");
    expect(printable("שלום, مرحبا, Grüße, 東京, 🇩🇪")).toBe("שלום, مرحبا, Grüße, 東京, 🇩🇪");
  });
});

describe("shown", () => {
  it("quotes at most 40 characters of what shows, never cutting an emoji in two", () => {
    expect(shown(`Nowhere\u202eland\u0007`)).toBe("Nowhereland");
    expect(shown(`${"x".repeat(39)}😀😀`)).toBe(`${"x".repeat(39)}😀…`);
    expect(shown(`\u200b${"y".repeat(40)}`)).toBe("y".repeat(40));
  });
});

describe("its kin", () => {
  it("an import's quoted value, a job's name from a reminder's text, an unknown field's name", () => {
    expect(quoted(`k7m\u202e2q`)).toBe('"k7m2q"');
    expect(nameOf(`t\u202eea\u200b\nwith mum`)).toBe("tea with mum");
    expect(parseArgs(z.strictObject({ a: z.string() }), { a: "x", "b\u202e\u200b": 1 })).toStrictEqual({
      ok: false,
      error: { code: "bad_request", message: 'Unknown field "b".' },
    });
  });

  it("a job's name as a client sees it, also one stored before names were kept printable", () => {
    const job = jobRecord({
      id: "k7m2q",
      name: "Stand\u200bup\u2060",
      schedule: { type: "cron", cron: "0 9 * * *" },
      text: "Stand up.",
      createdAt: Date.UTC(2027, 4, 12),
    });
    expect(toJob(job, "123", 300).name).toBe("Standup");
  });
});
