/**
 * Host checks: one rule each that binds a host, scored from the record of
 * the scenarios a host was run in (src/transcript/host.ts). Pure, like the
 * provider checks; ids are `host:<anchor>` so that they never read as the
 * provider-side check of the same anchor.
 */
import type { ScenarioSpec } from "../../src/protocol/host-scenarios.ts";
import type { HostView } from "../../src/transcript/host.ts";
import type { Level, Score } from "./check.ts";
import type { Basis, Table } from "./findings.ts";

export const HOST_PREFIX = "host:";

export interface HostScoreInput {
  /** What one of the check's declared scenarios recorded. */
  scenario(spec: ScenarioSpec): HostView;
  /** The binding the host reached its providers over. */
  transport: "stdio" | "http";
  /** Whether the host command line names a placeholder ({context}) or an environment variable (CGP_CONTEXT_PATH): for a skip's words. */
  names(placeholderOrVariable: string): boolean;
}

/**
 * What a host must do, beyond being run in the check's scenarios, for the
 * check to judge it rather than skip: the files it writes ({context}'s
 * blocks, {usage}'s reports), and, in words, the work it does in a scenario
 * beyond one query and one block. How many providers it must name is not
 * declared here: it follows from the scenarios' own declarations
 * (ScenarioSpec.providers). docs/hosts.md is generated from both.
 */
export interface HostNeeds {
  writes?: ReadonlyArray<"context" | "usage">;
  work?: string;
}

export interface HostCheckDef {
  /** `host:` + the anchor (or section id, as S2-framing); the file name under checks/host/ is the part after the prefix. */
  id: string;
  /** The spec anchor the check enforces (H4), or the section check's id (S2-framing). */
  anchor: string;
  title: string;
  level: Level;
  /** The spec sentence this check enforces, quoted. */
  requirement: string;
  /** Where the check's rule is a normative grammar or wire shape of §1 rather than a keyword sentence (docs/readings.md, rule 2): which. */
  basis?: Basis;
  scenarios: readonly ScenarioSpec[];
  /** What the host must do for the check to judge it; absent: being run is enough. */
  needs?: HostNeeds;
  /** Report order, as for provider checks: the id of the host check it follows. */
  follows?: string;
  /** The check's findings: code → the words for it, as for provider checks (kit/findings.ts). */
  findings?: Table;
  score(input: HostScoreInput): Score;
}

export function defineHostCheck(def: Omit<HostCheckDef, "id"> & { id?: string }): HostCheckDef {
  return { ...def, id: def.id ?? `${HOST_PREFIX}${def.anchor}` };
}

/**
 * The views of the declared scenarios that ran: one per provider where a
 * scenario has several, so a rule about what a host sends one provider is
 * judged against that provider's own ack and lines.
 */
export function ranViews(input: HostScoreInput, specs: readonly ScenarioSpec[]): HostView[] {
  return specs
    .map((s) => input.scenario(s))
    .filter((v) => v.ran)
    .flatMap((v) => v.providers());
}
