/**
 * What `/remind` does with the message it is about (docs/telegram.md#remind-me-about-this): a photo, voice note,
 * location, forwarded message … is brought back by copying it; a text of the chat is quoted; what Telegram will not
 * copy (a service message, paid media, a giveaway, an invoice, a quiz, protected content) is refused.
 */
import { describe, expect, it } from "vitest";
import { copyOf } from "../../src/telegram/copyable";

describe("a message a reminder is about", () => {
  it("is copied when it holds more than text, and named by its kind", () => {
    expect(copyOf({ photo: [{}] })).toEqual({ act: "copy", kind: "photo" });
    expect(copyOf({ voice: {}, has_protected_content: false })).toEqual({ act: "copy", kind: "voice" });
    expect(copyOf({ location: {} })).toEqual({ act: "copy", kind: "location" });
    expect(copyOf({ poll: { type: "regular" } })).toEqual({ act: "copy", kind: "poll" });
    expect(copyOf({ text: "fwd", forward_origin: {} })).toEqual({ act: "copy", kind: "forward_origin" });
  });

  it("is quoted when it is a text of the chat", () => {
    expect(copyOf({ text: "call mum" })).toEqual({ act: "quote" });
  });

  it("is refused when Telegram will not copy it", () => {
    for (const message of [{}, { paid_media: {} }, { giveaway: {} }, { invoice: {} }, { poll: { type: "quiz" } }, { photo: [{}], has_protected_content: true }])
      expect(copyOf(message), JSON.stringify(message)).toEqual({ act: "refuse" });
  });
});
