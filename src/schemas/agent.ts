/**
 * @module The run gate's and deliver's arguments and answers (docs/agent.md): defined once for the HTTP routes of
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

/**
 * A turn's answer as the built-in agent hands it to the chat's object over RPC (`offer` with an answer, and
 * `finish`; the type is `contracts/turn.ts`'s TurnAnswer): each text bounded at a queue message's size (a
 * model's reply may be longer than `deliver`'s 64,000 characters: Telegram gets it in parts, or as a file), the
 * run's status and detail as `settle` bounds them.
 */
export const turnAnswerArgs = lazy(() =>
  z.strictObject({
    markdown: z.string().min(1).max(128_000).nullable(),
    prompt: z.string().max(128_000).nullish(),
    promptBody: z.string().max(128_000).optional(),
    status: gateSettleArgs().shape.status,
    detail: z.string().max(2000).nullable(),
    told: z.boolean().optional(),
  }),
);

/** A recorded step of a model turn holds at most this much (its row stays well inside SQLite's 2 MB a value). */
const MAX_STEP_JSON = 1_500_000;

/**
 * One record of a model turn's step (docs/agent.md#the-model-agent-agentllm; the type is `contracts/turn.ts`'s StepRecord),
 * bounded as the agent keeps what the model said (src/agent/keep.ts): at most 32 calls a step, names of 100
 * characters, arguments of 16 KB, a tool's answer of 64 KB.
 */
export const turnStepArgs = lazy(() => {
  const step = z.number().int().min(0).max(7);
  const call = z.strictObject({ id: z.string().min(1).max(200), name: z.string().min(1).max(100), args: z.string().max(16_384) });
  const result = z.strictObject({ ok: z.boolean(), text: z.string().max(65_536), data: z.string().max(65_536).optional() });
  return z
    .union([
      z.strictObject({ step, answer: z.strictObject({ content: z.string().max(128_000).nullable(), calls: z.array(call).min(1).max(32) }) }),
      z.strictObject({ step, results: z.array(result).min(1).max(32) }),
    ])
    .refine((record) => JSON.stringify(record).length <= MAX_STEP_JSON, { error: "A step's record must be at most 1.5 MB of JSON." });
});

/** A failed try of a model turn (the type is `contracts/turn.ts`'s TurnFailure). */
export const turnFailureArgs = lazy(() =>
  z.strictObject({
    detail: z.string().max(2000),
    retryAfter: z
      .number()
      .positive()
      .max(86_400 * 365)
      .nullable(),
  }),
);

/** `offer`'s answer over HTTP: the exact forms of docs/agent.md (the zone stays inside; the message carries it). */
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
