import type { ChalkInstance } from "chalk";
import { describe, type OfflineVerdict } from "../attest/offline.ts";

/** Human output of `cgp-conform attest verify`: one verdict per attestation. */
export function renderOffline(file: string, verdicts: OfflineVerdict[], c: ChalkInstance): string {
  if (verdicts.length === 0) return `${file}: no attestation found\n`;
  const lines = verdicts.map((v) => {
    const ok = v.verdict.kind === "valid";
    const proof = v.proof ? `; inclusion proof ${v.proof}` : "";
    return `${ok ? c.green("valid") : c.red.bold("BAD  ")} ${v.where}: ${v.subject}: ${describe(v.verdict)}${proof}`;
  });
  const bad = verdicts.filter((v) => v.verdict.kind !== "valid").length;
  return [...lines, "", `${file}: ${verdicts.length} attestations, ${verdicts.length - bad} valid, ${bad} not`].join("\n") + "\n";
}
