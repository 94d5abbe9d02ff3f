/**
 * The host's output (stdout, stderr) into the record: line by line, each
 * searched for the run's token in every form (C8) and redacted, within caps
 * on lines and bytes. Past a cap a line is no longer kept, but still read (a
 * host must never block on a full pipe) and still searched. Two sources: a
 * host process's pipes (captureOutput), and a host in this process, whose
 * print and log calls are its lines (printedLines).
 */
import { redact } from "../secret/redact.ts";
import { leaks, MAX_LINE_BYTES, type Recorder } from "./session.ts";

/** What one scenario records at most of the host's output: past it its lines are not kept. */
const MAX_OUTPUT_BYTES = 1024 * 1024;
const MAX_OUTPUT_LINES = 2000;
/** The longest printed line kept whole in the record. */
const MAX_KEPT_LINE = 16 * 1024;

/** A line the host printed, as the record keeps it: cut to MAX_KEPT_LINE, the token redacted. */
const keptLine = (line: string): string => redact(line.length > MAX_KEPT_LINE ? `${line.slice(0, MAX_KEPT_LINE)}…` : line);

/** Read a stream into lines, up to a cap, recording each as it completes. */
export function captureOutput(
  stream: NodeJS.ReadableStream | null | undefined,
  dir: "stdout" | "stderr",
  rec: Recorder,
  forms: Array<[string, string]>,
): Promise<void> {
  return new Promise((resolve) => {
    if (!stream) return resolve();
    let bytes = 0;
    let lines = 0;
    let rest = "";
    let noted = false;
    let finished = false;
    // Past the caps: how many lines held the token, and in which forms (one event at the end, not one a line).
    let unkept = 0;
    const unkeptForms = new Set<string>();
    const longest = Math.max(...forms.map(([, v]) => v.length));
    const over = (why: string): void => {
      if (noted) return;
      noted = true;
      rec.note({ note: "over-cap", reason: `the host wrote ${why} on its ${dir}: later lines are not kept, but every line is still searched for the token` });
    };
    // Past the caps a line is no longer kept, but it is still read (a host must never block on a full pipe) and searched for the token (C8).
    const emit = (line: string): void => {
      const leaked = leaks(line, forms);
      if (lines < MAX_OUTPUT_LINES && bytes <= MAX_OUTPUT_BYTES) {
        lines++;
        rec.push({ dir, line: keptLine(line), ...(leaked.length ? { leaked } : {}) });
        return;
      }
      over(lines >= MAX_OUTPUT_LINES ? `more than ${MAX_OUTPUT_LINES} lines` : `more than ${MAX_OUTPUT_BYTES} bytes`);
      if (leaked.length > 0) {
        unkept++;
        for (const f of leaked) unkeptForms.add(f);
      }
    };
    stream.setEncoding("utf8");
    stream.on("data", (c: string) => {
      bytes += Buffer.byteLength(c);
      rest += c;
      const parts = rest.split("\n");
      rest = parts.pop() ?? "";
      for (const p of parts) emit(p.replace(/\r$/, ""));
      // A line that never ends: searched as it grows, and cut, keeping just enough of its end to find a token that spans the cut.
      if (rest.length > MAX_LINE_BYTES) {
        const leaked = leaks(rest, forms);
        if (leaked.length > 0) {
          unkept++;
          for (const f of leaked) unkeptForms.add(f);
        }
        over(`a line longer than ${MAX_LINE_BYTES} bytes`);
        rest = rest.slice(-(longest - 1));
      }
    });
    const done = (): void => {
      if (finished) return;
      finished = true;
      if (rest !== "") emit(rest);
      rest = "";
      if (unkept > 0)
        rec.push({ dir, line: `(not kept: ${unkept} ${unkept === 1 ? "line" : "lines"} past the output cap held the token)`, leaked: [...unkeptForms] });
      resolve();
    };
    stream.on("end", done);
    stream.on("close", done);
    stream.on("error", done);
  });
}

/**
 * The lines a host in this process prints and logs, recorded as a process's
 * would be (its `print` and `log` are `line("stdout")` and `line("stderr")`);
 * nothing is recorded once `close`d (the host was stopped, or interrupted).
 */
export function printedLines(rec: Recorder, forms: Array<[string, string]>): { line(dir: "stdout" | "stderr"): (text: string) => void; close(): void } {
  let open = true;
  const kept = { stdout: 0, stderr: 0 };
  return {
    line: (dir) => (text) => {
      if (!open) return;
      for (const raw of text.split("\n")) {
        const l = raw.replace(/\r$/, "");
        const leaked = leaks(l, forms);
        if (kept[dir] >= MAX_OUTPUT_LINES && leaked.length === 0) continue;
        kept[dir]++;
        rec.push({ dir, line: keptLine(l), ...(leaked.length ? { leaked } : {}) });
      }
    },
    close() {
      open = false;
    },
  };
}
