/**
 * @module The memory shapes clients see and send (docs/api.md; issue 16): a record `{ id, title, body,
 * revision, updatedAt }`, the create and update bodies of the admin API and of the memory tools, and the
 * answers that carry records. The limits: at most 200 records a chat, a title of 1–120 characters on one
 * line, a body of at most 16 KB (16,384 bytes of UTF-8). Rules beyond a field's type are the chat object's
 * (`chat/memory.ts`), which answers each with one sentence.
 */
import * as z from "zod";
import { MEMORY_ID } from "../contracts/ids";
import { lazy } from "../lazy";
import { instant, str } from "./common";

export const MEMORY_LIMITS = {
  records: 200,
  title: 120,
  /** Bytes of UTF-8: what "16 KB" means for a body. */
  bodyBytes: 16 * 1024,
} as const;

/** A memory record id: 6 characters of the job id alphabet. */
export const memoryId = lazy(() =>
  z
    .string()
    .regex(MEMORY_ID)
    .meta({ description: "6 characters of `abcdefghjkmnpqrstuvwxyz23456789`, unique in its chat.", examples: ["m4x7pq"] }),
);

/** A memory record as every client sees it. */
export const memoryRecordSchema = lazy(() =>
  z.strictObject({
    id: memoryId(),
    title: z.string(),
    body: z.string().meta({ description: "Markdown, at most 16 KB (16,384 bytes of UTF-8)." }),
    revision: z.number().int().meta({ description: "1 at creation, +1 on each update; an update names the revision it read." }),
    updatedAt: instant(),
  }),
);
export type MemoryRecord = z.infer<ReturnType<typeof memoryRecordSchema>>;

const TITLE = () => str("title", "Project Alpha").meta({ minLength: 1, maxLength: MEMORY_LIMITS.title, examples: ["Project Alpha"] });
const BODY = () =>
  str("body", "Status: waiting for the quote.").meta({ maxLength: MEMORY_LIMITS.bodyBytes, description: "Markdown, at most 16 KB (16,384 bytes of UTF-8)." });
const REVISION = `"revision" must be the whole number of the revision you read, such as 3.`;

/** `POST …/memory` and `memory_create`: `{ title, body }`. */
export const memoryCreateInput = lazy(() => z.strictObject({ title: TITLE(), body: BODY() }));
export type MemoryCreateInput = z.infer<ReturnType<typeof memoryCreateInput>>;

/** `PATCH …/memory/:id`: `{ revision, title?, body? }`, the revision read; a stale one is 409 `conflict`. */
export const memoryUpdateInput = lazy(() =>
  z
    .strictObject({
      revision: z.number({ error: REVISION }).int({ error: REVISION }).meta({ minimum: 1, description: "The revision you read (memory_get, GET)." }),
      title: TITLE().optional(),
      body: BODY().optional(),
    })
    .meta({ description: "The revision read, and what changes: title, body or both." }),
);
export type MemoryUpdateInput = z.infer<ReturnType<typeof memoryUpdateInput>>;

/** `{ records }`, the most recently updated first. */
export const memoryListReply = lazy(() => z.strictObject({ records: z.array(memoryRecordSchema()) }));

/** `{ record }`: a create, a read, an update. */
export const memoryReply = lazy(() => z.strictObject({ record: memoryRecordSchema() }));

const ID = `"id" must be a memory record id such as "m4x7pq"; see memory_list.`;
/** The id a memory tool takes. Null counts as not given, as function-calling models send it. */
const toolId = () => z.string({ error: ID }).meta({ examples: ["m4x7pq"] });

/** `memory_get` and `memory_delete`: `{ id }`. */
export const memoryIdBody = lazy(() => z.strictObject({ id: toolId() }));

/** `memory_update`: `{ id, revision, title?, body? }`; a null title or body counts as not given. */
export const memoryUpdateBody = lazy(() => {
  const s = memoryUpdateInput().shape;
  return z.strictObject({ id: toolId(), revision: s.revision, title: s.title.unwrap().nullish(), body: s.body.unwrap().nullish() });
});
