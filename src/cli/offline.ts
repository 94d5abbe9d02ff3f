import { keyFromHex } from "../attest/audit.ts";
import { verifyOffline } from "../attest/offline.ts";
import { makeChalk } from "../report/color.ts";
import { renderOffline } from "../report/offline.ts";
import { renderValidation } from "../report/validation.ts";
import { reportOf } from "../engine/run.ts";
import { fromNdjson, TranscriptFormatError } from "../transcript/file.ts";
import { validateText } from "../schema/validate.ts";
import { out, readIn, readInBytes, UsageError } from "./io.ts";
import { printReport } from "./suite.ts";
import { exitCode } from "../verdict/exit.ts";
import { parseUntrusted } from "../protocol/envelope.ts";
import { hostFromNdjson, isHostHeader } from "../transcript/host-file.ts";
import type { HostTranscript } from "../transcript/host.ts";
import type { Transcript } from "../transcript/types.ts";
import { buildHostReport } from "../verdict/host-report.ts";
import { scoreHost } from "../host/score.ts";
import { HOST_CHECKS } from "../../checks/host/index.ts";

/** cgp-conform replay FILE: the verdicts of a saved transcript, scored again offline. */
export function replay(a: { file: string; json: boolean; verbose: boolean; quiet?: boolean; report?: string[] }): number {
  try {
    const read = readTranscript(a.file);
    if (read.host) return printReport(buildHostReport(read.host, scoreHost(read.host, HOST_CHECKS)), a, undefined, { transcriptPath: a.file });
    const transcript = read.provider;
    return printReport(reportOf(transcript), a, transcript, { transcriptPath: a.file });
  } catch (e) {
    if (e instanceof TranscriptFormatError) throw new UsageError(`${a.file}: ${e.message}`);
    throw e;
  }
}

/** A saved transcript, a host run's or a provider run's; its bytes are let go once parsed, whatever is scored after. */
function readTranscript(file: string): { host: HostTranscript; provider?: undefined } | { host?: undefined; provider: Transcript } {
  const bytes = readInBytes(file);
  const nl = bytes.indexOf(0x0a);
  // A host run's transcript (cgp-conform host --transcript) is scored by the host checks.
  const first = parseUntrusted(bytes.subarray(0, nl === -1 ? bytes.length : nl).toString("utf8"));
  return first.ok && isHostHeader(first.value) ? { host: hostFromNdjson(bytes) } : { provider: fromNdjson(bytes) };
}

/** cgp-conform validate FILE: a fixture author's envelopes (or, --as KIND, bare objects) against the schema. */
export function validate(a: { file: string; mode: "lint" | "interop"; json: boolean; as?: string }): number {
  const results = validateText(readIn(a.file), a.mode, a.as);
  out(a.json ? JSON.stringify(results, null, 2) + "\n" : renderValidation(a.file, a.mode, results, makeChalk()));
  return exitCode(results.every((r) => r.errors.length === 0) ? "valid" : "invalid");
}

/** cgp-conform attest verify FILE: one verdict per attestation, offline. */
export function attestVerify(a: { file: string; key?: string; json: boolean }): number {
  const text = readIn(a.file);
  if (a.key !== undefined && !/^[0-9a-fA-F]{64}$/.test(a.key)) throw new UsageError("--key must be 64 hex digits (a 32-byte Ed25519 public key)");
  let verdicts;
  try {
    verdicts = verifyOffline(text, a.key ? [keyFromHex(a.key)] : []);
  } catch (e) {
    throw new UsageError(`${a.file}: ${(e as Error).message}`);
  }
  out(a.json ? JSON.stringify(verdicts, null, 2) + "\n" : renderOffline(a.file, verdicts, makeChalk()));
  const valid = verdicts.length > 0 && verdicts.every((v) => v.verdict.kind === "valid" && (v.proof_kind === undefined || v.proof_kind === "recomputes-root"));
  return exitCode(valid ? "valid" : "invalid");
}
