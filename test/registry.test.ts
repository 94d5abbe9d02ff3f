import { existsSync, readdirSync, readFileSync } from "node:fs";
import t from "tap";
import { HOST_CHECKS } from "../checks/host/index.ts";
import { CHECKS } from "../checks/index.ts";
import { HOST_PREFIX } from "../checks/kit/host.ts";
import { DOCS } from "../src/reference/corpus.ts";
import { honest } from "../src/reference/provider.ts";
import { MODES } from "../misbehave/index.ts";
import { generatedValidators } from "../src/schema/compile.ts";
import { generatedRegistries, NOT_REGISTERED, registeredNames, reportOrder } from "../src/docs/registry.ts";
import { DOC_PAGES, renderTables, TABLES, witnesses } from "../src/docs/tables.ts";
import { PROBES } from "../src/probe/index.ts";
import { PROVENANCE_FILES } from "../src/protocol/probes.ts";
import { VERSION } from "../src/meta/version.ts";

const files = (dir: string, skip: readonly string[]): string[] => registeredNames(readdirSync(new URL(`../${dir}/`, import.meta.url)), skip);
const read = (p: string): string => readFileSync(new URL(`../${p}`, import.meta.url), "utf8");

t.test("every checks/ module is registered under its file name", async (t) => {
  t.same(CHECKS.map((c) => c.id).sort(), files("checks", NOT_REGISTERED.checks));
  t.equal(new Set(CHECKS.map((c) => c.title)).size, CHECKS.length, "titles are unique");
  t.ok(CHECKS.length >= 13);
});

/**
 * What is wrong with the test files of these check ids: none (test/checks/<ID>.test.ts, or
 * test/checks/host/<ID>.test.ts for `host:<ID>`), or one that does not import the check it is named for.
 */
function testFileGaps(ids: readonly string[]): string[] {
  return ids.flatMap((id) => {
    const host = id.startsWith(HOST_PREFIX);
    const name = host ? id.slice(HOST_PREFIX.length) : id;
    const file = host ? `test/checks/host/${name}.test.ts` : `test/checks/${name}.test.ts`;
    const check = host ? `../../../checks/host/${name}.ts` : `../../checks/${name}.ts`;
    if (!existsSync(new URL(`../${file}`, import.meta.url))) return [`${id}: no ${file}`];
    return read(file).includes(`"${check}"`) ? [] : [`${id}: ${file} does not import ${check.replace(/^(\.\.\/)+/, "")}`];
  });
}

t.test("every check has its test file, which imports it", async (t) => {
  const ids = [...CHECKS, ...HOST_CHECKS].map((c) => c.id);
  t.ok(ids.some((id) => id.startsWith(HOST_PREFIX)) && ids.some((id) => !id.startsWith(HOST_PREFIX)), "provider and host checks both");
  t.strictSame(testFileGaps(ids), [], "each check has test/checks/<ID>.test.ts (a host check test/checks/host/<ID>.test.ts) importing it; gaps listed by id");
  // The rule can fail: a check with no test file, and a file by the name that tests something else.
  t.strictSame(
    testFileGaps(["Z9", "host:Z9", "empty"]),
    ["Z9: no test/checks/Z9.test.ts", "host:Z9: no test/checks/host/Z9.test.ts", "empty: test/checks/empty.test.ts does not import checks/empty.ts"],
    "a missing file, and one that tests something else, are listed",
  );
});

t.test("every misbehave/ module is registered under its file name", async (t) => {
  t.same(MODES.map((m) => m.name).sort(), files("misbehave", NOT_REGISTERED.misbehave));
  t.ok(MODES.length >= 15);
});

t.test("every mode targets real checks and is named for one of them", async (t) => {
  const ids = new Set(CHECKS.map((c) => c.id));
  for (const m of MODES) {
    const expected = [...m.expectFail, ...(m.expectWarn ?? [])];
    t.ok(expected.length > 0, `${m.name} expects some failure or warning`);
    for (const id of expected) t.ok(ids.has(id), `${m.name} targets registered check ${id}`);
    // The anchor is the check id up to its first "-" (S2-framing → S2).
    t.ok(
      expected.some((id) => m.name.startsWith(`${id.split("-")[0]}-`)),
      `${m.name} is named <anchor>-<defect>`,
    );
  }
});

t.test("every check has a witness that makes it, and only it, fail", async (t) => {
  for (const c of CHECKS) {
    // A check whose own level is SHOULD or NONE can only warn: its witness makes it, and only it, warn.
    const alone = (ids: string[] | undefined): boolean => ids?.length === 1 && ids[0] === c.id;
    t.ok(
      MODES.some((m) => alone(m.expectFail) || ((c.level === "NONE" || c.level === "SHOULD") && m.expectFail.length === 0 && alone(m.expectWarn))),
      `${c.id}: ${witnesses(c.id).join(", ") || "no witness"}`,
    );
  }
});

t.test("every probe a check names exists", async (t) => {
  const names = new Set([...PROBES.map((p) => p.name), PROVENANCE_FILES.name]);
  for (const c of CHECKS) for (const p of c.probes) t.ok(names.has(p.name), `${c.id} → ${p.name}`);
});

t.test("the reference provider serves content where UTF-8 bytes and UTF-16 units part", async (t) => {
  const enc = new TextEncoder();
  const texts = DOCS.map((d) => honest.content(d));
  t.ok(
    texts.some((s) => /\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Katakana}/u.test(s)),
    "a CJK frame",
  );
  t.ok(
    texts.some((s) => /\p{Extended_Pictographic}/u.test(s)),
    "an emoji frame",
  );
  t.ok(
    texts.some((s) => Math.ceil(enc.encode(s).length / 4) !== Math.ceil(s.length / 4)),
    "a frame whose count differs",
  );
  t.ok(
    texts.some((s) => s.includes("\r\n")),
    "a CRLF frame, where normalising line endings changes the digest",
  );
});

t.test("the version is package.json's", async (t) => {
  t.equal(VERSION, JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version);
});

t.test("the documentation pages' tables are generated from the registry (npm run docs), each table in one page", async (t) => {
  for (const page of Object.keys(DOC_PAGES)) {
    const text = readFileSync(new URL(`../${page}`, import.meta.url), "utf8");
    t.equal(renderTables(text, page), text, `${page} is current`);
  }
  const placed = Object.values(DOC_PAGES).flat();
  t.same([...placed].sort(), Object.keys(TABLES).sort(), "every generated table has a page");
  t.equal(new Set(placed).size, placed.length, "and only one");
  t.throws(() => renderTables("no markers here", "docs/x.md", ["checks"]), /docs\/x\.md has no checks table markers/);
});

t.test("checks/index.ts and misbehave/index.ts are generated from their folders (npm run registry)", async (t) => {
  for (const [path, text] of Object.entries(await generatedRegistries(new URL("../", import.meta.url)))) t.equal(read(path), text, `${path} is current`);
});

t.test("the schema validators are generated from the schema (npm run registry)", async (t) => {
  for (const [path, text] of Object.entries(generatedValidators())) t.equal(read(path), text, `${path} is current`);
});

t.test("report order is spec order; a section check sits where it follows", async (t) => {
  const anchors = ["H1", "F4", "F5"];
  t.same(reportOrder([{ id: "F5" }, { id: "S6-x", follows: "F4" }, { id: "H1" }, { id: "F4" }, { id: "S2-b", follows: "S2-a" }, { id: "S2-a" }], anchors), [
    "S2-a",
    "S2-b",
    "H1",
    "F4",
    "S6-x",
    "F5",
  ]);
  t.throws(() => reportOrder([{ id: "S6-x", follows: "Z9" }], anchors), /follows Z9, which is neither a spec anchor nor a check/);
});
