/**
 * The client key of sign-in throttling (src/http/sign-in-limit.ts; issue 22): an IPv4 address whole, an IPv6
 * address by its /64 however it is written, an IPv4 address written as IPv6 as that IPv4 address, and text that
 * is not an address as itself.
 */
import { describe, expect, it } from "vitest";
import { clientKey } from "../../src/http/sign-in-limit";

describe("clientKey", () => {
  it("keeps an IPv4 address whole", () => {
    expect(clientKey("192.0.2.1")).toBe("192.0.2.1");
    expect(clientKey(" 198.51.100.7 ")).toBe("198.51.100.7");
  });

  it("takes an IPv6 address's /64, the same for every way of writing it", () => {
    for (const address of [
      "2001:db8:22:1::1",
      "2001:0DB8:0022:0001:ffff:0000:0000:0002",
      "2001:db8:22:1:0:0:0:0",
      "2001:db8:22:1::",
      "2001:db8:22:1:a:b:c:d",
    ]) {
      expect(clientKey(address), address).toBe("2001:db8:22:1::/64");
    }
    expect(clientKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(clientKey("::1")).toBe("0:0:0:0::/64");
    expect(clientKey("fe80::1:2:3:4")).toBe("fe80:0:0:0::/64");
    expect(clientKey("2001:db8:22:2::1")).not.toBe(clientKey("2001:db8:22:1::1"));
  });

  it("reads an IPv4-mapped address as the IPv4 client", () => {
    expect(clientKey("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(clientKey("0:0:0:0:0:ffff:192.0.2.1")).toBe("192.0.2.1");
  });

  it("keeps what is not an address as it is", () => {
    for (const text of ["2001:db8::1::2", "2001:db8:22:1:0:0:0:0:9", "2001:db8:zz::1", "1:2:3:4:5:6:7"]) expect(clientKey(text), text).toBe(text);
  });
});
