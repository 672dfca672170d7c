/**
 * @module What the auth rules read from a request, read one way (docs/api.md): whether its method carries a
 * body, its media type without parameters, and the token of an `Authorization: Bearer` header.
 */

/** The methods whose body the API reads (and whose Content-Type the CSRF rules check). */
export const BODY_METHODS: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH"]);

/** `application/json; charset=utf-8` → `application/json`; none → "". */
export function mediaType(value: string | null | undefined): string {
  return (value ?? "").split(";")[0]!.trim().toLowerCase();
}

/** The token of `Authorization: Bearer <token>`, or null for any other header (or none). */
export function bearer(header: string | null | undefined): string | null {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? "");
  return match ? match[1]! : null;
}
