/**
 * @module The arguments of the chat object's gate and deliver RPC methods (DESIGN §7), parsed again inside the
 * object: RPC is a boundary too.
 */
import * as z from "zod";
import { lazy } from "../lazy";

export const gateSettleArgs = lazy(() =>
  z.strictObject({
    token: z.string().min(1).max(100),
    key: z.string().min(1).max(200),
    status: z.enum(["delivered", "failed"]),
    detail: z.string().max(2000).nullable(),
  }),
);

export const deliverArgs = lazy(() =>
  z.strictObject({
    key: z.string().min(1).max(200),
    markdown: z.string().min(1).max(64_000),
    prompt: z.string().max(128_000).nullable(),
  }),
);
