/**
 * `cgp-conform host --listen ADDR` on the real path: cgp-conform serves the
 * scenarios of C4 and C7 on ADDR, over TCP and TLS, and the host reaches
 * them there. ADDR is only ever an address this test adds to the loopback
 * interface of a network namespace it makes itself (`unshare -rn`: a user
 * and a network namespace, no root needed), and cgp-conform and the host
 * both run inside it, so nothing reaches an interface of this machine. The
 * namespace is checked to hold no interface but its own loopback before
 * anything runs there. Where no namespace can be made (no unshare or ip,
 * user namespaces not allowed), the tests skip, saying why: they never fall
 * back to a real interface.
 */
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import t from "tap";
import { CGP, cli, RUN_TMP } from "./helpers/live.ts";
import type { RunReport } from "../src/verdict/report.ts";

/** TEST-NET-1 and the IPv6 documentation prefix (RFC 5737, RFC 3849): addresses no network routes. */
const ADDR = "192.0.2.1";
const ADDR6 = "2001:db8::1";

/** Bring up the namespace's loopback, add NS_ADDRS to it, refuse to go on unless it is the only interface, and run the command. */
const SETUP = [
  "set -e",
  "ip link set lo up",
  'for a in $NS_ADDRS; do ip addr add "$a" dev lo; done',
  'if [ "$(ip -o link show | wc -l)" -ne 1 ]; then echo "not a namespace of its own: $(ip -o link show)" >&2; exit 97; fi',
  'exec "$@"',
].join("\n");

function inNamespace(addrs: string[], argv: string[]) {
  return execa("unshare", ["-rn", "sh", "-c", SETUP, "netns", ...argv], {
    reject: false,
    env: { NO_COLOR: "1", TMPDIR: RUN_TMP, NS_ADDRS: addrs.join(" ") },
    stdin: "ignore",
  });
}

/** Why no namespace with these addresses can be made here, or undefined when one can. */
async function unavailable(addrs: string[]): Promise<string | undefined> {
  const r = await inNamespace(addrs, ["ip", "-o", "addr", "show", "dev", "lo"]);
  if (r.exitCode === 97) throw new Error(`unshare -rn gave a namespace with other interfaces: ${r.stderr}`);
  // No unshare at all comes back as a spawn error, with no exit code and nothing on stderr.
  if (r.exitCode !== 0)
    return `no network namespace with ${addrs.join(", ")} can be made here (unshare -rn: ${String(r.stderr).trim() || `could not be started, ${(r.cause as NodeJS.ErrnoException | undefined)?.code ?? "no reason given"}`})`;
  return addrs.every((a) => String(r.stdout).includes(a.split("/")[0]!)) ? undefined : `the namespace's loopback did not take ${addrs.join(", ")}`;
}

const skipV4 = await unavailable([`${ADDR}/32`]);
const skipV6 = skipV4 ?? (await unavailable([`${ADDR6}/128`]));

async function hostIn(addrs: string[], listen: string, args: string[], command: string[]) {
  const r = await inNamespace(addrs, [...CGP, "host", "--json", "--timeout", "8000", "--listen", listen, ...args, "--", ...command]);
  let report: RunReport | undefined;
  try {
    report = JSON.parse(String(r.stdout)) as RunReport;
  } catch {
    report = undefined;
  }
  return { exitCode: r.exitCode, stderr: String(r.stderr), report };
}

const referenceHost = (...rest: string[]): string[] => [...CGP, "reference-host", "--timeout", "1500", ...rest, "--url", "{url}"];
const status = (r: RunReport | undefined, id: string) => r?.results.find((x) => x.id === id);
const failed = (r: RunReport | undefined) =>
  r?.results
    .filter((x) => x.status !== "pass" && x.status !== "skip")
    .map((x) => `${x.id} ${x.status}`)
    .sort();

t.test("the reference host, honest and with one defect, against providers on a non-loopback address", { skip: skipV4 }, async (t) => {
  const saved = join(mkdtempSync(join(RUN_TMP, "listen-")), "host.ndjson");
  const [honest, c4, c7] = await Promise.all([
    hostIn([`${ADDR}/32`], ADDR, ["--transcript", saved], referenceHost()),
    hostIn([`${ADDR}/32`], ADDR, [], referenceHost("--misbehave", "C4-trust-egress-claim")),
    hostIn([`${ADDR}/32`], ADDR, [], referenceHost("--misbehave", "C7-plaintext-remote")),
  ]);
  t.equal(honest.exitCode, 0, `honest: exit 0 (${honest.stderr.slice(-400)})`);
  t.same(failed(honest.report), [], "honest: every host check passes or skips");
  for (const id of ["host:C4", "host:C7"]) t.equal(status(honest.report, id)?.status, "pass", `honest: ${id} is judged, and passes`);
  t.match(
    status(honest.report, "host:C4")?.evidence[0]?.message,
    new RegExp(`the host sent no query to the provider on https://${ADDR.replace(/\./g, "\\.")}:\\d+/ \\(line \\d+\\), which is not loopback`),
  );
  t.match(
    status(honest.report, "host:C7")
      ?.evidence.map((e) => e.message)
      .join("\n"),
    /gives the transport as its reason at line \d+: .*insecure_transport/,
  );
  // Offline, outside the namespace: the transcript holds what the verdicts need, the address it was served on included.
  const replayed = await cli(["replay", "--json", saved]);
  t.equal(replayed.exitCode, 0, replayed.stderr);
  t.same(
    (JSON.parse(replayed.stdout) as RunReport).results.map((x) => [x.id, x.status, x.evidence.map((e) => e.message)]),
    honest.report?.results.map((x) => [x.id, x.status, x.evidence.map((e) => e.message)]),
    "replay gives the live verdicts",
  );

  t.equal(c4.exitCode, 1, "C4-trust-egress-claim: not conformant");
  t.same(failed(c4.report), ["host:C4 fail"], "C4-trust-egress-claim fails host:C4 alone");
  t.match(
    status(c4.report, "host:C4")?.evidence.find((e) => e.status === "fail")?.message,
    /transmitted a query payload .* declares data_flow\.egress: false, with no consent recorded/,
  );
  t.equal(c7.exitCode, 1, "C7-plaintext-remote: not conformant");
  t.same(failed(c7.report), ["host:C7 fail"], "C7-plaintext-remote fails host:C7 alone");
  t.match(
    status(c7.report, "host:C7")?.evidence.find((e) => e.status === "fail")?.message,
    new RegExp(`over plain http:// to a provider on http://${ADDR.replace(/\./g, "\\.")}:\\d+/`),
  );
});

t.test("a handshake in plaintext to the non-loopback provider, the query refused: C7 fails on the handshake", { skip: skipV4 }, async (t) => {
  const r = await hostIn([`${ADDR}/32`], ADDR, ["--only", "C4,C7"], referenceHost("--misbehave", "C7-plaintext-handshake"));
  t.same(failed(r.report), ["host:C7 fail"], r.stderr.slice(-400));
  t.match(
    status(r.report, "host:C7")?.evidence.find((e) => e.status === "fail")?.message,
    new RegExp(`the host sent 2 requests \\(handshake, shutdown\\) over plain http:// to a provider on http://${ADDR.replace(/\./g, "\\.")}:\\d+/`),
  );
});

t.test("a host written apart, trusting {ca} or not, over TCP and TLS", { skip: skipV4 }, async (t) => {
  // Posts a handshake, a query and a shutdown to whatever URL it is given: no transport rule at all.
  const naive = [
    "const fs = require('node:fs');",
    "const url = process.argv[1];",
    "const mod = require(url.startsWith('https:') ? 'node:https' : 'node:http');",
    "const ca = process.argv[2] === 'trust' ? fs.readFileSync(process.env.CGP_PROVIDER_CA, 'utf8') : undefined;",
    "const post = (body) => new Promise((done) => {",
    "  const req = mod.request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, ...(ca ? { ca } : {}) }, (res) => { res.resume(); res.on('end', () => done(true)); });",
    "  req.on('error', (e) => { console.error('error ' + e.code); done(false); });",
    "  req.end(JSON.stringify(body));",
    "});",
    "(async () => {",
    "  if (!(await post({ type: 'handshake', protocol_version: 'contextgraph/1.0' }))) process.exit(1);",
    "  await post({ type: 'query', query: { goal: 'what leaves', kinds: [], max_frames: 1, max_tokens: 100 } });",
    "  await post({ type: 'shutdown' });",
    "})();",
  ].join("\n");
  const [trusting, untrusting] = await Promise.all([
    hostIn([`${ADDR}/32`], ADDR, ["--only", "C4,C7"], [process.execPath, "-e", naive, "{url}", "trust"]),
    hostIn([`${ADDR}/32`], ADDR, ["--only", "C4,C7"], [process.execPath, "-e", naive, "{url}", "no"]),
  ]);
  t.same(failed(trusting.report), ["host:C4 fail", "host:C7 fail"], `trusting the run's CA, it queries both and fails both (${trusting.stderr.slice(-300)})`);
  t.same(failed(untrusting.report), ["host:C4 unobserved", "host:C7 fail"], "not trusting it: C7 fails, and C4 is not observed");
  t.match(
    status(untrusting.report, "host:C4")?.evidence[0]?.message,
    /the host's TLS handshake with the provider on https:\/\/192\.0\.2\.1:\d+\/ \(line \d+\) did not complete .* have it trust the run's CA, the PEM file in CGP_PROVIDER_CA and \{ca\}/,
  );
});

t.test("an IPv6 --listen address: bracketed in {url}, and served over TLS with a certificate for it", { skip: skipV6 }, async (t) => {
  const r = await hostIn([`${ADDR6}/128`], ADDR6, ["--only", "C4,C7"], referenceHost("--misbehave", "C4-trust-egress-claim"));
  t.same(failed(r.report), ["host:C4 fail"], r.stderr.slice(-400));
  t.match(
    status(r.report, "host:C4")?.evidence[0]?.message,
    /to a provider on https:\/\/\[2001:db8::1\]:\d+\/ \(line \d+\)/,
    "reached over TLS at the bracketed address",
  );
  t.equal(status(r.report, "host:C7")?.status, "pass");
});

t.test("--listen an address no interface holds: a usage error, nothing run", { skip: skipV4 }, async (t) => {
  const r = await hostIn([`${ADDR}/32`], "192.0.2.99", [], referenceHost());
  t.equal(r.exitCode, 2, "exit 2");
  t.match(r.stderr, /--listen 192\.0\.2\.99: no interface of this machine holds that address \(EADDRNOTAVAIL\)/);
});

t.test("--listen that is not a non-loopback address of one peer is refused before anything runs", async (t) => {
  for (const [addr, why] of [
    ["127.0.0.1", /is a loopback address/],
    ["::1", /is a loopback address/],
    ["0.0.0.0", /names no one peer/],
    ["::", /names no one peer/],
    ["provider.example", /needs an IP address/],
  ] as const) {
    const r = await cli(["host", "--listen", addr, "--", ...referenceHost()]);
    t.equal(r.exitCode, 2, `${addr}: exit 2`);
    t.match(r.stderr, why, addr);
  }
  const stdio = await cli(["host", "--listen", ADDR, "--", ...CGP, "reference-host", "--", "{provider}"]);
  t.equal(stdio.exitCode, 2, "a host command without {url}: exit 2");
  t.match(stdio.stderr, /--listen serves the scenarios of C4 and C7 over HTTP: the host command must hold \{url\}/);
});
