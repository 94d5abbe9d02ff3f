/**
 * The spec's normative sentences: every sentence of the three spec texts that
 * holds an uppercase MUST, MUST NOT, SHOULD or SHOULD NOT (the bold keywords;
 * the text copies carry no markup). Pure: text in, sentences out. A sentence
 * is cut at its own punctuation, a requirement-table row is a unit of its own
 * (its anchor kept), as is any other line of a table, and a list item starts a new sentence. The cut need not be
 * a linguist's: it must be stable, so that a sentence added to the spec shows up
 * as a sentence no mapping places (test/completeness.test.ts).
 */

/** The spec texts, by the name coverage and citations name them with (copies in test/published/). */
export const SPEC_TEXTS = ["protocol-surface", "context-reuse", "representations-change"] as const;
export type SpecText = (typeof SPEC_TEXTS)[number];

export type Keyword = "MUST" | "MUST NOT" | "SHOULD" | "SHOULD NOT";

export interface Sentence {
  text: SpecText;
  /** The requirement-table anchor of the row it stands in, if any (context-reuse's rows use its older numbering). */
  anchor?: string;
  /** Its keywords, each once, in the order they first appear. */
  keywords: Keyword[];
  sentence: string;
}

const KEYWORD = /\b(MUST NOT|MUST|SHOULD NOT|SHOULD)\b/g;
/** The longest sentence kept (a runaway cut in a changed text must not make a page of one sentence). */
const MAX = 600;

/** Units: a table row (its requirement cell, with its anchor) or a run of prose lines. */
function units(text: string): { text: string; anchor?: string }[] {
  const out: { text: string; anchor?: string }[] = [];
  let prose: string[] = [];
  const flush = (): void => {
    if (prose.length > 0) out.push({ text: prose.join(" ") });
    prose = [];
  };
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    let m: RegExpExecArray | null;
    if ((m = /^\| ([A-Z]{1,3}\d+) \| (.*?) \|/.exec(line))) {
      flush();
      out.push({ text: m[2]!, anchor: m[1]! });
    } else if ((m = /^([A-Z]{1,3}\d+)\t([^\t]*)/.exec(line))) {
      flush();
      out.push({ text: m[2]!, anchor: m[1]! });
    } else if (line.startsWith("|") || / \|( |$)/.test(line)) {
      flush();
      out.push({ text: line });
    } else if (line === "") flush();
    else {
      if (line.startsWith("- ")) flush();
      prose.push(line);
    }
  }
  flush();
  return out;
}

/** Cut a unit into sentences: after . ! ? ; followed by a capital, a quote or a list dash, and before an inline list item. */
function cut(text: string): string[] {
  return text
    .split(/(?<=[.!?;])\s+(?=- |[A-Z"`(])|(?<=\S)\s+(?=- [A-Za-z])|(?<=\.)(?=- [A-Z])/)
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

export function normativeSentences(name: SpecText, text: string): Sentence[] {
  const out: Sentence[] = [];
  for (const u of units(text))
    for (const s of cut(u.text)) {
      const keywords = [...new Set([...s.matchAll(KEYWORD)].map((m) => m[1] as Keyword))];
      if (keywords.length === 0) continue;
      out.push({ text: name, ...(u.anchor ? { anchor: u.anchor } : {}), keywords, sentence: s.length > MAX ? `${s.slice(0, MAX - 1)}…` : s });
    }
  return out;
}

/** The levels a text's keywords give, each once (MUST NOT counts as MUST, SHOULD NOT as SHOULD); none: empty. */
export const levelsIn = (text: string): ("MUST" | "SHOULD" | "MAY")[] => [
  ...new Set([...text.matchAll(/\b(MUST|SHOULD|MAY)\b/g)].map((m) => m[1] as "MUST" | "SHOULD" | "MAY")),
];

/** Every sentence of a text, whatever it holds, with the levels its keywords give (a finding's `cites` is looked up in these). */
export function allSentences(name: SpecText, text: string): { text: SpecText; anchor?: string; sentence: string; levels: ("MUST" | "SHOULD" | "MAY")[] }[] {
  return units(text).flatMap((u) =>
    cut(u.text).map((s) => ({
      text: name,
      ...(u.anchor ? { anchor: u.anchor } : {}),
      sentence: s,
      levels: levelsIn(s),
    })),
  );
}

/** Whether a mapping's quote names this sentence: the sentence begins with it. */
export const quotes = (quote: string, s: Sentence): boolean => s.sentence.startsWith(quote);
