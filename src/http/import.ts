/**
 * @module `POST /admin/import` (docs/api.md; issue 16): jobs from the stores Cuckoo replaces (Playa's jobs.json,
 * acpbot's schedule files, the legacy commitments.jsonl). The request is checked here, the source read by the
 * pure `src/import/` into a plan per chat, and each chat's object creates its jobs, once per source id.
 * Answers `{ created, skipped, problems }`: an entry left out is a sentence, never a failed request.
 */
import type { Context } from "hono";
import { planImport, requestProblem } from "../import";
import { type ImportReply, importBody } from "../schemas/import";
import { readJson } from "./body";
import { chatStub } from "./chat-rpc";
import type { AppEnv } from "./context";
import { ApiError } from "./errors";
import type { Operation } from "./openapi-components";

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

/** What the OpenAPI document says of `POST /admin/import`: `openapi.ts` builds it, a test checks it against the app. */
export const importOperations = (): Operation[] => [
  {
    method: "post",
    path: "/admin/import",
    summary: "Import jobs from a store Cuckoo replaces: Playa's jobs.json, acpbot's schedule files or the legacy commitments.jsonl.",
    description:
      "Each entry becomes a job of its chat, checked by the rules of a create; a one-off already past fires at once, late. " +
      "Read tolerantly: an entry that cannot be imported is a sentence in `problems` and the rest is imported. " +
      "Idempotent: each imported job remembers its source id (`playa:<id>`, `acpbot:<id>`, `commitments:<id>`), and an entry imported before, " +
      "even one whose job is gone since, is only counted in `skipped`. The formats' fields: docs/imports.md.",
    access: "admin",
    body: "ImportRequest",
    limit: "1 MiB",
    answers: [[200, "What was created, what was imported before, and a sentence per entry left out or note.", "ImportReply"]],
    errors: {
      bad_request: '`"chatId" is required for the acpbot format: …`, `"settings" applies only to the playa format …`, or an unknown format',
    },
  },
];
