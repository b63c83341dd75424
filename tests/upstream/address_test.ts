import assert from "node:assert/strict";
import { checkAddress, parseIpv4, parseIpv6 } from "../../src/upstream/address.ts";

Deno.test("checkAddress refuses special-purpose IPv4 ranges and allows public ones", () => {
  const refused: [string, string][] = [
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "link-local"],
    ["0.0.0.0", "unspecified / this-network"],
    ["100.64.0.1", "shared address space (CGNAT)"],
    ["224.0.0.251", "multicast"],
    ["255.255.255.255", "reserved / broadcast"],
    ["198.18.0.1", "benchmarking"],
    ["192.0.2.1", "documentation"],
  ];
  for (const [ip, reason] of refused) {
    assert.deepEqual(checkAddress(ip), { allowed: false, reason, loopback: reason === "loopback" }, ip);
  }
  for (const ip of ["93.184.216.34", "172.32.0.1", "8.8.8.8", "100.128.0.1"]) {
    assert.deepEqual(checkAddress(ip), { allowed: true }, ip);
  }
});

Deno.test("checkAddress refuses special IPv6 ranges and IPv4 hidden inside IPv6", () => {
  const refused: [string, string][] = [
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["::", "unspecified"],
    ["::ffff:127.0.0.1", "loopback (IPv4-mapped)"],
    ["[::ffff:7f00:1]", "loopback (IPv4-mapped)"],
    ["::ffff:a9fe:a9fe", "link-local (IPv4-mapped)"],
    ["::10.0.0.1", "private (IPv4-compatible)"],
    ["64:ff9b::192.168.0.1", "private (NAT64)"],
    ["2002:7f00:1::", "loopback (6to4)"],
    ["fc00::1", "unique-local"],
    ["fd12:3456::1", "unique-local"],
    ["fe80::1", "link-local"],
    ["ff02::1", "multicast"],
    ["2001:db8::1", "documentation"],
    ["2001:0:4136:e378::1", "Teredo"],
  ];
  for (const [ip, reason] of refused) {
    assert.equal(checkAddress(ip).allowed ? "allowed" : (checkAddress(ip) as { reason: string }).reason, reason, ip);
  }
  for (const ip of ["2606:4700:4700::1111", "2a00:1450:4001:82b::200e", "::ffff:8.8.8.8"]) {
    assert.equal(checkAddress(ip).allowed, true, ip);
  }
});

Deno.test("address parsers accept canonical forms only", () => {
  assert.equal(parseIpv4("127.0.0.1"), 0x7f000001);
  assert.equal(parseIpv4("0177.0.0.1"), undefined, "octal is normalised by the URL parser, not here");
  assert.equal(parseIpv4("256.0.0.1"), undefined);
  assert.deepEqual(parseIpv6("::ffff:127.0.0.1"), [0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
  assert.equal(parseIpv6("1:2:3:4:5:6:7:8:9"), undefined);
  assert.equal(parseIpv6("fe80::1%eth0"), undefined);
  assert.equal(checkAddress("example.org").allowed, false);
});
