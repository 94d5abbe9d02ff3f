/**
 * The non-loopback peer of `cgp-conform host --listen ADDR`: the address the
 * scenarios of C4 and C7 are served on, vetted before anything runs, and the
 * certificates a run serves TLS with there. The address must be one of this
 * machine's (a server can listen only there) that is not loopback, so that a
 * host can tell from the URL alone only that its provider is remote: that is
 * what C4 and C7 make its transport decide on.
 */
import { BlockList, isIP } from "node:net";
import { isLoopbackHost } from "../protocol/loopback.ts";

/**
 * What an in-process host is handed in place of a --listen address (the
 * selftest): TEST-NET-1 (RFC 5737), reserved for documentation. Nothing
 * listens there and nothing connects there: an in-process host reaches its
 * scenario provider through a stand-in binding, never through a socket.
 */
export const STAND_IN_ADDRESS = "192.0.2.1";

/** Addresses that name no one peer: "this network", multicast, broadcast (node:net matches IPv4-mapped IPv6 against the IPv4 ranges). */
const NO_PEER = new BlockList();
NO_PEER.addSubnet("0.0.0.0", 8, "ipv4");
NO_PEER.addSubnet("224.0.0.0", 4, "ipv4");
NO_PEER.addAddress("255.255.255.255", "ipv4");
NO_PEER.addAddress("::", "ipv6");
NO_PEER.addSubnet("ff00::", 8, "ipv6");

/** The address --listen names, as given or in brackets, without them; undefined when it is no IP address. */
function bare(addr: string): string | undefined {
  const a = addr.trim().replace(/^\[(.*)\]$/, "$1");
  return isIP(a) === 0 || a.includes("%") ? undefined : a.toLowerCase();
}

/** The address to serve on, or why it cannot be: an IP address (v4 or v6) of one peer, and not loopback. */
export function vetListen(addr: string): { address: string } | { problem: string } {
  const a = bare(addr);
  if (a === undefined) {
    const zone = /%/.test(addr) ? " (a zone index, as in fe80::1%eth0, cannot be written in a URL)" : "";
    return {
      problem: `--listen needs an IP address of this machine that is not loopback, such as 192.0.2.1 or 2001:db8::1; got ${JSON.stringify(addr)}${zone}`,
    };
  }
  if (isLoopbackHost(a))
    return {
      problem: `--listen ${addr} is a loopback address: C4 and C7 bind a host's transport toward a non-loopback provider, so name an address of this machine outside 127.0.0.0/8 and ::1`,
    };
  if (NO_PEER.check(a, isIP(a) === 4 ? "ipv4" : "ipv6"))
    return {
      problem: `--listen ${addr} names no one peer (an unspecified, multicast or broadcast address): name an address of this machine that a host can connect to`,
    };
  return { address: a };
}

/** The address as a URL's host: an IPv6 address in brackets. */
export function urlHost(address: string): string {
  return isIP(address) === 6 ? `[${address}]` : address;
}

export interface KeyPair {
  /** PEM. */
  cert: string;
  /** PEM (PKCS#8). */
  key: string;
}

/** How long a run's certificates are valid either side of their making: a run takes minutes, a clock may be a little off. */
const VALID_BEFORE_MS = 60 * 60 * 1000;
const VALID_FOR_MS = 24 * 60 * 60 * 1000;

const validity = (): { notBeforeDate: Date; notAfterDate: Date } => {
  const now = Date.now();
  return { notBeforeDate: new Date(now - VALID_BEFORE_MS), notAfterDate: new Date(now + VALID_FOR_MS) };
};

let authority: Promise<KeyPair> | undefined;
const issued = new Map<string, Promise<KeyPair>>();

/**
 * The certificate authority made for this process's runs, EC P-256, its key
 * held in memory only: the host is given its certificate ({ca}), to trust it
 * for the one server certificate it signs. A CA apart from the server's
 * certificate, because a self-signed certificate that is its own CA is
 * refused as a server's by some TLS stacks (webpki's CaUsedAsEndEntity).
 */
export function runAuthority(): Promise<KeyPair> {
  authority ??= (async () => {
    const { generate } = await import("selfsigned");
    const made = await generate([{ name: "commonName", value: "cgp-conform host run CA" }], {
      keyType: "ec",
      curve: "P-256",
      algorithm: "sha256",
      ...validity(),
      extensions: [
        { name: "basicConstraints", cA: true, pathLenConstraint: 0, critical: true },
        { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
      ],
    });
    return { cert: made.cert, key: made.private };
  })();
  return authority;
}

/** A server certificate for `address` (its subjectAltName an iPAddress), signed by the run's authority. */
export function serverCertificate(address: string): Promise<KeyPair> {
  let made = issued.get(address);
  if (!made) {
    made = (async () => {
      const ca = await runAuthority();
      const { generate } = await import("selfsigned");
      const leaf = await generate([{ name: "commonName", value: address }], {
        keyType: "ec",
        curve: "P-256",
        algorithm: "sha256",
        ...validity(),
        ca: { key: ca.key, cert: ca.cert },
        extensions: [
          { name: "basicConstraints", cA: false, critical: true },
          { name: "keyUsage", digitalSignature: true, critical: true },
          { name: "extKeyUsage", serverAuth: true },
          { name: "subjectAltName", altNames: [{ type: 7, ip: address }] },
        ],
      });
      return { cert: leaf.cert, key: leaf.private };
    })();
    issued.set(address, made);
  }
  return made;
}
