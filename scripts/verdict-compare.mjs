// Compares two directories written by scripts/verdict-snapshot.mjs (before and after a change that must not
// change behaviour): every case's outcome and every check's status must be the same. Evidence may differ where
// the change is about evidence (codes and params added, findings grouped by code): those differences are
// counted and the first few shown, never taken for a verdict change. Exit 1 on any verdict difference.
//
//   node scripts/verdict-compare.mjs BEFORE AFTER
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const [before, after] = process.argv.slice(2);
if (!before || !after) {
  process.stderr.write("usage: node scripts/verdict-compare.mjs BEFORE AFTER\n");
  process.exit(2);
}
const read = (dir, f) => {
  try {
    return JSON.parse(readFileSync(join(dir, f), "utf8"));
  } catch {
    return undefined;
  }
};
const names = [...new Set([...readdirSync(before), ...readdirSync(after)])].filter((f) => f.endsWith(".json")).sort();
const verdicts = [];
const evidence = [];
let checks = 0;
let coded = 0;
let items = 0;
for (const f of names) {
  const a = read(before, f);
  const b = read(after, f);
  if (!a || !b) {
    verdicts.push(`${f}: ${!a ? "no report before" : "no report after"}`);
    continue;
  }
  for (const k of ["conformant", "could_not_run", "reason"])
    if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) verdicts.push(`${f}: ${k} ${JSON.stringify(a[k])} → ${JSON.stringify(b[k])}`);
  const byId = new Map(b.results.map((r) => [r.id, r]));
  for (const r of a.results) {
    checks++;
    const s = byId.get(r.id);
    if (!s) {
      verdicts.push(`${f}: ${r.id} missing after`);
      continue;
    }
    if (r.status !== s.status) verdicts.push(`${f}: ${r.id} ${r.status} → ${s.status}`);
    // Evidence as words: the first of a group's message without its count, as a set.
    // Transcript line numbers move from run to run (sessions run at once): they are blanked.
    const words = (x) =>
      [
        ...new Set(
          x.evidence.map((e) => `${e.status} ${e.message.replace(/ \(the first of \d+ like it\)$/, "").replace(/\blines? \d+(?:[-–, ]+\d+)*/g, "line #")}`),
        ),
      ].sort();
    const wa = words(r);
    const wb = words(s);
    if (JSON.stringify(wa) !== JSON.stringify(wb))
      evidence.push(
        `${f}: ${r.id}: ${wa.filter((w) => !wb.includes(w)).length} message(s) only before, ${wb.filter((w) => !wa.includes(w)).length} only after`,
      );
  }
  for (const r of b.results)
    for (const e of r.evidence) {
      items++;
      if (e.code !== undefined) coded++;
    }
}
process.stdout.write(`${names.length} cases, ${checks} check verdicts compared: ${verdicts.length} differ\n`);
for (const v of verdicts.slice(0, 50)) process.stdout.write(`  verdict: ${v}\n`);
process.stdout.write(`evidence worded differently in ${evidence.length} check results (grouping and wording, not verdicts)\n`);
for (const e of evidence.slice(0, 10)) process.stdout.write(`  ${e}\n`);
process.stdout.write(`after: ${coded} of ${items} evidence items carry a code\n`);
process.exit(verdicts.length > 0 ? 1 : 0);
