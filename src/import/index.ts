/**
 * @module Imports from the stores Cuckoo replaces (docs/api.md `POST /admin/import`; issue 16), pure: a request
 * becomes a plan, per chat, of the jobs to create, with one sentence per entry left out. The chats' objects
 * then create them (`chat/imports.ts`), idempotently by each entry's source id.
 */
import type { ImportBody } from "../schemas/import";
import { readAcpbot } from "./acpbot";
import { readCommitments } from "./commitments";
import type { ImportPlan } from "./plan";
import { readPlaya } from "./playa";

export type { ChatPlan, ImportPlan } from "./plan";

/**
 * Why a request cannot be imported at all (400), or null: acpbot and commitments need `chatId`; only playa
 * takes `settings`.
 */
export function requestProblem(body: ImportBody): string | null {
  if (body.format !== "playa" && body.settings !== undefined) return `"settings" applies only to the playa format (Playa's chat-settings.json).`;
  if (body.format === "playa" || body.chatId !== undefined) return null;
  return (
    `"chatId" is required for the ${body.format} format: the chat its ${body.format === "acpbot" ? "schedules go" : "commitments go"} to, ` +
    'such as "123456789".'
  );
}

/** The plan of an import (a request `requestProblem` accepted). */
export function planImport(body: ImportBody): ImportPlan {
  switch (body.format) {
    case "playa":
      return readPlaya(body.data, body.settings, body.chatId ?? null);
    case "acpbot":
      return readAcpbot(body.data, body.chatId!);
    case "commitments":
      return readCommitments(body.data, body.chatId!);
  }
}
