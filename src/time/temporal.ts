/**
 * @module Temporal, loaded on first use: the runtime's own `globalThis.Temporal` when it has one, else
 * `@js-temporal/polyfill`, imported lazily so that neither its code nor its objects cost anything at start-up.
 */
import type { Temporal as TemporalNamespace } from "@js-temporal/polyfill";

export type TemporalApi = typeof TemporalNamespace;

let api: TemporalApi | undefined;

/** Resolves to the Temporal namespace (native when present). */
export async function loadTemporal(): Promise<TemporalApi> {
  if (!api) {
    const native = (globalThis as { Temporal?: TemporalApi }).Temporal;
    api = native ?? (await import("@js-temporal/polyfill")).Temporal;
  }
  return api;
}

/** True when the runtime ships Temporal itself (for the benchmark's label). */
export function hasNativeTemporal(): boolean {
  return typeof (globalThis as { Temporal?: unknown }).Temporal === "object";
}
