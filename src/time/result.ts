/** @module The result of parsing user input in the time module: a value, or one sentence saying what to fix. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

export const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
export const fail = <T = never>(error: string): Parsed<T> => ({ ok: false, error });
