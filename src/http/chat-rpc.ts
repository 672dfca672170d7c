/**
 * @module The edge's side of the chat Durable Object (docs/api.md): chat and job ids checked before any
 * stub exists, the stub itself, and RPC results turned into values or the error envelope's `ApiError`.
 */
import type { Context, MiddlewareHandler } from "hono";
import { badChatIdText, CHAT_ID, JOB_ID, shown } from "../contracts/ids";
import { noJobText } from "../jobs/texts";
import type { Result } from "../result";
import { emptyBody } from "../schemas/common";
import { readJson } from "./body";
import type { AppEnv } from "./context";
import { ApiError } from "./errors";

/**
 * The chat id of the path, checked against `^-?[1-9]\d{0,15}$` before anything else happens: a bad one is
 * 400 `bad_request`, and no Durable Object is ever created for it.
 */
export function chatIdOf(c: Context<AppEnv>): string {
  const chatId = c.req.param("chatId") ?? "";
  if (!CHAT_ID.test(chatId)) throw new ApiError("bad_request", badChatIdText(chatId));
  return chatId;
}

/** `chatIdOf` as a route's first middleware, so that the path is checked before its query is read. */
export const checkChatId: MiddlewareHandler<AppEnv> = async (c, next) => {
  chatIdOf(c);
  await next();
};

/** True when `id` can name a job at all (5 characters of the job id alphabet). */
const isJobId = (id: string): boolean => JOB_ID.test(id);

/**
 * The job id of the path. An id that cannot exist is answered like an unknown one (404 `No job <id> in
 * this chat.`), without asking the Durable Object.
 */
export function jobIdOf(c: Context<AppEnv>): string {
  const id = c.req.param("id") ?? "";
  if (!isJobId(id)) throw new ApiError("not_found", noJobText(shown(id)));
  return id;
}

/** The chat's Durable Object stub; call only with an id `chatIdOf` (or `CHAT_ID`) accepted. */
export function chatStub(env: Env, chatId: string) {
  return env.CHAT.getByName(chatId);
}

/** The value of an RPC result, or the `ApiError` whose status matches its code (400, 404, 409). */
export function unwrap<T>(result: Result<T>): T {
  if (result.ok) return result.value;
  throw new ApiError(result.error.code, result.error.message);
}

/** Routes that take no body (`/run`, `/pause`, `/resume`, `DELETE`): empty or `{}` only, anything else 400. */
export async function noBody(c: Context<AppEnv>): Promise<void> {
  await readJson(c, emptyBody(), { emptyAs: {} });
}
