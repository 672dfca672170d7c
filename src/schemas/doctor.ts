/** @module `GET /admin/doctor`'s answer (docs/api.md, docs/doctor.md): the parts of a running Worker only it can check. */
import * as z from "zod";
import { lazy } from "../lazy";

/** One part: `off` by configuration, `ok`, or `failed`, with a sentence saying what was found (never a secret). */
const part = () =>
  z.strictObject({
    status: z.enum(["ok", "off", "failed"]),
    says: z.string().meta({ description: "What was found, as one sentence." }),
  });

/** 200: the runner, the model and the D1 migrations. */
export const doctorReport = lazy(() =>
  z.strictObject({
    runner: part().meta({ description: "off without a runner; with RUNNER_URL a signed request (the secret checked); the container is not started." }),
    model: part().meta({ description: "off with the echo agent; else one short model call." }),
    migrations: z
      .union([z.strictObject({ applied: z.array(z.string()) }), z.strictObject({ error: z.string() })])
      .meta({ description: "The D1 migrations applied (their file names, in order), or why they could not be read." }),
  }),
);

export type DoctorReport = z.infer<ReturnType<typeof doctorReport>>;
