// Every finding's level follows docs/readings.md: a check's own level is a keyword of its requirement; a
// finding at another level cites the spec sentence that gives it, and the sentence's keyword is the level
// (MUST, SHOULD, MAY; none: NONE), or the finding says why its observation can show less (a reading,
// never more); a finding that stands on a normative grammar or wire shape names it and fails.
import { readFileSync } from "node:fs";
import t from "tap";
import { CHECKS } from "../checks/index.ts";
import { HOST_CHECKS } from "../checks/host/index.ts";
import { BASES, type Basis, type Wording } from "../checks/kit/findings.ts";
import { allSentences, levelsIn, SPEC_TEXTS } from "../src/docs/normative.ts";
import type { Level } from "../src/verdict/status.ts";

const flat = (s: string): string => s.replace(/\s+/g, " ").trim();
const SENTENCES = SPEC_TEXTS.flatMap((name) => allSentences(name, readFileSync(new URL(`./published/${name}.txt`, import.meta.url), "utf8")));
/** Strongest first: a finding may stand below its sentence's keyword only with a reading. */
const RANK: Record<Level, number> = { MUST: 3, SHOULD: 2, NONE: 1, MAY: 0 };
const levelsOf = (text: string): Level[] => {
  const found = levelsIn(text);
  return found.length > 0 ? found : ["NONE"];
};

/** The sentences a citation names: those that hold its words. */
export function cited(words: string): { sentence: string; levels: Level[] }[] {
  const w = flat(words);
  return SENTENCES.filter((s) => flat(s.sentence).includes(w)).map((s) => ({ sentence: s.sentence, levels: s.levels.length > 0 ? s.levels : ["NONE"] }));
}

const ALL = [...CHECKS, ...HOST_CHECKS] as readonly {
  id: string;
  level: Level;
  requirement: string;
  basis?: Basis;
  findings?: Record<string, Wording<never>>;
}[];

/** The levels a requirement's sentences give: each sentence's keywords, NONE for one with none. */
const requirementLevels = (text: string): Level[] => [...new Set(text.split(/(?<=[.;])\s+(?=[A-Z[])/).flatMap(levelsOf))];

t.test("a check's level is a keyword of the requirement it quotes (none: NONE), or it stands on a grammar", async (t) => {
  for (const c of ALL) {
    const name = `${c.id} (${c.level}): ${c.requirement.slice(0, 60)}…`;
    if (c.basis !== undefined) t.ok(c.level === "MUST" && c.basis in BASES, `${name} stands on ${c.basis}, and fails`);
    // Informative text (§11.1) binds nobody: what it describes informs.
    else if (/\binformative\b/.test(c.requirement)) t.equal(c.level, "MAY", `${name} quotes informative text`);
    else t.ok(requirementLevels(c.requirement).includes(c.level), name);
  }
});

t.test("a finding at another level than its check's cites the sentence that gives it", async (t) => {
  for (const c of ALL)
    for (const [code, w] of Object.entries(c.findings ?? {})) {
      if (w.ok || w.untestable) continue;
      const name = `${c.id}.${code}`;
      if (w.basis !== undefined) {
        t.ok(w.basis in BASES, `${name}: stands on ${w.basis}`);
        t.notOk(w.level !== undefined && w.level !== "MUST", `${name}: a value outside a normative grammar or wire shape fails`);
        continue;
      }
      const level = w.level ?? c.level;
      if (w.cites === undefined) {
        // Held to its check's own requirement: at its level, or below it with a reading (a shared finding's reading is
        // written once, beside it, for every check that quotes a MUST it can only approximate).
        if (level === c.level) t.pass(`${name}: at its check's ${c.level}`);
        else if (RANK[level] < RANK[c.level])
          t.ok(w.reading, `${name}: ${level}, below its check's ${c.level}: a reading says why (or it cites the sentence that says so)`);
        else t.fail(`${name}: ${level}, stronger than its check's ${c.level}, and it cites no sentence that says so`);
        continue;
      }
      const found = cited(w.cites);
      t.ok(found.length > 0, `${name}: cites words of the spec: "${w.cites}"`);
      if (found.length === 0) continue;
      // Words quoted with no keyword in them (a definition, an outcome stated in prose) give NONE as well.
      const levels = [...found.flatMap((f) => f.levels), ...(levelsOf(w.cites)[0] === "NONE" ? (["NONE"] as const) : [])];
      const top = Math.max(...levels.map((l) => RANK[l]));
      if (levels.includes(level)) t.pass(`${name}: ${level}, as "${w.cites.slice(0, 40)}…" says`);
      else if (RANK[level] < top) t.ok(w.reading, `${name}: ${level}, below its sentence's ${levels.join("/")}: a reading says why`);
      else t.fail(`${name}: ${level}, stronger than its sentence's ${levels.join("/")}: "${found[0]!.sentence.slice(0, 80)}…"`);
    }
});

t.test("a citation names words of the spec, not words of its own", async (t) => {
  t.equal(cited("MUST reply to handshake with a handshake_ack").length, 1, "a table row is found");
  t.same(cited("MUST reply to handshake with a handshake_ack")[0]!.levels, ["MUST"]);
  t.equal(cited("a provider MUST hum quietly").length, 0, "words the spec does not hold are not found");
});

t.test("a finding on a grammar fails, shows its basis, and reports say it in place of a keyword", async (t) => {
  const { findings } = await import("../checks/kit/findings.ts");
  const { levelTag } = await import("../src/verdict/words.ts");
  const { statusOf } = await import("../src/verdict/status.ts");
  const F = findings({ off: { basis: "the version rule", says: () => "off the grammar" } });
  const e = F.say("off", {}, { lines: [3] });
  t.equal(e.level, "MUST");
  t.equal(e.basis, "normative grammar: the version rule");
  t.equal(statusOf(e, "SHOULD"), "fail", "fails under a SHOULD check too");
  t.equal(levelTag(e.level, e.basis), "normative grammar: the version rule");
  t.equal(levelTag("NONE"), "no keyword");
});
