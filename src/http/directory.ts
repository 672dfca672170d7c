/**
 * @module The cross-chat routes of the admin API (docs/design/0008-layout.md, docs/api.md): `GET /admin/chats` and `GET /admin/jobs` read
 * the D1 directory; `POST /admin/directory/rebuild` has each chat's object write its rows again (after a D1
 * restore). Mounted on the admin sub-app, behind ADMIN_TOKEN.
 */
import { Hono } from "hono";
import { BadCursor, chatIdsPage, listChats, listJobs } from "../directory/read";
import {
  type ChatList,
  chatsQuery,
  DIRECTORY_MAX_LIMIT,
  type DirectoryJobList,
  directoryJobsQuery,
  type RebuildReply,
  rebuildBody,
} from "../schemas/directory";
import { readJson } from "./body";
import { chatStub } from "./chat-rpc";
import type { AppEnv } from "./context";
import { ApiError } from "./errors";
import type { Operation } from "./openapi-components";
import { readQuery } from "./query";

export const directory = new Hono<AppEnv>();

/** A cursor that is not ours is the client's mistake: 400 with the sentence. */
async function cursorChecked<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof BadCursor) throw new ApiError("bad_request", error.message);
    throw error;
  }
}

directory.get("/chats", readQuery(chatsQuery), async (c) => {
  const body: ChatList = await cursorChecked(() => listChats(c.env.DB, c.req.valid("query"), c.var.config.defaultTimeZone, Date.now()));
  return c.json(body, 200);
});

directory.get("/jobs", readQuery(directoryJobsQuery), async (c) => {
  const body: DirectoryJobList = await cursorChecked(() => listJobs(c.env.DB, c.req.valid("query"), c.var.config.defaultTimeZone, Date.now()));
  return c.json(body, 200);
});

/**
 * Each chat's object deletes its rows and writes them from its own state. The chats are the body's, or one page
 * of those the directory holds (follow `cursor`); chats it lost entirely come back on their next change, or
 * when named here.
 */
directory.post("/directory/rebuild", async (c) => {
  const body = await readJson(c, rebuildBody(), { emptyAs: {} });
  const page = body.chatIds
    ? { chatIds: [...new Set(body.chatIds)], cursor: null }
    : await cursorChecked(() => chatIdsPage(c.env.DB, body.cursor, DIRECTORY_MAX_LIMIT));
  const results = await Promise.all(page.chatIds.map(async (chatId) => [chatId, await chatStub(c.env, chatId).rebuildDirectory(chatId)] as const));
  const reply: RebuildReply = {
    rebuilt: results.filter(([, done]) => done).map(([chatId]) => chatId),
    failed: results.filter(([, done]) => !done).map(([chatId]) => chatId),
    cursor: page.cursor,
  };
  return c.json(reply, 200);
});

/** What the OpenAPI document says of these routes: `openapi.ts` builds it, a test checks it against the app. */
export const directoryOperations = (): Operation[] => [
  {
    method: "get",
    path: "/admin/chats",
    summary: "The chats of the D1 directory, by chat id: each one's zone, job count, soonest next run and blocked flag.",
    description:
      "The directory is a projection each chat's object writes after its own changes (eventually consistent). " +
      "A chat that has only been read (no job, no zone of its own) is not listed. A cron job's next run is computed from its schedule when read.",
    access: "admin",
    query: chatsQuery,
    answers: [[200, "A page of chats.", "ChatList"]],
    errors: { bad_request: '`"limit" must be a whole number from 1 to 100.`, a query over 200 characters or a cursor that is not one of ours' },
  },
  {
    method: "get",
    path: "/admin/jobs",
    summary: "Jobs across chats from the D1 directory, soonest first (paused and finished last).",
    description: "What the cross-chat list shows of each job; the chat's own `GET /admin/chats/{chatId}/jobs` has the whole job.",
    access: "admin",
    query: directoryJobsQuery,
    answers: [[200, "A page of jobs.", "DirectoryJobList"]],
    errors: { bad_request: "an unknown category, a limit out of 1–100, a query over 200 characters or a cursor that is not one of ours" },
  },
  {
    method: "post",
    path: "/admin/directory/rebuild",
    summary: "Rebuild the D1 directory from the chats' objects (after a restore): each chat deletes its rows and writes them again.",
    access: "admin",
    body: "RebuildRequest",
    answers: [[200, "The chats rebuilt and those whose write failed; follow `cursor` for the next page.", "RebuildReply"]],
    errors: { bad_request: "a chat id that is not one, more than 100 of them, or a cursor that is not one of ours" },
  },
];
