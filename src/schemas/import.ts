/**
 * @module The import shapes (docs/api.md `POST /admin/import`; issue 16): the request `{ format, data,
 * settings?, chatId? }`, the answer `{ created, skipped, problems }`, and what the edge hands each chat's
 * object: the entries read from the source, one per job, each with the source id that makes an import
 * idempotent. The formats' own fields are read tolerantly by `src/import/`, not here.
 */
import * as z from "zod";
import { CHAT_ID } from "../contracts/ids";
import { lazy } from "../lazy";

export const IMPORT_FORMATS = ["playa", "acpbot", "commitments"] as const;

const FORMAT = `"format" must be "playa", "acpbot" or "commitments".`;
const CHAT = `"chatId" must be a decimal Telegram chat id such as "123456789".`;

/** `POST /admin/import`. */
export const importBody = lazy(() =>
  z
    .strictObject({
      format: z.enum(IMPORT_FORMATS, { error: FORMAT }).meta({ description: "Which store the data comes from." }),
      data: z.unknown().meta({
        description:
          "playa: the object of Playa's jobs.json; acpbot: an array of the .acpbot/schedules/<id>.json objects; commitments: the text of commitments.jsonl.",
      }),
      settings: z.unknown().optional().meta({ description: "playa only: the object of Playa's chat-settings.json, for the chats' zones." }),
      chatId: z
        .string({ error: CHAT })
        .regex(CHAT_ID, { error: CHAT })
        .optional()
        .meta({
          description: "The chat the jobs go to: required for acpbot and commitments; for playa, only this chat's jobs are imported.",
          examples: ["123456789"],
        }),
    })
    .meta({ description: "Read tolerantly: an invalid entry is a problem sentence and the rest is imported. Importing the same data again creates nothing." }),
);
export type ImportBody = z.infer<ReturnType<typeof importBody>>;

/** `{ created, skipped, problems }`. */
export const importReply = lazy(() =>
  z.strictObject({
    created: z.number().int().meta({ description: "Jobs created by this import." }),
    skipped: z.number().int().meta({ description: "Entries imported before (by their source id), so created nothing this time." }),
    problems: z.array(z.string()).meta({ description: "One sentence per entry left out, and per note on one imported (such as a cron that ran in UTC)." }),
  }),
);
export type ImportReply = z.infer<ReturnType<typeof importReply>>;

/** One job read from a source, for its chat's object to create. */
export const importEntry = lazy(() =>
  z.strictObject({
    /** `playa:<id>`, `acpbot:<id>`, `commitments:<id>`: what makes an import idempotent. */
    sourceId: z.string().min(1).max(300),
    /** How sentences name the entry: `Playa job "k7m2q"`. */
    label: z.string().min(1).max(300),
    job: z.strictObject({
      name: z.string(),
      kind: z.enum(["prompt", "watcher", "reminder"]),
      text: z.string().optional(),
      command: z.string().optional(),
      timeoutSeconds: z.number().int().optional(),
    }),
    /**
     * `nextAt`: the next such local time in the chat's zone (an undated commitment, created paused); `rrule`: a
     * recurrence rule that starts now in the chat's zone (a Cronos expression that ANDs its day fields).
     */
    when: z.union([
      z.strictObject({ at: z.string() }),
      z.strictObject({ cron: z.string() }),
      z.strictObject({ rrule: z.string() }),
      z.strictObject({ nextAt: z.literal("09:00") }),
    ]),
    enabled: z.boolean(),
    /** The source ran this cron in UTC whatever its zone said (acpbot): say so when the chat's zone is not UTC. */
    cronWasUtc: z.boolean().optional(),
    /** The Cronos expression (Playa) the entry's rule stands for: say so once it is imported. */
    fromCronos: z.string().max(300).optional(),
  }),
);
export type ImportEntry = z.infer<ReturnType<typeof importEntry>>;

/**
 * What the edge hands one chat's object: the source's name for sentences (`Playa`), the zone it kept for the
 * chat (or null), and the chat's entries.
 */
export const importBatch = lazy(() => z.strictObject({ source: z.string(), zone: z.string().nullable(), entries: z.array(importEntry()).max(10_000) }));
export type ImportBatch = z.infer<ReturnType<typeof importBatch>>;
