/** @module The shapes of hooks (docs/hooks.md): a hook's URL and address, the create answer that carries them, a call's answer. */
import * as z from "zod";
import { lazy } from "../lazy";
import { jobSchema } from "./jobs";

/** `{ url, email }`: where the hook is called, and the address mail to it goes to (null without EMAIL_DOMAIN); shown once. */
export const hookAddressesSchema = lazy(() =>
  z.strictObject({
    url: z.string().meta({ description: "POST here to run the job; the token in it is shown once.", examples: ["https://cuckoo.example.com/hooks/q7w…"] }),
    email: z
      .string()
      .nullable()
      .meta({ description: "Mail to this address runs the job (with EMAIL_DOMAIN set and Email Routing sending it to the Worker); else null." }),
  }),
);

/** A create's answer: the job, and for a job only its hook runs, its hook. */
export const jobCreatedSchema = lazy(() =>
  z.strictObject({
    job: jobSchema(),
    hook: hookAddressesSchema().optional().meta({ description: 'With `"trigger": "hook"`: the hook the job was made with, shown once.' }),
  }),
);

/** `POST /hooks/<token>`'s answer. */
export const hookAcceptedSchema = lazy(() =>
  z.strictObject({
    accepted: z.literal(true),
    runId: z.string().meta({
      description: "The run this call makes (or, for a repeated Idempotency-Key, made): `<jobId>:<epoch ms>` of the instant it was accepted.",
      examples: ["k7m2q:1790499600000"],
    }),
  }),
);
