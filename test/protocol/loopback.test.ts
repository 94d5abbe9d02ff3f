import t from "tap";
import { consentNeeded, missingConsent } from "../../src/verdict/consent.ts";
import { isLoopbackHost, vetUrl } from "../../src/protocol/loopback.ts";

// Pure: none of these cases resolves a name or opens a connection.
const loopback: Array<[string, boolean]> = [
  ["localhost", true],
  ["LOCALHOST", true],
  // A name is not an address: only the exact name localhost, which the transport connects to 127.0.0.1 itself.
  ["api.localhost", false],
  ["evil.localhost", false],
  ["127.0.0.1", true],
  ["127.255.0.9", true],
  ["[::1]", true],
  ["::ffff:127.0.0.1", true],
  // As a URL spells it: WHATWG URL parsing rewrites ::ffff:127.0.0.1 as hex.
  ["[::ffff:7f00:1]", true],
  ["[0:0:0:0:0:0:0:1]", true],
  ["::ffff:10.0.0.1", false],
  ["[::2]", false],
  ["10.0.0.1", false],
  ["192.168.1.1", false],
  ["example.com", false],
  ["127.0.0.1.example.com", false],
  ["localhost.example.com", false],
];
for (const [host, want] of loopback) t.equal(isLoopbackHost(host), want, `${host} is ${want ? "" : "not "}loopback`);

t.test("C7: plain http to a non-loopback host is refused before anything is sent", async (t) => {
  for (const url of ["http://example.com/cgp", "http://10.0.0.1:8080/", "http://127.0.0.1.example.com/", "http://evil.localhost:8080/"]) {
    t.throws(() => vetUrl(url), { name: "InsecureTransportError", message: /C7/ }, url);
  }
  for (const url of ["http://127.0.0.1:9/", "http://localhost:9/", "http://[::1]:9/", "http://[::ffff:127.0.0.1]:1/", "http://127.1/", "https://example.com/"])
    t.doesNotThrow(() => vetUrl(url), url);
  t.throws(() => vetUrl("http://[::ffff:10.0.0.1]:1/"), { name: "InsecureTransportError" });
  t.throws(() => vetUrl("ftp://127.0.0.1/"), /http: or https:/);
  t.throws(() => vetUrl("https://user:pw@example.com/"), /credentials in the URL/);
});

t.test("C8: a URL that fails to parse is never echoed with its userinfo", async (t) => {
  let message = "";
  try {
    vetUrl("https://user:s3cr3t-pw-0042@exa mple.com:99999/");
  } catch (e) {
    message = (e as Error).message;
  }
  t.match(message, /not a URL/);
  t.notMatch(message, /s3cr3t/);
});

t.test("C4: https to a .localhost name needs egress consent; only localhost itself is loopback", async (t) => {
  const local = { provider: { name: "p", version: "1", data_flow: { reads: true, writes: false, egress: false } } };
  t.same(consentNeeded(local, "https://evil.localhost/").scopes, ["egress"]);
  t.same(consentNeeded(local, "https://localhost:8443/").scopes, []);
});

t.test("C4: a non-loopback provider needs egress consent whatever it declares", async (t) => {
  const local = { provider: { name: "p", version: "1", data_flow: { reads: true, writes: false, egress: false } } };
  t.same(consentNeeded(local, undefined).scopes, []);
  t.same(consentNeeded(local, "http://127.0.0.1:8080/").scopes, []);
  t.same(consentNeeded(local, "https://provider.example/").scopes, ["egress"]);
  t.match(consentNeeded(local, "https://provider.example/").why, /C4/);
});

t.test("C1/C2/C6: egress scopes and the boolean gate", async (t) => {
  const flow = (f: object) => ({ provider: { name: "p", version: "1", data_flow: { reads: true, writes: false, ...f } } });
  t.same(consentNeeded(flow({ egress: true }), undefined).scopes, ["egress"], "egress with no scopes: the boolean gate");
  t.same(
    consentNeeded(flow({ egress: true, egress_scopes: ["local-only", "org-tenant", "acme:vectors"] }), undefined).scopes,
    ["org-tenant", "acme:vectors"],
    "an unknown custom scope is off-machine",
  );
  const need = consentNeeded(flow({ egress: true, egress_scopes: ["org-tenant", "third-party-model"] }), undefined);
  t.same(missingConsent(need, ["org-tenant"]), ["third-party-model"]);
  t.same(missingConsent(need, ["all"]), []);
  t.same(missingConsent(need, ["egress"]), ["org-tenant", "third-party-model"], "the boolean grant does not satisfy a scope gate (C6)");
});
