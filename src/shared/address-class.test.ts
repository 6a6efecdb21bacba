import { describe, expect, it } from "vitest";
import { ipv6Bytes, refusedAddressReason } from "./address-class.js";

describe("refusedAddressReason", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.1.1", "link-local"],
    ["169.254.169.254", "metadata"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["100.127.255.255", "carrier-grade NAT"],
    ["0.0.0.0", "unspecified"],
    ["255.255.255.255", "broadcast"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["240.0.0.1", "reserved"],
    ["192.0.2.1", "documentation"],
  ])("refuses IPv4 %s as %s", (address, reason) => {
    expect(refusedAddressReason(address)).toContain(reason);
  });

  it.each([
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "link-local"],
    ["febf:ffff::1", "link-local"],
    ["fc00::1", "unique local"],
    ["fd12:3456::1", "unique local"],
    ["fd00:ec2::254", "metadata"],
    ["ff02::1", "multicast"],
    ["fec0::1", "site local"],
    ["2001:db8::1", "documentation"],
    ["::7f00:1", "reserved"],
    ["64:ff9b:1::a00:1", "local NAT64"],
  ])("refuses IPv6 %s as %s", (address, reason) => {
    expect(refusedAddressReason(address)).toContain(reason);
  });

  it.each([
    ["::ffff:127.0.0.1", "loopback address (inside an IPv4-mapped"],
    ["::ffff:7f00:1", "loopback address (inside an IPv4-mapped"],
    ["::ffff:a9fe:a9fe", "metadata address (inside an IPv4-mapped"],
    ["::ffff:0:7f00:1", "loopback address (inside an IPv4-translated"],
    ["64:ff9b::10.0.0.1", "private network address (inside a NAT64"],
    ["64:ff9b::c0a8:101", "private network address (inside a NAT64"],
    ["2002:7f00:1::1", "loopback address (inside a 6to4"],
    ["[::ffff:192.168.0.1]", "private network address (inside an IPv4-mapped"],
    ["fe80::1%eth0", "link-local"],
  ])("refuses IPv6 %s that carries a local IPv4 address", (address, reason) => {
    expect(refusedAddressReason(address)).toContain(reason);
  });

  const publicAddresses = ["93.184.216.34", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700:4700::1111"];
  it.each([...publicAddresses, "::ffff:8.8.8.8", "64:ff9b::808:808"])("allows the public address %s", (address) => {
    expect(refusedAddressReason(address)).toBeUndefined();
  });

  it("refuses what is not an IP address", () => {
    expect(refusedAddressReason("example.com")).toBe("not an IP address");
    expect(refusedAddressReason("127.1")).toBe("not an IP address");
  });

  it("expands IPv6 spellings to the same bytes", () => {
    expect([...ipv6Bytes("::ffff:127.0.0.1")!]).toEqual([...ipv6Bytes("0:0:0:0:0:ffff:7f00:0001")!]);
    expect([...ipv6Bytes("[2001:db8::1]")!].slice(0, 4)).toEqual([0x20, 0x01, 0x0d, 0xb8]);
    expect(ipv6Bytes("1.2.3.4")).toBeUndefined();
  });
});
