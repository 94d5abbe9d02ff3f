/**
 * Findings as data. A check names each kind of finding it makes with a
 * stable code and keeps the words for it in one table beside it: code →
 * the sentence (and what was expected, what was seen), rendered from the
 * finding's typed params once, where the finding is made. The engine
 * qualifies each code with the check's id (B3 + cost-mismatch →
 * B3.cost-mismatch), groups alike findings by code, and --json carries the
 * code and params of every evidence item; modes pin their finding by code.
 * Rewording a finding is an edit to one table entry.
 */
import type { Evidence } from "./evidence.ts";
import type { Level, Param, Params } from "../../src/verdict/status.ts";

export type { Param, Params } from "../../src/verdict/status.ts";

/** The words of one code. */
export interface Wording<P extends Params> {
  /** The finding in one sentence, from its params. */
  says: (p: P) => string;
  /** What the rule expects, where a value says it. */
  expected?: (p: P) => string | undefined;
  /** What was seen, where a value says it. */
  actual?: (p: P) => string | undefined;
  /**
   * A sub-rule of another strength than the check's own (a SHOULD, an outcome stated with no keyword, an
   * outcome the spec allows): `cites` then names the sentence that gives it (docs/readings.md).
   */
  level?: Level;
  /**
   * The spec sentence this finding is held to, where it is not the check's own requirement: words quoted
   * from it, whitespace aside. Its keyword gives the finding's level (MUST, SHOULD, MAY; none: NONE), and
   * test/levels.test.ts holds the two equal, unless `reading` says why the observation can show no more.
   */
  cites?: string;
  /**
   * The finding's level is below its sentence's keyword because the observation cannot prove the breach
   * (an honest provider could have produced it): the reading, in a sentence. docs/readings.md lists them.
   */
  reading?: string;
  /**
   * A value outside a normative grammar or wire shape of §1 ("Wire shapes, the requirement tables, the
   * version rule, and the counting and format grammars are normative"): it is no message of the protocol,
   * so the finding fails, labelled as what it breaks rather than as a MUST the spec never wrote.
   */
  basis?: Basis;
  /** The rule held (a summary of what kept it), rather than was broken. */
  ok?: boolean;
  /** The rule could not be observed (a precondition broke). */
  untestable?: boolean;
  /**
   * What makes two findings of this code different defects, from their
   * params: findings that differ in it are shown apart, not folded into one
   * with a count. Everything else is where it was seen (a frame, a line, a
   * count). Without it every finding of the code is alike. Either the
   * names of the params that tell defects apart, or a reading of them (a
   * kind within a param, a type).
   */
  apart?: readonly (keyof P & string)[] | ((p: P) => Param);
}

/**
 * The normative grammars and wire shapes a finding may stand on (docs/readings.md, rule 2). Not the
 * schema's authoring-strict `additionalProperties: false`: U1 governs the wire, and an unknown member
 * never fails.
 */
export const BASES = {
  "the version rule": "normative grammar",
  "the timestamp profile": "normative grammar",
  "the digest grammar": "normative grammar",
  "the embedding fingerprint grammar": "normative grammar",
  "the counting grammar": "normative grammar",
  "vendor:name": "normative grammar",
  "a closed enum": "wire shape",
  "the schema's members, types and enums": "wire shape",
} as const;
export type Basis = keyof typeof BASES;
/** How a finding's basis is shown beside it: "normative grammar: the version rule". */
export const basisLabel = (b: Basis): string => `${BASES[b]}: ${b}`;

/** A code: lowercase words joined by hyphens. */
export const CODE = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/** Beside the params, what the sentence does not hold: the lines that show it, and scoring data. */
export interface At {
  lines: readonly number[];
  /** Places on the wire this finding judged (see Evidence.judges). */
  judges?: readonly string[];
}

export type Table = { readonly [code: string]: Wording<never> };

type ParamsOf<W> = W extends { says: (p: infer P) => string } ? P : never;

/**
 * A check's findings: `say(code, params, at)` makes one, its words from the
 * table. The table is checked once, here: every code is a code.
 */
export function findings<T extends { [code: string]: Wording<any> }>(table: T) {
  for (const code of Object.keys(table)) if (!CODE.test(code)) throw new Error(`finding code ${JSON.stringify(code)} is not lowercase-hyphenated`);
  return {
    table: table as Table,
    say<K extends keyof T & string>(code: K, params: ParamsOf<T[K]>, at: At): Evidence {
      const w = table[code]!;
      const expected = w.expected?.(params);
      const actual = w.actual?.(params);
      const apart = typeof w.apart === "function" ? w.apart(params) : w.apart?.map((k) => params[k as keyof typeof params] as Param);
      return {
        ok: w.ok ?? false,
        ...(w.basis ? { level: "MUST" as const, basis: basisLabel(w.basis) } : w.level ? { level: w.level } : {}),
        ...(w.untestable ? { untestable: true } : {}),
        code,
        params: params as Params,
        ...(apart !== undefined ? { apart: JSON.stringify(apart) } : {}),
        message: w.says(params),
        ...(expected !== undefined ? { expected } : {}),
        ...(actual !== undefined ? { actual } : {}),
        lines: [...at.lines],
        ...(at.judges ? { judges: at.judges } : {}),
      };
    },
  };
}
