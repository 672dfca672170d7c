/** Shared helpers of the worker tier: call the app with a modified env, build JSON requests. */
import { env } from "cloudflare:workers";
import { app } from "../../src/http/app";

export { CREATE_FIELDS, TOOL_NAMES } from "../tool-names";

/** The test env (CUCKOO_DEV=1, as under `npm run dev`) with some vars replaced; `undefined` unsets one. */
export function envWith(overrides: Record<string, string | undefined> = {}): Env {
  const copy: Record<string, unknown> = { ...env };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) delete copy[key];
    else copy[key] = value;
  }
  return copy as unknown as Env;
}

/** Deployed mode: CUCKOO_DEV=0. */
export const deployed = (overrides: Record<string, string | undefined> = {}) => envWith({ CUCKOO_DEV: "0", ...overrides });

/** The app answering `path` directly (no server), with `testEnv`. */
export function call(path: string, init: RequestInit = {}, testEnv: Env = envWith()): Promise<Response> {
  return Promise.resolve(app.request(path, init, testEnv));
}

/** A POST with a JSON body and the JSON content type. */
export function postJson(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  };
}

export type Envelope = { error: { code: string; message: string } };

/** Reads an error envelope, asserting nothing but the shape. */
export async function envelope(res: Response): Promise<Envelope> {
  return (await res.json()) as Envelope;
}
