/**
 * @module The cross-chat routes of the admin API (DESIGN §1, §10): `GET /admin/chats` and `GET /admin/jobs` read
 * the D1 directory; `POST /admin/directory/rebuild` has each chat's object write its rows again (after a D1
 * restore). Mounted on the admin sub-app, behind ADMIN_TOKEN.
 */
import { Hono } from "hono";
import { BadCursor, chatIdsPage, listChats, listJobs } from "../directory/read";
import { chatsQuery, directoryJobsQuery, rebuildBody, type ChatList, type DirectoryJobList, type RebuildReply } from "../schemas/directory";
import { DIRECTORY_MAX_LIMIT } from "../schemas/directory";
import { readJson } from "./body";
import { chatStub } from "./chat-rpc";
import type { AppEnv } from "./context";
import { ApiError } from "./errors";
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
