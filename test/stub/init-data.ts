/**
 * Telegram's side of the Mini App sign-in, for the worker and browser tests (issue 18): `initData` for a user,
 * signed as Telegram signs it (hex HMAC-SHA256 of the sorted `key=value` lines, keyed with HMAC-SHA256 of the bot
 * token under "WebAppData"). WebCrypto only, so it runs in Node and in workerd alike; the unit test of the check
 * computes its vectors with Node's crypto instead, independently of this.
 */
const encoder = new TextEncoder();

async function hmac(key: BufferSource, data: string): Promise<ArrayBuffer> {
  const k = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return crypto.subtle.sign("HMAC", k, encoder.encode(data));
}

/**
 * initData for `userId`, signed for `botToken`, `authDate` (Unix seconds) now unless given. With `startParam`,
 * as Telegram hands it to a Mini App opened from a group's direct link (`t.me/<bot>/<app>?startapp=<param>`):
 * `chat_instance`, `chat_type` and `start_param`, and no `query_id`.
 */
export async function signInitData(
  botToken: string,
  userId: number,
  options: { authDate?: number; firstName?: string; startParam?: string; chatType?: string } = {},
): Promise<string> {
  const user: [string, string] = [
    "user",
    JSON.stringify({ id: userId, first_name: options.firstName ?? "Ada", language_code: "en", allows_write_to_pm: true }),
  ];
  const authDate: [string, string] = ["auth_date", String(options.authDate ?? Math.floor(Date.now() / 1000))];
  const fields: [string, string][] =
    options.startParam === undefined
      ? [["query_id", "AAHdF6IQAAAAAN0XohDhrOrc"], user, authDate]
      : [user, ["chat_instance", "-5327390851289745212"], ["chat_type", options.chatType ?? "supergroup"], ["start_param", options.startParam], authDate];
  const secret = await hmac(encoder.encode("WebAppData"), botToken);
  const check = fields
    .map(([k, v]) => `${k}=${v}`)
    .sort()
    .join("\n");
  const hash = [...new Uint8Array(await hmac(secret, check))].map((b) => b.toString(16).padStart(2, "0")).join("");
  const signed: [string, string][] = [...fields, ["hash", hash]];
  return signed.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&");
}
