/**
 * The built-in agent's system prompt (docs/agent.md `AGENT=llm`, docs/telegram.md#language): the chat's language is
 * named, so that the model replies in it, between the guidelines and today's date in the chat's zone.
 */
import { describe, expect, it } from "vitest";
import { systemPrompt } from "../../src/agent/prompt";

const NOW = Date.parse("2026-12-07T08:30:00Z");

describe("systemPrompt", () => {
  it("names the chat's language, English when none is given, after the owner's instructions and before today", () => {
    const german = systemPrompt("Europe/Berlin", NOW, "Be brief.", "de").split("\n\n");
    expect(german.slice(-3)).toEqual([
      "About you, from the bot's owner:\nBe brief.",
      "The chat's language is German (de): write your replies in it, unless the user writes to you in another.",
      "Today is Monday 7 December 2026 in the chat's time zone, Europe/Berlin (UTC+01:00).",
    ]);
    expect(systemPrompt("UTC", NOW, null).split("\n\n").at(-2)).toBe(
      "The chat's language is English (en): write your replies in it, unless the user writes to you in another.",
    );
  });
});
