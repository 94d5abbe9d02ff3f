import { reportOf } from "../engine/run.ts";
import { fromNdjson, TranscriptFormatError } from "../transcript/file.ts";
import { readInBytes, UsageError } from "./io.ts";
import { printReport } from "./suite.ts";
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
