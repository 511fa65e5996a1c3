/**
 * Who a request comes from (lib/http/forwarded.mjs, lib/http/client-address.ts): the socket peer
 * unless it is a trusted proxy, then the right-most X-Forwarded-For hop that is not one; a header
 * the client wrote never picks the address.
 */
import { describe, expect, it } from "vitest";
import { clientAddress, CLIENT_ADDRESS_HEADER, withClientAddress } from "../../lib/http/client-address.ts";
import {
  clientAddressOf,
  clientAddressesStamped,
  markClientAddressesStamped,
  normalizeAddress,
  parseTrustedProxies,
} from "../../lib/http/forwarded.mjs";

describe("clientAddressOf", () => {
  const none = parseTrustedProxies(undefined);
  const proxies = parseTrustedProxies("127.0.0.1, 10.0.0.0/8, fd00::/8");

  it("trusts no proxy by default: X-Forwarded-For is ignored", () => {
    expect(clientAddressOf("::ffff:127.0.0.1", "203.0.113.7", none)).toBe("127.0.0.1");
    expect(clientAddressOf("198.51.100.2", "203.0.113.7, 10.0.0.1", none)).toBe("198.51.100.2");
    expect(clientAddressOf("2001:DB8::1", "203.0.113.7", none)).toBe("2001:db8::1");
  });

  it("ignores X-Forwarded-For from a peer that is not a trusted proxy", () => {
    expect(clientAddressOf("198.51.100.2", "203.0.113.7", proxies)).toBe("198.51.100.2");
  });

  it("takes the right-most untrusted hop behind trusted proxies, whatever the client put to its left", () => {
    expect(clientAddressOf("127.0.0.1", "203.0.113.7", proxies)).toBe("203.0.113.7");
    expect(clientAddressOf("::ffff:127.0.0.1", "1.1.1.1, 203.0.113.7", proxies)).toBe("203.0.113.7");
    expect(clientAddressOf("127.0.0.1", "1.1.1.1, 203.0.113.7, 10.1.2.3, 10.9.9.9", proxies)).toBe("203.0.113.7");
    expect(clientAddressOf("127.0.0.1", ["1.1.1.1, 203.0.113.7", "10.1.2.3"], proxies)).toBe("203.0.113.7");
    expect(clientAddressOf("fd00::5", "2001:db8::7, fd00::9", proxies)).toBe("2001:db8::7");
    expect(clientAddressOf("127.0.0.1", " ::FFFF:203.0.113.8 ", proxies)).toBe("203.0.113.8");
  });

  it("never takes an address no trusted proxy vouched for", () => {
    // Nothing forwarded, or junk where the client's address should be: the last trusted hop speaks for itself.
    expect(clientAddressOf("127.0.0.1", undefined, proxies)).toBe("127.0.0.1");
    expect(clientAddressOf("127.0.0.1", "", proxies)).toBe("127.0.0.1");
    expect(clientAddressOf("127.0.0.1", "203.0.113.7, not-an-ip", proxies)).toBe("127.0.0.1");
    expect(clientAddressOf("127.0.0.1", "203.0.113.7, not-an-ip, 10.1.2.3", proxies)).toBe("10.1.2.3");
    expect(clientAddressOf("127.0.0.1", "10.1.2.3, 10.4.5.6", proxies)).toBe("10.1.2.3");
    expect(clientAddressOf(undefined, "203.0.113.7", proxies)).toBe("unknown");
  });

  it("rejects TRUSTED_PROXIES entries that are not addresses or ranges", () => {
    for (const entry of ["proxy.internal", "10.0.0.0/33", "fd00::/129", "10.0.0.1/", "10.0.0.0/8/8", "10.0.0.0/-1"]) {
      expect(() => parseTrustedProxies(`127.0.0.1,${entry}`), entry).toThrow(/TRUSTED_PROXIES/);
    }
    expect(() => parseTrustedProxies(" , ")).not.toThrow();
  });

  it("writes one client one way", () => {
    expect(normalizeAddress("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(normalizeAddress("FE80::1%eth0")).toBe("fe80::1");
    expect(normalizeAddress("192.0.2.1:443")).toBeNull();
    expect(normalizeAddress("unknown")).toBeNull();
  });
});

describe("clientAddress", () => {
  const spoofed = new Headers({ [CLIENT_ADDRESS_HEADER]: "203.0.113.66" });

  it("believes nothing in a process server.mjs does not stamp, then believes only the stamp", () => {
    expect(clientAddressesStamped()).toBe(false);
    expect(clientAddress(spoofed)).toBe("unknown");
    expect(withClientAddress(new Request("http://console.test/", { headers: spoofed })).headers.has(CLIENT_ADDRESS_HEADER)).toBe(false);

    markClientAddressesStamped();
    expect(clientAddress(new Headers({ [CLIENT_ADDRESS_HEADER]: "198.51.100.4" }))).toBe("198.51.100.4");
    expect(clientAddress(new Headers())).toBe("unknown");
    expect(withClientAddress(new Request("http://console.test/", { headers: spoofed })).headers.get(CLIENT_ADDRESS_HEADER)).toBe(
      "203.0.113.66",
    );
  });
});
