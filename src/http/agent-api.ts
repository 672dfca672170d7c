/**
 * @module The run gate and deliver over HTTP (DESIGN §7), for an agent of your own that replaces the built-in
 * consumer: `POST /tools/:chatId/gate/offer|next|settle` and `POST /tools/:chatId/deliver`, behind TOOLS_TOKEN.
 */
import { Hono } from "hono";
import * as z from "zod";
import { lazy } from "../lazy";
import { readJson } from "./body";
import { chatIdOf, chatStub, unwrap } from "./chat-rpc";
import type { AppEnv } from "./context";
import { ApiError } from "./errors";

export const agentApi = new Hono<AppEnv>();

const TOKEN = `"token" must be the string that "offer" returned.`;
const KEY = `"key" must be the message key, such as "k7m2q:1790000000000" or "m:12".`;
const tokenBody = lazy(() => z.strictObject({ token: z.string({ error: TOKEN }).min(1, { error: TOKEN }) }));
const settleBody = lazy(() =>
  z.strictObject({
    token: z.string({ error: TOKEN }).min(1, { error: TOKEN }),
    key: z.string({ error: KEY }).min(1, { error: KEY }),
    status: z.enum(["delivered", "failed"], { error: `"status" must be "delivered" or "failed".` }),
    detail: z.string().max(2000).nullish(),
  }),
);
const deliverBody = lazy(() =>
  z.strictObject({
    key: z.string({ error: KEY }).min(1, { error: KEY }).max(200, { error: KEY }),
    markdown: z.string({ error: `"markdown" must be the reply's text.` }).min(1).max(64_000),
    /** What the agent saw (header and text), recorded as the transcript's `prompt` entry. */
    prompt: z.string().max(128_000).nullish(),
  }),
);

/** `offer` takes the queue message itself (DESIGN §7): `{ result: "duplicate" | "queued" }` or `{ result: "run", token }`. */
agentApi.post("/:chatId/gate/offer", async (c) => {
  const chatId = chatIdOf(c);
  const message = await readJson(c, z.unknown());
  if (typeof message !== "object" || message === null || (message as { chatId?: unknown }).chatId !== chatId) {
    throw new ApiError("bad_request", `The body must be a v1 prompt message whose "chatId" is ${chatId}.`);
  }
  const offer = unwrap(await chatStub(c.env, chatId).gateOffer(message));
  // The exact forms of DESIGN §7; the zone stays inside (your message carries it).
  return c.json(offer.result === "run" ? { result: offer.result, token: offer.token } : { result: offer.result }, 200);
});

agentApi.post("/:chatId/gate/next", async (c) => {
  const chatId = chatIdOf(c);
  const { token } = await readJson(c, tokenBody());
  return c.json(unwrap(await chatStub(c.env, chatId).gateNext(token)), 200);
});

agentApi.post("/:chatId/gate/settle", async (c) => {
  const chatId = chatIdOf(c);
  const body = await readJson(c, settleBody());
  unwrap(await chatStub(c.env, chatId).gateSettle(body.token, body.key, body.status, body.detail ?? null));
  return c.body(null, 204);
});

agentApi.post("/:chatId/deliver", async (c) => {
  const chatId = chatIdOf(c);
  const { key, markdown, prompt } = await readJson(c, deliverBody());
  return c.json(unwrap(await chatStub(c.env, chatId).deliver(key, markdown, { prompt: prompt ?? null, chatId })), 200);
});
