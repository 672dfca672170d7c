/**
 * @module The run gate and deliver over HTTP (docs/agent.md), for an agent of your own that replaces the built-in
 * consumer: `POST /tools/:chatId/gate/offer|next|settle` and `POST /tools/:chatId/deliver`, behind TOOLS_TOKEN.
 */
import { Hono } from "hono";
import * as z from "zod";
import { deliverArgs, type GateOfferReply, gateSettleArgs, gateTokenArgs } from "../schemas/agent";
import { readJson } from "./body";
import { chatIdOf, chatStub, unwrap } from "./chat-rpc";
import type { AppEnv } from "./context";
import { ApiError } from "./errors";
import type { Operation } from "./openapi-components";

export const agentApi = new Hono<AppEnv>();

/** `offer` takes the queue message itself (docs/agent.md): `{ result: "duplicate" | "queued" }` or `{ result: "run", token }`. */
agentApi.post("/:chatId/gate/offer", async (c) => {
  const chatId = chatIdOf(c);
  const message = await readJson(c, z.unknown());
  if (typeof message !== "object" || message === null || (message as { chatId?: unknown }).chatId !== chatId) {
    throw new ApiError("bad_request", `The body must be a v1 prompt message whose "chatId" is ${chatId}.`);
  }
  const offer = unwrap(await chatStub(c.env, chatId).gateOffer(message));
  // The exact forms of docs/agent.md; the zone stays inside (your message carries it). Without an answer handed
  // in, the object never answers `done`.
  if (offer.result === "done") throw new Error("offer answered done without an answer");
  const reply: GateOfferReply = offer.result === "run" ? { result: offer.result, token: offer.token } : { result: offer.result };
  return c.json(reply, 200);
});

agentApi.post("/:chatId/gate/next", async (c) => {
  const chatId = chatIdOf(c);
  const { token } = await readJson(c, gateTokenArgs());
  return c.json(unwrap(await chatStub(c.env, chatId).gateNext(token)), 200);
});

agentApi.post("/:chatId/gate/settle", async (c) => {
  const chatId = chatIdOf(c);
  const body = await readJson(c, gateSettleArgs());
  unwrap(await chatStub(c.env, chatId).gateSettle(body.token, body.key, body.status, body.detail ?? null));
  return c.body(null, 204);
});

agentApi.post("/:chatId/deliver", async (c) => {
  const chatId = chatIdOf(c);
  const { key, markdown, prompt } = await readJson(c, deliverArgs());
  return c.json(unwrap(await chatStub(c.env, chatId).deliver(key, markdown, { prompt: prompt ?? null, chatId })), 200);
});

/** What the OpenAPI document says of these routes: `openapi.ts` builds it, a test checks it against the app. */
export const agentApiOperations = (): Operation[] => [
  {
    method: "post",
    path: "/tools/{chatId}/gate/offer",
    summary: "Offer a prompt (the queue message itself) to the chat's run gate.",
    access: "tools",
    body: "PromptMessage",
    answers: [[200, "`duplicate`, `queued`, or `run` with the token that holds the gate.", "GateOffer"]],
    errors: { bad_request: 'a message whose "chatId" is not the path\'s, or a body that is not a v1 prompt message' },
  },
  {
    method: "post",
    path: "/tools/{chatId}/gate/next",
    summary: "The holder's next prompt; null releases the gate.",
    access: "tools",
    body: "GateNextRequest",
    answers: [[200, "The next prompt or null.", "GateNext"]],
  },
  {
    method: "post",
    path: "/tools/{chatId}/gate/settle",
    summary: "The holder is done with a prompt; a job's key settles its run.",
    access: "tools",
    body: "GateSettleRequest",
    answers: [[204, "Settled."]],
    errors: { conflict: "the token no longer holds the gate and the job's reply was not delivered" },
  },
  {
    method: "post",
    path: "/tools/{chatId}/deliver",
    summary: "Deliver a reply to the chat; a key seen before is a no-op.",
    access: "tools",
    body: "DeliverRequest",
    answers: [[200, "Whether this call delivered it.", "DeliverReply"]],
    errors: { bad_request: "a chat the bot may not serve (ALLOWED_USER_IDS); nothing is delivered" },
  },
];
