/**
 * Text stored as it was answered (issue 12 finding 8), through the admin API and the tools: a job name with a
 * lone surrogate (echoed in the 201 and read back as U+FFFD before), a name of only zero-width characters, NUL
 * or an RTL override is refused with a sentence and creates nothing. Chat ids 8400000 up.
 */
import { describe, expect, it } from "vitest";
import { jobListSchema, jobReply } from "../../src/schemas/jobs";
import { badRequest, send } from "./helpers";

let next = 8_400_000;
const chat = () => String(next++);
const prompt = { kind: "prompt", delay: "PT1H", text: "Hello" };
const HIDDEN = '"name" must hold a visible character, such as "Inbox summary"; got only spaces or invisible characters.';
const CONTROL = '"name" must not hold control characters or text-direction overrides (U+202A–U+202E, U+2066–U+2069).';

describe("job names and texts", () => {
  it("refuse a lone surrogate, sent as a JSON escape, and store nothing", async () => {
    const chatId = chat();
    const raw = `{"name":"bad \\ud800 name","kind":"prompt","delay":"PT1H","text":"Hello"}`;
    expect(await send("POST", `/admin/chats/${chatId}/jobs`, raw)).toEqual(
      badRequest('"name" holds a broken character (an unpaired UTF-16 surrogate); send valid Unicode text.'),
    );
    const rawText = `{"name":"ok","kind":"prompt","delay":"PT1H","text":"\\udc00"}`;
    expect(await send("POST", `/admin/chats/${chatId}/jobs`, rawText)).toEqual(
      badRequest('"text" holds a broken character (an unpaired UTF-16 surrogate); send valid Unicode text.'),
    );
    expect((await send("GET", `/admin/chats/${chatId}/jobs`).as(jobListSchema())).body.jobs).toEqual([]);
  });

  it("refuse names with nothing visible, NUL or a text-direction override, also on edit", async () => {
    const chatId = chat();
    expect(await send("POST", `/admin/chats/${chatId}/jobs`, { ...prompt, name: "\u200b\u200c" })).toEqual(badRequest(HIDDEN));
    expect(await send("POST", `/admin/chats/${chatId}/jobs`, { ...prompt, name: "a\u0000b" })).toEqual(badRequest(CONTROL));
    expect(await send("POST", `/admin/chats/${chatId}/jobs`, { ...prompt, name: "\u202egnp.exe" })).toEqual(badRequest(CONTROL));
    const created = await send("POST", `/admin/chats/${chatId}/jobs`, { ...prompt, name: "Zähne 🦷" }).as(jobReply());
    expect(created.status).toBe(201);
    const id = created.body.job.id;
    expect(await send("PATCH", `/admin/chats/${chatId}/jobs/${id}`, { name: "\ufeff" })).toEqual(badRequest(HIDDEN));
    expect((await send("GET", `/admin/chats/${chatId}/jobs/${id}`).as(jobReply())).body.job.name).toBe("Zähne 🦷");
  });

  it("are refused the same way by the tools, as ok: false", async () => {
    const chatId = chat();
    const res = await send("POST", `/tools/${chatId}/schedule`, { action: "create", ...prompt, name: "\u2066x\u2069" });
    expect(res).toEqual({ status: 200, body: { ok: false, text: CONTROL } });
  });
});
