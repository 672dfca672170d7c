/**
 * @module `POST /admin/import` (DESIGN §10; issue 16): jobs from the stores Cuckoo replaces (Playa's jobs.json,
 * acpbot's schedule files, the legacy commitments.jsonl). The request is checked here, the source read by the
 * pure `src/import/` into a plan per chat, and each chat's object creates its jobs, once per source id.
 * Answers `{ created, skipped, problems }`: an entry left out is a sentence, never a failed request.
 */
import type { Context } from "hono";
import { planImport, requestProblem } from "../import";
import { importBody, type ImportReply } from "../schemas/import";
import { readJson } from "./body";
import { chatStub } from "./chat-rpc";
import type { AppEnv } from "./context";
import { ApiError } from "./errors";

export async function importRoute(c: Context<AppEnv>): Promise<Response> {
  const body = await readJson(c, importBody());
  const problem = requestProblem(body);
  if (problem !== null) throw new ApiError("bad_request", problem);
  const plan = planImport(body);
  const reply: ImportReply = { created: 0, skipped: 0, problems: [...plan.problems] };
  // One chat after another, in id order, so that the answer reads the same each time.
  for (const chatId of [...plan.chats.keys()].sort()) {
    const chat = plan.chats.get(chatId)!;
    const result = await chatStub(c.env, chatId).importJobs(chatId, { source: plan.source, zone: chat.zone, entries: chat.entries });
    if (!result.ok) {
      reply.problems.push(result.error.message);
      continue;
    }
    reply.created += result.value.created;
    reply.skipped += result.value.skipped;
    reply.problems.push(...result.value.problems);
  }
  return c.json(reply, 200);
}
