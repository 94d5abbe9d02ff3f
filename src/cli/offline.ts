import { reportOf } from "../engine/run.ts";
import { fromNdjson, TranscriptFormatError } from "../transcript/file.ts";
import { readIn, UsageError } from "./io.ts";
import { printReport } from "./suite.ts";
import { parseUntrusted } from "../protocol/envelope.ts";
import { hostFromNdjson, isHostHeader } from "../transcript/host-file.ts";
import { buildHostReport } from "../verdict/host-report.ts";
import { scoreHost } from "../host/score.ts";
import { HOST_CHECKS } from "../../checks/host/index.ts";

/** cgp-conform replay FILE: the verdicts of a saved transcript, scored again offline. */
export function replay(a: { file: string; json: boolean; verbose: boolean; quiet?: boolean; report?: string[] }): number {
  const text = readIn(a.file);
  try {
    // A host run's transcript (cgp-conform host --transcript) is scored by the host checks.
    const first = parseUntrusted(text.slice(0, text.indexOf("\n") === -1 ? text.length : text.indexOf("\n")));
    if (first.ok && isHostHeader(first.value)) {
      const t = hostFromNdjson(text);
      return printReport(buildHostReport(t, scoreHost(t, HOST_CHECKS)), a, undefined, { transcriptPath: a.file });
    }
    const transcript = fromNdjson(text);
    return printReport(reportOf(transcript), a, transcript, { transcriptPath: a.file });
  } catch (e) {
    if (e instanceof TranscriptFormatError) throw new UsageError(`${a.file}: ${e.message}`);
    throw e;
  }
}
