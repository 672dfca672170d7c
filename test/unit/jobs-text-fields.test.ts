/**
 * What a job's text fields may hold (issue 12 finding 8): no broken characters anywhere (a lone surrogate was
 * echoed in the 201 and read back as U+FFFD), and a name shows: a visible character, no NUL, no control
 * characters, no text-direction overrides. Lengths in code points.
 */
import { describe, expect, it } from "vitest";
import { lengthOf, nameProblem, textProblem } from "../../src/jobs/text-fields";

const BROKEN = (f: string) => `"${f}" holds a broken character (an unpaired UTF-16 surrogate); send valid Unicode text.`;
const HIDDEN = '"name" must hold a visible character, such as "Inbox summary"; got only spaces or invisible characters.';
const CONTROL = '"name" must not hold control characters or text-direction overrides (U+202A–U+202E, U+2066–U+2069).';

describe("a name", () => {
  it("takes words, emoji, accents and scripts of every direction", () => {
    for (const name of ["Call the dentist", "🦜 Parrot check", "Zähne putzen", "شراء الخبز", "ש", "日本語のジョブ", "a\u200db"]) {
      expect(nameProblem("name", name, 80), name).toBeNull();
    }
  });

  it("refuses a lone surrogate, high or low, anywhere", () => {
    for (const name of ["\ud800", "a\ud83d", "\udc00b", "ok \udfff ok"]) expect(nameProblem("name", name, 80)).toBe(BROKEN("name"));
    expect(nameProblem("name", "\ud83d\ude00", 80)).toBeNull(); // a whole pair is one emoji
  });

  it("refuses names with nothing visible: spaces, zero-width characters, fillers", () => {
    for (const name of ["   ", "\u200b", "\u200b\u200c\u200d\ufeff", "\u3164", " \u2800 ", "\u00a0\u2003"])
      expect(nameProblem("name", name, 80), JSON.stringify(name)).toBe(HIDDEN);
  });

  it("refuses NUL, other control characters, newlines and bidi overrides or isolates", () => {
    for (const name of ["a\u0000b", "a\u0007", "two\nlines", "tab\there", "\u202eevil", "x\u2066y\u2069", "\u202a", "a\u009bb"]) {
      expect(nameProblem("name", name, 80), JSON.stringify(name)).toBe(CONTROL);
    }
  });

  it("counts code points after trimming", () => {
    expect(nameProblem("name", ` ${"🦜".repeat(80)} `, 80)).toBeNull();
    expect(nameProblem("name", "🦜".repeat(81), 80)).toBe('"name" must be 1 to 80 characters long; got 81.');
  });
});

describe("a text or command", () => {
  it("refuses a lone surrogate and a blank value, and counts code points", () => {
    expect(textProblem("text", "hi \ud800", 4000)).toBe(BROKEN("text"));
    expect(textProblem("command", "echo \udc00", 8000)).toBe(BROKEN("command"));
    expect(textProblem("text", " \n\t ", 4000)).toBe('"text" must not be blank.');
    expect(textProblem("text", "line one\nline two\ttabbed", 4000)).toBeNull();
    expect(textProblem("text", "😀".repeat(4001), 4000)).toBe('"text" must be 1 to 4000 characters long; got 4001.');
    expect(lengthOf("😀é")).toBe(2);
  });
});
