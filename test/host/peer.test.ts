import { X509Certificate, createPrivateKey, createPublicKey } from "node:crypto";
import t from "tap";
import { runAuthority, serverCertificate, urlHost, vetListen } from "../../src/host/peer.ts";

t.test("--listen takes an IP address of one peer that is not loopback, and nothing else", async (t) => {
  for (const [given, address] of [
    ["192.0.2.1", "192.0.2.1"],
    ["10.200.0.1", "10.200.0.1"],
    ["2001:db8::1", "2001:db8::1"],
    ["[2001:DB8::1]", "2001:db8::1"],
  ] as const)
    t.same(vetListen(given), { address }, given);
  for (const [given, why] of [
    ["127.0.0.1", /is a loopback address/],
    ["127.8.9.10", /is a loopback address/],
    ["::1", /is a loopback address/],
    ["::ffff:127.0.0.1", /is a loopback address/],
    ["0.0.0.0", /names no one peer/],
    ["0.1.2.3", /names no one peer/],
    ["::", /names no one peer/],
    ["::ffff:0.0.0.0", /names no one peer/],
    ["224.0.0.1", /names no one peer/],
    ["ff02::1", /names no one peer/],
    ["255.255.255.255", /names no one peer/],
    ["localhost", /needs an IP address/],
    ["example.com", /needs an IP address/],
    ["192.0.2.1:8080", /needs an IP address/],
    ["10.1", /needs an IP address/],
    ["", /needs an IP address/],
    ["fe80::1%eth0", /a zone index.* cannot be written in a URL/],
  ] as const) {
    const r = vetListen(given);
    t.ok("problem" in r, `${JSON.stringify(given)} is refused`);
    t.match("problem" in r ? r.problem : "", why, given);
  }
});

t.test("an IPv6 address is bracketed in a URL", async (t) => {
  t.equal(urlHost("2001:db8::1"), "[2001:db8::1]");
  t.equal(urlHost("192.0.2.1"), "192.0.2.1");
});

t.test("the run's CA signs a server certificate for the address, and only that CA is one", async (t) => {
  const ca = await runAuthority();
  t.equal(await runAuthority(), ca, "one CA per process");
  const leaf = await serverCertificate("192.0.2.1");
  t.equal(await serverCertificate("192.0.2.1"), leaf, "one certificate per address");
  const caCert = new X509Certificate(ca.cert);
  const cert = new X509Certificate(leaf.cert);
  t.ok(caCert.ca, "the CA is a CA");
  t.notOk(cert.ca, "the server's certificate is not: it is no self-signed CA used as an end entity");
  t.ok(cert.verify(caCert.publicKey), "signed by the CA");
  t.ok(cert.checkIssued(caCert), "issued by the CA");
  t.equal(cert.checkIP("192.0.2.1"), "192.0.2.1", "valid for the address");
  t.equal(cert.checkIP("192.0.2.2"), undefined, "and for no other");
  t.match(cert.subjectAltName ?? "", /^IP Address:192\.0\.2\.1$/);
  t.same(cert.keyUsage, ["1.3.6.1.5.5.7.3.1"], "for TLS servers");
  const now = Date.now();
  t.ok(new Date(cert.validFrom).getTime() < now && now < new Date(cert.validTo).getTime(), "valid now");
  t.ok(new Date(cert.validTo).getTime() - now <= 25 * 60 * 60 * 1000, "and for a day at most");
  t.equal(
    createPublicKey(createPrivateKey(leaf.key)).export({ format: "pem", type: "spki" }),
    cert.publicKey.export({ format: "pem", type: "spki" }),
    "its key is the certificate's",
  );
  t.equal(cert.publicKey.asymmetricKeyDetails?.namedCurve, "prime256v1", "EC P-256");
  const v6 = new X509Certificate((await serverCertificate("2001:db8::1")).cert);
  t.equal(v6.checkIP("2001:db8::1"), "2001:db8::1", "an IPv6 address too");
});
