/**
 * @module The run gate's and deliver's arguments and answers (DESIGN §7): defined once for the HTTP routes of
 * an agent of your own (`/tools/:chatId/gate/*`, `/tools/:chatId/deliver`) and the chat object's RPC methods.
 * `offer` takes the queue message itself (`contracts/prompt-message.ts`).
 */
import * as z from "zod";
import { promptMessageSchema } from "../contracts/prompt-message";
import { lazy } from "../lazy";

const TOKEN = `"token" must be the string that "offer" returned.`;
const KEY = `"key" must be the message key, such as "k7m2q:1790000000000" or "m:12".`;

/** The gate's token, as `offer` returned it. */
const token = () => z.string({ error: TOKEN }).min(1, { error: TOKEN }).meta({ description: "The token `offer` returned." });

/** `next` and `release`: `{ token }`. */
export const gateTokenArgs = lazy(() => z.strictObject({ token: token() }));

/** `settle`: the holder is done with `key`, `delivered` or `failed`. */
export const gateSettleArgs = lazy(() =>
  z.strictObject({
    // Bounded as the chat object has always bounded them (a real token is far shorter).
    token: token().max(100),
    key: z.string({ error: KEY }).min(1, { error: KEY }).max(200),
    status: z.enum(["delivered", "failed"], { error: `"status" must be "delivered" or "failed".` }),
    detail: z.string().max(2000).nullish().meta({ description: "Why it failed, in a sentence; kept with the run." }),
  }),
);

/** `deliver`: a reply to the chat; a key seen before is a no-op. */
export const deliverArgs = lazy(() =>
  z.strictObject({
    key: z.string({ error: KEY }).min(1, { error: KEY }).max(200, { error: KEY }),
    markdown: z.string({ error: `"markdown" must be the reply's text.` }).min(1).max(64_000),
    prompt: z.string().max(128_000).nullish().meta({ description: "What the agent saw (header and text), recorded as the transcript's prompt entry." }),
  }),
);

/** `offer`'s answer over HTTP: the exact forms of DESIGN §7 (the zone stays inside; the message carries it). */
export const gateOfferReply = lazy(() =>
  z.union([
    z.strictObject({ result: z.enum(["duplicate", "queued"]) }),
    z.strictObject({ result: z.literal("run"), token: z.string().meta({ description: "Holds the gate; renew it with every call within 10 minutes." }) }),
  ]),
);
export type GateOfferReply = z.infer<ReturnType<typeof gateOfferReply>>;

/** `next`'s answer: the oldest pending prompt, or null, which releases the gate. */
export const gateNextReply = lazy(() => z.strictObject({ message: promptMessageSchema().nullable() }));

/** `deliver`'s answer: false for a key seen before. */
export const deliverReply = lazy(() => z.strictObject({ delivered: z.boolean() }));
