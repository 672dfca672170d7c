/**
 * @module What a Durable Object RPC method returns (DESIGN §10): a value, or an expected failure with a code
 * and a sentence. RPC loses error classes, so expected failures are values; only bugs throw.
 */
export type RpcErrorCode = "bad_request" | "not_found" | "conflict";
export type RpcResult<T> = { ok: true; value: T } | { ok: false; error: { code: RpcErrorCode; message: string } };

export const ok = <T>(value: T): RpcResult<T> => ({ ok: true, value });
export const err = <T = never>(code: RpcErrorCode, message: string): RpcResult<T> => ({ ok: false, error: { code, message } });
