/**
 * The signed tokens of the page's and the Mini App's sessions (src/http/signed-token.ts): their form, and that
 * a token opens only with its own key, its own form and before its expiry. Plain Node: WebCrypto only.
 */
import { describe, expect, it } from "vitest";
import { openToken, signToken, tokenKey } from "../../src/http/signed-token";

const EXPIRES = 1_900_000_000; // Unix seconds
const NOW = (EXPIRES - 60) * 1000;
const APP = /^app1\.([1-9]\d{0,15})$/;

describe("signed tokens", () => {
  it("are <fields>.<expiry>.<nonce>.<mac> and open with their key and form, giving the fields and the expiry", async () => {
    const key = await tokenKey("a secret");
    const token = await signToken(key, "app1.123456789", EXPIRES);
    expect(token).toMatch(/^app1\.123456789\.1900000000\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
    const opened = await openToken(key, token, APP, NOW);
    expect(opened?.fields[1]).toBe("123456789");
    expect(opened?.expiresAt).toBe(EXPIRES * 1000);
    expect(await signToken(key, "app1.123456789", EXPIRES)).not.toBe(token); // a fresh nonce each time
  });

  it("do not open with another key, another form, a changed field, a changed MAC or at their expiry", async () => {
    const key = await tokenKey("a secret");
    const token = await signToken(key, "app1.123456789", EXPIRES);
    expect(await openToken(await tokenKey("another secret"), token, APP, NOW)).toBeNull();
    expect(await openToken(key, token, /^v1$/, NOW)).toBeNull();
    expect(await openToken(key, await signToken(key, "v1", EXPIRES), APP, NOW)).toBeNull();
    expect(await openToken(key, token.replace("123456789", "123456788"), APP, NOW)).toBeNull();
    const mac = token.slice(-43);
    expect(await openToken(key, token.slice(0, -43) + (mac[0] === "A" ? "B" : "A") + mac.slice(1), APP, NOW)).toBeNull();
    expect(await openToken(key, token, APP, EXPIRES * 1000)).toBeNull();
    expect(await openToken(key, `x.${token}`, APP, NOW)).toBeNull();
  });
});
