import { keyFromHex } from "../attest/audit.ts";
import { verifyOffline } from "../attest/offline.ts";
import { makeChalk } from "../report/color.ts";
import { renderOffline } from "../report/offline.ts";
import { out, readIn, UsageError } from "./io.ts";
import { exitCode } from "../verdict/exit.ts";

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
