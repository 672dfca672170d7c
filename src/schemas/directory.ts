/**
 * @module The cross-chat directory's shapes (docs/design/0008-layout.md, docs/api.md): the queries and answers of `GET /admin/chats` and
 * `GET /admin/jobs`, and the rebuild after a restore.
 */
import * as z from "zod";
import { lazy } from "../lazy";
import { chatId, instant } from "./common";
import { CATEGORIES, jobSchema, LAST_STATUSES } from "./jobs";

export const DIRECTORY_MAX_LIMIT = 100;
export const DIRECTORY_DEFAULT_LIMIT = 50;
const LIMIT = `"limit" must be a whole number from 1 to ${DIRECTORY_MAX_LIMIT}.`;
const Q_MAX = 200;
const Q = `"q" must be at most ${Q_MAX} characters long.`;
const CURSOR = `"cursor" must be the cursor of an earlier answer.`;

const limit = () =>
  z
    .number({ error: LIMIT })
    .int({ error: LIMIT })
    .min(1, { error: LIMIT })
    .max(DIRECTORY_MAX_LIMIT, { error: LIMIT })
    .default(DIRECTORY_DEFAULT_LIMIT)
    .meta({ description: `How many at most (1–${DIRECTORY_MAX_LIMIT}).` });
const cursor = () =>
  z.string({ error: CURSOR }).max(400, { error: CURSOR }).meta({ description: "The `cursor` of the previous page; absent for the first." }).optional();
/** Characters are code points, as a job's name counts them: 200 emoji are 200, not 400 UTF-16 units. */
const q = (what: string) =>
  z
    .string({ error: Q })
    .refine((s) => [...s].length <= Q_MAX, { error: Q })
    .meta({ description: what, maxLength: Q_MAX })
    .optional();

/** `GET /admin/chats?q=&limit=&cursor=`; the route reads the query's digits as a number first. */
export const chatsQuery = lazy(() =>
  z.strictObject({ q: q("Text anywhere in the chat id or its zone, as written (A–Z in either case); empty means all."), limit: limit(), cursor: cursor() }),
);
export type ChatsQuery = z.infer<ReturnType<typeof chatsQuery>>;

/** `GET /admin/jobs?q=&category=&limit=&cursor=`. */
export const directoryJobsQuery = lazy(() =>
  z.strictObject({
    q: q("Text anywhere in the job's name, its id or its chat id, as written (A–Z in either case); empty means all."),
    category: z
      .enum(CATEGORIES, { error: `"category" must be "one-time", "recurring", "monitoring" or "triggered".` })
      .meta({ description: "Empty means all." })
      .optional(),
    limit: limit(),
    cursor: cursor(),
  }),
);
export type DirectoryJobsQuery = z.infer<ReturnType<typeof directoryJobsQuery>>;

const nextRunAt = () =>
  instant().nullable().meta({ description: "The soonest next run; a cron job's is computed from its schedule when read. null when paused or never again." });

/** One chat of the directory. */
export const chatSummarySchema = lazy(() =>
  z.strictObject({
    chatId: chatId(),
    timeZone: z.string().meta({ description: "Its zone, or DEFAULT_TIMEZONE." }),
    jobs: z.number().int().meta({ description: "How many jobs it has." }),
    nextRunAt: nextRunAt(),
    blocked: z.boolean().meta({ description: "Telegram said the chat cannot be reached." }),
  }),
);
export type ChatSummary = z.infer<ReturnType<typeof chatSummarySchema>>;

const pageCursor = () => z.string().nullable().meta({ description: "Pass it as `?cursor=` for the next page; null on the last." });

/** `{ chats, cursor }`, by chat id. */
export const chatListSchema = lazy(() => z.strictObject({ chats: z.array(chatSummarySchema()), cursor: pageCursor() }));
export type ChatList = z.infer<ReturnType<typeof chatListSchema>>;

/**
 * One job of the directory: what the cross-chat list shows (the chat's own `GET …/jobs` has the whole job), its
 * own fields as the job's schema has them.
 */
export const directoryJobSchema = lazy(() => {
  const { id, name, kind, schedule } = jobSchema().shape;
  return z.strictObject({
    chatId: chatId(),
    id,
    name,
    kind,
    category: z.enum(CATEGORIES),
    schedule,
    enabled: z.boolean(),
    nextRunAt: nextRunAt(),
    lastStatus: z.enum(LAST_STATUSES).nullable().meta({ description: "The status of its last result (`lastResult.status`), null before its first run." }),
    timeZone: z.string().meta({ description: "The chat's zone, in which the schedule runs." }),
  });
});
export type DirectoryJob = z.infer<ReturnType<typeof directoryJobSchema>>;

/** `{ jobs, cursor }`, soonest first (paused and finished last). */
export const directoryJobListSchema = lazy(() => z.strictObject({ jobs: z.array(directoryJobSchema()), cursor: pageCursor() }));
export type DirectoryJobList = z.infer<ReturnType<typeof directoryJobListSchema>>;

const CHAT_IDS = `"chatIds" must be a list of at most ${DIRECTORY_MAX_LIMIT} Telegram chat ids such as "123456789".`;

/** `POST /admin/directory/rebuild`: the chats to write again, or a page of the directory's own. */
export const rebuildBody = lazy(() =>
  z
    .strictObject({
      chatIds: z
        .array(chatId(), { error: CHAT_IDS })
        .max(DIRECTORY_MAX_LIMIT, { error: CHAT_IDS })
        .meta({ description: "Chats to rebuild (also ones the directory lost); absent: a page of the chats it holds." })
        .optional(),
      cursor: cursor(),
    })
    .meta({ description: "Each chat's object deletes its rows and writes them again from its own state." }),
);

export const rebuildReplySchema = lazy(() =>
  z.strictObject({
    rebuilt: z.array(chatId()),
    failed: z.array(chatId()).meta({ description: "Chats whose write D1 did not take; their objects try again from their alarm." }),
    cursor: pageCursor(),
  }),
);
export type RebuildReply = z.infer<ReturnType<typeof rebuildReplySchema>>;
