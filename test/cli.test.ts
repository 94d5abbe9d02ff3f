import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { XMLParser } from "fast-xml-parser";
import t from "tap";
import { Parser } from "tap-parser";
import { CHECKS } from "../checks/index.ts";
import { reportValidator } from "../src/schema/compile.ts";
import { VERSION } from "../src/meta/version.ts";
import { cli, fake, ROOT } from "./helpers/live.ts";

const tmp = mkdtempSync(join(tmpdir(), "cgp-cli-"));

t.test("--version", async (t) => {
  const r = await cli(["--version"]);
  t.equal(r.exitCode, 0);
  t.equal(r.stdout.trim(), VERSION);
});

t.test("reference: every check listed, CONFORMANT, exit 0", async (t) => {
  const r = await cli(["reference", "--timeout", "20000"]);
  t.equal(r.exitCode, 0, r.stderr);
  for (const c of CHECKS) t.match(r.stdout, new RegExp(`(PASS|SKIP)\\s+${c.id}\\s`), c.id);
  t.notMatch(r.stdout, /FAIL|WARN/);
  t.match(r.stdout, /\nCONFORMANT$/, "the verdict closes the output (execa strips the final newline)");
  t.notMatch(r.stdout, /\x1b\[/, "NO_COLOR: no escape sequences");
});

t.test("reference runs its provider in process by default; --spawn starts it per session, to the same verdicts", async (t) => {
  const verdicts = (stdout: string) => (JSON.parse(stdout) as { results: Array<{ id: string; status: string }> }).results.map((r) => `${r.id} ${r.status}`);
  for (const mode of [undefined, "B3-utf16-length", "R1-crash-on-garbage"]) {
    const misbehave = mode ? ["--misbehave", mode] : [];
    const [inProcess, spawned] = await Promise.all([
      cli(["reference", "--json", "--timeout", "20000", "--transcript", join(tmp, `in-${mode}.ndjson`), ...misbehave]),
      cli(["reference", "--json", "--timeout", "20000", "--spawn", "--transcript", join(tmp, `sp-${mode}.ndjson`), ...misbehave]),
    ]);
    t.equal(inProcess.exitCode, spawned.exitCode, `${mode ?? "honest"}: the same exit code`);
    t.same(verdicts(inProcess.stdout), verdicts(spawned.stdout), `${mode ?? "honest"}: the same verdicts`);
    // Only a process is killed by a signal when its probe is done; a provider in process just ends (a process defect is always spawned).
    const killed = (f: string) =>
      readFileSync(join(tmp, f), "utf8")
        .split("\n")
        .filter((l) => l.includes('"note":"exit"') && l.includes('"signal":"SIGKILL"')).length;
    t.ok(killed(`sp-${mode}.ndjson`) > 0, "--spawn: the provider ran as processes");
    if (mode === "R1-crash-on-garbage") t.ok(killed(`in-${mode}.ndjson`) > 0, "a crash mode is spawned even without --spawn");
    else t.equal(killed(`in-${mode}.ndjson`), 0, "by default: no process was started");
  }
});

t.test("--json: stdout is one JSON document that validates; exit code follows the verdict", async (t) => {
  for (const [mode, code] of [
    [undefined, 0],
    ["B3-utf16-length", 1],
  ] as const) {
    const r = await cli(["reference", "--json", "--timeout", "20000", ...(mode ? ["--misbehave", mode] : [])]);
    t.equal(r.exitCode, code, `${mode ?? "honest"} exits ${code}`);
    const report: unknown = JSON.parse(r.stdout);
    const validateReport = reportValidator();
    t.ok(validateReport(report), JSON.stringify(validateReport.errors));
  }
});

t.test("replay re-scores a saved transcript to the same verdicts", async (t) => {
  const file = join(tmp, "run.ndjson");
  const live = await cli(["reference", "--misbehave", "F4-offset-timestamp", "--json", "--timeout", "20000", "--transcript", file]);
  t.equal(live.exitCode, 1);
  const replay = await cli(["replay", file, "--json"]);
  t.equal(replay.exitCode, 1);
  t.same(JSON.parse(replay.stdout), JSON.parse(live.stdout));
  const human = await cli(["replay", file]);
  t.match(
    human.stdout,
    /FAIL\s+F4 .*\n\s+rule \(F4, MUST\): valid_from, valid_to, recorded_at, and as_of MUST match .*\n.*recorded_at "2026-07-20T18:00:00\+00:00"/,
  );
});

t.test("a line of bytes that are not UTF-8 is saved exactly, replayed to the same verdict, and shown readably", async (t) => {
  const file = join(tmp, "utf8.ndjson");
  const page = join(tmp, "utf8.html");
  const live = await cli(["reference", "--misbehave", "R1-exit-on-invalid-utf8", "--json", "--timeout", "20000", "--transcript", file]);
  t.equal(live.exitCode, 1);
  const sent = readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.includes('"line_hex"'))
    .map((l) => JSON.parse(l) as { dir: string; line: string; line_hex: string });
  t.same(sent, [{ ...sent[0], dir: "send", line: "\uFFFD\uFFFD", line_hex: "fffe" }], "one line sent as bytes, FF FE, kept exactly");
  const replay = await cli(["replay", file, "--json"]);
  t.same(JSON.parse(replay.stdout), JSON.parse(live.stdout), "the same verdicts from the saved bytes");
  const human = await cli(["replay", file, "--report", `html:${page}`]);
  t.match(human.stdout, /FAIL\s+R1 .*\n.*\n\s+✗ the provider exited \(code 1\) on the bytes ff fe \(probe malformed-bytes, step bad-invalid-utf8/);
  const html = readFileSync(page, "utf8");
  t.match(html, /<pre>\\xFF\\xFE<\/pre><div class="remark">not UTF-8: the bytes sent were ff fe/);
});

t.test("provider arguments after -- are passed verbatim", async (t) => {
  // The provider never answers: its first exchange would wait the startup deadline (30 s by default) for nothing.
  const r = await cli(["stdio", "--json", "--timeout", "300", "--startup-timeout", "300", "--", ...fake("never-answers"), "007", "--x=1e3", "0x10", "-n"]);
  t.equal(r.exitCode, 1);
  t.same(JSON.parse(r.stdout).target.command.slice(-4), ["007", "--x=1e3", "0x10", "-n"]);
});

t.test("colour: FORCE_COLOR colours, NO_COLOR wins over it", async (t) => {
  t.match((await cli(["reference"], { env: { FORCE_COLOR: "1", NO_COLOR: "" } })).stdout, /\x1b\[/);
  t.notMatch((await cli(["reference"], { env: { FORCE_COLOR: "1", NO_COLOR: "1" } })).stdout, /\x1b\[/);
});

const notTranscript = join(tmp, "not-a-transcript.ndjson");
writeFileSync(notTranscript, '{"hello":1}\n');

const usage: Array<[string, string[], RegExp]> = [
  ["no command", [], /give a command/],
  ["unknown command", ["bogus"], /Unknown argument: bogus/],
  ["stdio without a program", ["stdio"], /no provider command/],
  ["a timeout that is not a number", ["stdio", "--timeout", "soon", "--", "x"], /--timeout must be a positive integer/],
  ["a zero timeout", ["stdio", "--timeout", "0", "--", "x"], /--timeout must be a positive integer/],
  ["an unknown misbehave mode", ["fixture", "--misbehave", "nope"], /no misbehave mode named "nope"; the modes are: .*B3-utf16-length/],
  ["a provider command given to reference", ["reference", "--", "./x"], /reference takes no provider command after --; only stdio does/],
  ["replay of a missing file", ["replay", join(tmp, "missing")], /cannot read/],
  ["replay of a file that is not a transcript", ["replay", notTranscript], /line 1 is not a cgp-conform transcript header/],
];
for (const [name, args, says] of usage) {
  t.test(`usage error, exit 2: ${name}`, async (t) => {
    const r = await cli(args);
    t.equal(r.exitCode, 2);
    t.match(r.stderr, says);
    t.equal(r.stdout, "", "nothing on stdout");
  });
}

t.test("a provider that cannot be started: exit 3", async (t) => {
  const r = await cli(["stdio", "--", "/nonexistent/cgp-provider"]);
  t.equal(r.exitCode, 3);
  t.match(r.stdout, /COULD NOT RUN/);
});

t.test("fixture speaks NDJSON on stdio and exits 0 on shutdown", async (t) => {
  const input = ['{"type":"handshake","protocol_version":"contextgraph/1.0"}', '{"type":"shutdown"}', ""].join("\n");
  const r = await cli(["fixture"], { input });
  t.equal(r.exitCode, 0);
  const lines = r.stdout.trim().split("\n");
  t.equal(lines.length, 1);
  t.equal(JSON.parse(lines[0]!).type, "handshake_ack");
});

t.test("validate: lint and interop modes, exit 1 on an invalid envelope", async (t) => {
  const file = join(tmp, "fixture.ndjson");
  writeFileSync(file, ['{"type":"shutdown"}', '{"type":"shutdown","acme:x":1}', '{"type":"error"}', ""].join("\n"));
  const lint = await cli(["validate", file]);
  t.equal(lint.exitCode, 1);
  t.match(lint.stdout, /ok   line 1 \(shutdown\)/);
  t.match(lint.stdout, /BAD  line 2 \(shutdown\)\n\s+\/acme:x member "acme:x" is not allowed here/);
  t.match(lint.stdout, /3 envelopes, 1 valid, 2 invalid \(lint mode\)/);
  const interop = await cli(["validate", file, "--mode", "interop", "--json"]);
  t.equal(interop.exitCode, 1);
  t.same(
    JSON.parse(interop.stdout).map((r: { errors: unknown[] }) => r.errors.length > 0),
    [false, false, true],
    "an unknown member is ignored in interop mode",
  );
  const good = join(tmp, "good.json");
  writeFileSync(good, '[{"type":"shutdown"}]');
  t.equal((await cli(["validate", good])).exitCode, 0);
});

t.test("validate --as: bare protocol objects, given or detected; a typo's nearest kind named", async (t) => {
  const golden = join(ROOT, "test", "upstream", "context-frame.compact.valid.json");
  const given = await cli(["validate", "--as", "frame", golden]);
  t.equal(given.exitCode, 0, given.stdout);
  t.match(given.stdout, /ok   line 1 judged as a ContextFrame \(--as frame\)/);
  t.match(given.stdout, /1 documents, 1 valid, 0 invalid \(lint mode\)/);
  const detected = await cli(["validate", golden, "--json"]);
  t.equal(detected.exitCode, 0);
  t.match(JSON.parse(detected.stdout), [
    { index: 0, line: 1, judged_as: "frame", definition: "#/$defs/ContextFrame", detected_by: ["id", "kind", "title", "score", "citation_label"], errors: [] },
  ]);
  const human = await cli(["validate", golden]);
  t.match(human.stdout, /judged as a ContextFrame \(detected: no `type`, has id, kind, title, score, citation_label; give --as to choose\)/);
  const wrong = await cli(["validate", "--as", "context-query", golden]);
  t.equal(wrong.exitCode, 1);
  t.match(wrong.stdout, /BAD  line 1 judged as a ContextQuery \(--as context-query\)\n\s+\/goal required member "goal" is missing/);
  const envelope = await cli(["validate", "--as", "envelope", golden]);
  t.equal(envelope.exitCode, 1, "--as envelope: judged by its type, as before");
  t.match(envelope.stdout, /\/type required member "type" is missing/);
  const ambiguous = join(tmp, "ambiguous.json");
  writeFileSync(ambiguous, '{"provider_id":"p","frame_id":"f","uri":"u"}');
  const hint = await cli(["validate", ambiguous]);
  t.equal(hint.exitCode, 1);
  t.match(
    hint.stdout,
    /\/type required member "type" is missing.*\n\s+hint: no `type`, so not an envelope; to judge a bare object, give --as KIND \(it has the required members of frame-id and of content-ref/,
  );
  const typo = await cli(["validate", "--as", "fram", golden]);
  t.equal(typo.exitCode, 2);
  t.match(typo.stderr, /--as fram: did you mean --as frame\?/);
  const help = await cli(["validate", "--help"]);
  t.match(help.stdout, /"context-query"/, "--help lists the kinds");
});

t.test("attest verify: every attestation of a signed run is valid; a tampered one is named", async (t) => {
  const file = join(tmp, "signed.ndjson");
  await cli(["reference", "--timeout", "20000", "--transcript", file]);
  const ok = await cli(["attest", "verify", file]);
  t.equal(ok.exitCode, 0, ok.stderr);
  t.match(ok.stdout, /: (\d+) attestations, \1 valid, 0 not/);
  const lines = readFileSync(file, "utf8").split("\n");
  const i = lines.findIndex((l) => l.includes('\\"result_attestation\\"'));
  const ev = JSON.parse(lines[i]!);
  const env = JSON.parse(ev.line);
  // The commitment binds identity and provenance (not the content bytes, which content_digest stands for).
  env.result.frames[0].provenance[0].digest = `sha256:${"0".repeat(64)}`;
  lines[i] = JSON.stringify({ ...ev, line: JSON.stringify(env) });
  const tampered = join(tmp, "tampered.ndjson");
  writeFileSync(tampered, lines.join("\n"));
  const bad = await cli(["attest", "verify", tampered, "--json"]);
  t.equal(bad.exitCode, 1);
  const kinds = (JSON.parse(bad.stdout) as Array<{ where: string; verdict: { kind: string } }>)
    .filter((v) => v.where === `line ${i + 1}`)
    .map((v) => v.verdict.kind);
  t.ok(kinds.includes("commitment-mismatch"), "the edited frame's attestation is a commitment mismatch, not a bad signature");
  const wrongKey = await cli(["attest", "verify", file, "--key", "ab".repeat(32), "--json"]);
  t.equal(wrongKey.exitCode, 1);
  t.ok(
    (JSON.parse(wrongKey.stdout) as Array<{ verdict: { kind: string } }>).every((v) => v.verdict.kind !== "valid"),
    "no signature verifies under another key",
  );
});

t.test("one run writes every report format, each valid in its own terms", async (t) => {
  const dir = mkdtempSync(join(tmp, "formats-"));
  const f = (n: string): string => join(dir, n);
  const r = await cli([
    "reference",
    "--misbehave",
    "B3-floor",
    "--report",
    `json:${f("r.json")}`,
    "--report",
    `junit:${f("r.xml")}`,
    "--report",
    `tap:${f("r.tap")}`,
    "--report",
    `markdown:${f("r.md")}`,
    "--report",
    `github:${f("r.gh")}`,
  ]);
  t.equal(r.exitCode, 1);
  t.match(r.stdout, /NOT CONFORMANT/, "the human report still goes to stdout");
  const validate = reportValidator();
  t.ok(validate(JSON.parse(readFileSync(f("r.json"), "utf8"))), JSON.stringify(validate.errors));
  const xml = new XMLParser({ ignoreAttributes: false }).parse(readFileSync(f("r.xml"), "utf8"));
  t.equal(xml.testsuites.testsuite["@_failures"], "1");
  const tap = Parser.parse(readFileSync(f("r.tap"), "utf8"));
  t.equal(tap.filter((x: unknown[]) => x[0] === "assert" && (x[1] as { ok: boolean }).ok === false).length, 1, "one not ok");
  t.match(readFileSync(f("r.md"), "utf8"), /NOT CONFORMANT/);
  t.match(readFileSync(f("r.gh"), "utf8"), /^::error title=B3%3A/m);
});

t.test("transcript file starts with its header", async (t) => {
  const file = join(tmp, "h.ndjson");
  await cli(["reference", "--timeout", "20000", "--transcript", file]);
  const first = JSON.parse(readFileSync(file, "utf8").split("\n")[0]!);
  t.equal(first.cgp_conform_transcript, 1);
});

t.test("every option in --help is documented in the README or docs/usage.md", async (t) => {
  const readme = ["../README.md", "../docs/usage.md"].map((p) => readFileSync(new URL(p, import.meta.url), "utf8")).join("\n");
  for (const command of ["stdio", "http", "reference", "fixture", "selftest", "replay", "validate", "attest verify", "list", "explain"]) {
    const help = (await cli([...command.split(" "), "--help"])).stdout;
    const options = [...help.matchAll(/^\s+(--[a-z-]+)/gm)].map((m) => m[1]!);
    t.ok(options.length > 0, `${command} --help lists options`);
    for (const o of options) t.ok(readme.includes(`\`${o}`), `${command} ${o} is documented`);
    t.ok(readme.includes(`cgp-conform ${command}`), `${command} is documented`);
  }
});

const refusedEarly: Array<[string, string[], RegExp]> = [
  ["a timeout no timer can hold", ["reference", "--timeout", "3000000000"], /--timeout must be at most 2147483647/],
  ["a report path that is a directory", ["reference", "--report", `junit:${tmpdir()}`], /is a directory/],
  ["a report in a missing directory", ["reference", "--report", "json:/nonexistent-cgp/x.json"], /does not exist/],
  ["a transcript in a missing directory", ["reference", "--transcript", "/nonexistent-cgp/x.ndjson"], /does not exist/],
  ["a consent scope that is not one", ["reference", "--consent", "ALL"], /--consent "ALL": give an egress scope/],
  ["a --ca that is not PEM", ["http", "https://127.0.0.1:9/", "--ca", join(ROOT, "package.json")], /not a PEM file/],
];
for (const [name, args, says] of refusedEarly) {
  t.test(`refused before the run, exit 2: ${name}`, async (t) => {
    const r = await cli(args);
    t.equal(r.exitCode, 2);
    t.match(r.stderr, says);
    t.notMatch(r.stderr, /internal error|\n\s+at /, "no stack trace");
  });
}

t.test("a vendor scope with more than one colon is a consent scope (U3: a : with non-empty sides)", async (t) => {
  const r = await cli(["reference", "--only", "H1", "--consent", "acme:eu:west"]);
  t.equal(r.exitCode, 0, r.stderr);
});

t.test("an unwritable step summary under Actions warns and leaves the verdict alone", async (t) => {
  const r = await cli(["reference", "--only", "H1"], { env: { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: "/nonexistent-cgp/summary.md" } });
  t.equal(r.exitCode, 0);
  t.match(r.stderr, /warning: could not write \/nonexistent-cgp\/summary\.md/);
});
