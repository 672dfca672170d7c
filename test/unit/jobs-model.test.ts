/**
 * A model per job and per chat (docs/agent.md#models), as pure functions: which names a job may take (LLM_MODEL, then
 * LLM_MODELS) and the sentence that refuses any other, on create and edit alike; and the model a turn runs on, with the
 * job's own model gone from the list.
 */
import { describe, expect, it } from "vitest";
import { modelProblem, turnModel } from "../../src/jobs/model";
import { specDefaults } from "../../src/jobs/records";
import { validateCreate, validateEdit } from "../../src/jobs/validate";

const MODELS = ["gpt-4o-mini", "gpt-4o", "o3"];
const ctx = { zone: "Europe/Berlin", now: Date.parse("2026-12-07T10:00:00Z"), models: MODELS };

describe("a job's model", () => {
  it("is one of the bot's models, or null for the chat's; any other is refused naming them", () => {
    expect(MODELS.map((m) => modelProblem(m, MODELS))).toStrictEqual([null, null, null]);
    expect(modelProblem("gpt-5", MODELS)).toBe(`"gpt-5" is not one of this bot's models; choose gpt-4o-mini, gpt-4o or o3.`);
    expect(modelProblem("gpt-4o", [])).toBe(`"gpt-4o" cannot be chosen: this bot runs no model (its owner sets LLM_MODEL, and LLM_MODELS for more).`);
  });

  it("is stored on create and changed or cleared on edit; refused alike on both", async () => {
    const input = { name: "Digest", kind: "prompt" as const, cron: "0 8 * * *", text: "Digest the news" };
    const created = await validateCreate({ ...input, model: "gpt-4o" }, ctx);
    expect(created.ok && created.value.spec.model).toBe("gpt-4o");
    expect(await validateCreate({ ...input, model: "gpt-5" }, ctx)).toStrictEqual({
      ok: false,
      error: `"gpt-5" is not one of this bot's models; choose gpt-4o-mini, gpt-4o or o3.`,
    });
    if (!created.ok) throw new Error(created.error);
    const spec = created.value.spec;
    const edited = await validateEdit(spec, { model: "o3" }, ctx);
    expect(edited.ok && [edited.value.spec.model, edited.value.scheduleChanged]).toStrictEqual(["o3", false]);
    const cleared = await validateEdit(spec, { model: null }, ctx);
    expect(cleared.ok && cleared.value.spec.model).toBeNull();
    expect((await validateEdit(spec, { model: "claude" }, ctx)).ok).toBe(false);
    // A model the list no longer has is kept by an edit that does not name it.
    const kept = await validateEdit({ ...spec, model: "gone" }, { text: "Digest the news and the weather" }, ctx);
    expect(kept.ok && kept.value.spec.model).toBe("gone");
    expect(specDefaults().model).toBeNull();
  });
});

describe("the model a turn runs on", () => {
  it("is the job's, else the chat's, else LLM_MODEL; a job's model gone from the list is dropped, and said", () => {
    expect(turnModel("o3", "gpt-4o", MODELS)).toStrictEqual({ model: "o3", dropped: null });
    expect(turnModel(null, "gpt-4o", MODELS)).toStrictEqual({ model: "gpt-4o", dropped: null });
    expect(turnModel(null, null, MODELS)).toStrictEqual({ model: "gpt-4o-mini", dropped: null });
    expect(turnModel("gpt-4", "gpt-4o", MODELS)).toStrictEqual({ model: "gpt-4o", dropped: "gpt-4" });
    expect(turnModel("gpt-4", null, MODELS)).toStrictEqual({ model: "gpt-4o-mini", dropped: "gpt-4" });
    // A chat's model gone from the list is LLM_MODEL's, without a word (/model shows it).
    expect(turnModel(null, "gpt-4", MODELS)).toStrictEqual({ model: "gpt-4o-mini", dropped: null });
    expect(turnModel("o3", null, [])).toStrictEqual({ model: null, dropped: "o3" });
  });
});
