/**
 * Sign-in throttling (docs/api.md; issue 22) through the real Rate Limiting binding of wrangler.toml (Miniflare's):
 * past 10 failed `POST /admin/session` or `POST /app/session` from one client address (`CF-Connecting-IP`, an
 * IPv6 address by its /64) in a minute, every attempt from it, a right one too, is 429 `rate_limited` with
 * `Retry-After: 60`; other addresses are not touched, and right sign-ins do not use up the failures.
 *
 * Miniflare counts in windows of the wall clock's minutes, so each test starts its attempts early in a minute. The
 * counts are kept for the whole run (every file's), so each test has addresses of its own, from the documentation
 * ranges. A request without the header counts under one shared key.
 */
import { describe, expect, it } from "vitest";
import { RATE_LIMITED_TEXT } from "../../src/http/sign-in-limit";
import { INIT_DATA_TEXT } from "../../src/telegram/init-data";
import { signInitData } from "../stub/init-data";
import { call, deployed, postJson } from "./helpers";

const TOKEN = "admin-token-of-the-sign-in-limit-tests";
const BOT = "7000005190:AAE_sign-in-limit-tests_abcdefghij";
const USER = 5_190_001;
const withToken = deployed({ ADMIN_TOKEN: TOKEN, TELEGRAM_BOT_TOKEN: BOT, TELEGRAM_WEBHOOK_SECRET: "hook-secret", ALLOWED_USER_IDS: String(USER) });
const SITE = "http://localhost";

/** Waits for the next minute when this one has less than 10 s left, so that a test's attempts share a window. */
async function earlyInAMinute(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 10_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

async function answer(res: Response) {
  const text = await res.text();
  return {
    status: res.status,
    retryAfter: res.headers.get("Retry-After"),
    cookie: res.headers.get("Set-Cookie") !== null,
    body: text === "" ? null : JSON.parse(text),
  };
}
const adminSignIn = async (token: string, address: string) =>
  answer(await call("/admin/session", postJson({ token }, { Origin: SITE, "CF-Connecting-IP": address }), withToken));

const wrong = { status: 401, retryAfter: null, cookie: false, body: { error: { code: "unauthorized", message: "The token does not match ADMIN_TOKEN." } } };
const limited = { status: 429, retryAfter: "60", cookie: false, body: { error: { code: "rate_limited", message: RATE_LIMITED_TEXT } } };
const signedIn = { status: 200, retryAfter: null, cookie: true, body: { expiresAt: expect.any(String) } };

describe("POST /admin/session, throttled", () => {
  it("answers 10 wrong tokens 401, then 429 with Retry-After: 60 even for the right one; another address is not touched", { timeout: 60_000 }, async () => {
    await earlyInAMinute();
    for (let i = 1; i <= 10; i++) expect(await adminSignIn(`wrong-${i}`, "2001:db8:22:1::1"), `attempt ${i}`).toEqual(wrong);
    expect(await adminSignIn(TOKEN, "2001:db8:22:1::1")).toEqual(limited);
    expect(await adminSignIn("wrong-11", "2001:db8:22:1::1")).toEqual(limited);
    // The same /64 is the same client; another /64 and an IPv4 address are others.
    expect(await adminSignIn(TOKEN, "2001:0db8:0022:0001:ffff:0:0:2")).toEqual(limited);
    expect(await adminSignIn(TOKEN, "2001:db8:22:2::1")).toEqual(signedIn);
    expect(await adminSignIn("wrong", "2001:db8:22:2::1")).toEqual(wrong);
    expect(await adminSignIn(TOKEN, "192.0.2.22")).toEqual(signedIn);
  });

  it("does not count right sign-ins as failures", { timeout: 60_000 }, async () => {
    await earlyInAMinute();
    const address = "2001:db8:22:3::1";
    for (let i = 1; i <= 5; i++) expect(await adminSignIn(TOKEN, address), `sign-in ${i}`).toEqual(signedIn);
    for (let i = 1; i <= 9; i++) expect(await adminSignIn(`wrong-${i}`, address), `attempt ${i}`).toEqual(wrong);
    expect(await adminSignIn(TOKEN, address)).toEqual(signedIn);
    expect(await adminSignIn("wrong-10", address)).toEqual(wrong);
    expect(await adminSignIn(TOKEN, address)).toEqual(limited);
  });
});

describe("POST /app/session, throttled", () => {
  it("answers 10 bad initData 401, then 429 even for good initData; another address signs in", { timeout: 60_000 }, async () => {
    await earlyInAMinute();
    const signIn = async (initData: string, address: string) =>
      answer(await call("/app/session", postJson({ initData }, { Origin: SITE, "CF-Connecting-IP": address }), withToken));
    const good = await signInitData(BOT, USER);
    // The signature with its first digit changed.
    const forged = good.replace(/hash=([0-9a-f])/, (_, digit: string) => `hash=${digit === "0" ? "1" : "0"}`);
    const bad = { status: 401, retryAfter: null, cookie: false, body: { error: { code: "unauthorized", message: INIT_DATA_TEXT.badHash } } };
    for (let i = 1; i <= 10; i++) expect(await signIn(forged, "2001:db8:22:4::9"), `attempt ${i}`).toEqual(bad);
    expect(await signIn(good, "2001:db8:22:4::9")).toEqual(limited);
    expect(await signIn(good, "2001:db8:22:5::9")).toEqual({ ...signedIn, body: expect.objectContaining({ chatId: String(USER) }) });
  });
});
