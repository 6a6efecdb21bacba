import { describe, expect, it } from "vitest";
import { ServiceError } from "./service-error.js";
import { type GuardPolicy, guardUrl } from "./url-guard.js";

const guarded: GuardPolicy = { allowPrivate: false, trustedOrigins: new Set() };
const peer = { name: "test", address: "test" };

function refusal(url: string, policy = guarded): ServiceError | undefined {
  try {
    guardUrl(new URL(url), peer, policy);
    return undefined;
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
}

describe("guardUrl", () => {
  it.each([
    ["http://127.0.0.1/", "127.0.0.1 is a loopback address"],
    ["http://2130706433/", "127.0.0.1 is a loopback address"],
    ["http://0177.0.0.1/", "127.0.0.1 is a loopback address"],
    ["http://0x7f.1/", "127.0.0.1 is a loopback address"],
    ["http://0x7f000001/", "127.0.0.1 is a loopback address"],
    ["http://127.1/", "127.0.0.1 is a loopback address"],
    ["http://127.0.0.1./", "127.0.0.1 is a loopback address"],
    ["http://１２７.０.０.１/", "127.0.0.1 is a loopback address"],
    ["http://0.0.0.0/", "0.0.0.0 is an unspecified address"],
    ["http://0/", "0.0.0.0 is an unspecified address"],
    ["http://[::]/", ":: is an unspecified address"],
    ["http://[::1]/", "::1 is a loopback address"],
    ["http://[::ffff:7f00:1]/", "inside an IPv4-mapped address"],
    ["http://[::ffff:127.0.0.1]/", "inside an IPv4-mapped address"],
    ["http://[64:ff9b::10.0.0.1]/", "inside a NAT64 address"],
    ["http://10.0.0.8:8080/admin", "private network address"],
    ["http://172.16.5.4/", "private network address"],
    ["http://192.168.0.1/", "private network address"],
    ["http://100.64.0.1/", "carrier-grade NAT"],
    ["http://169.254.169.254/latest/meta-data/", "cloud metadata address"],
    ["http://[fd00:ec2::254]/", "cloud metadata address"],
    ["http://metadata.google.internal/computeMetadata/v1/", "cloud metadata service"],
    ["http://[fe80::1]/", "link-local address"],
    ["http://[fd12::1]/", "unique local"],
    ["http://[ff02::1]/", "multicast address"],
    ["http://224.0.0.251/", "multicast address"],
    ["http://255.255.255.255/", "broadcast address"],
    ["http://app.localhost/", "app.localhost is a loopback name"],
  ])("refuses %s before connecting", (url, reason) => {
    const error = refusal(url);
    expect(error?.kind).toBe("refused");
    expect(error?.message).toContain(reason);
    expect(error?.message).toContain("MARVIN_ALLOW_PRIVATE_URLS=1");
  });

  it.each(["file:///etc/passwd", "ftp://example.org/file", "gopher://127.0.0.1:25/", "data:text/plain,hi"])(
    "refuses the non-http scheme of %s, even when private addresses are allowed",
    (url) => {
      const allowing = { allowPrivate: true, trustedOrigins: new Set<string>() };
      expect(refusal(url, allowing)?.message).toMatch(/only fetches http and https/);
    },
  );

  it("lets public literals through without a connect-time lookup, and checks names at connect time", () => {
    expect(guardUrl(new URL("https://93.184.216.34/"), peer, guarded)).toBeUndefined();
    expect(guardUrl(new URL("https://[2606:4700:4700::1111]/"), peer, guarded)).toBeUndefined();
    expect(guardUrl(new URL("https://example.org/"), peer, guarded)).toBeTypeOf("function");
    expect(guardUrl(new URL("http://localhost:3000/"), peer, guarded)).toBeTypeOf("function");
  });

  it("does not apply to trusted origins or when MARVIN_ALLOW_PRIVATE_URLS=1", () => {
    const trusting = { allowPrivate: false, trustedOrigins: new Set(["http://127.0.0.1:8080"]) };
    expect(refusal("http://127.0.0.1:8080/x", trusting)).toBeUndefined();
    expect(refusal("http://127.0.0.1:8081/x", trusting)?.kind).toBe("refused");
    expect(refusal("http://0x7f.1/", { allowPrivate: true, trustedOrigins: new Set() })).toBeUndefined();
  });
});
