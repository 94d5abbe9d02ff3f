/**
 * What one scenario records (Recorder), and one scenario provider's session
 * (Session): the same whether the host reaches it over a relay, over HTTP,
 * or in this process (the selftest's host modes).
 */
import { dispatch } from "../reference/serve.ts";
import { scenario as scenarioOf, type RunSecrets, type Scenario } from "../reference/scenarios.ts";
import type { ScenarioName } from "../protocol/host-scenarios.ts";
import { parseObj } from "../protocol/envelope.ts";
import { redact } from "../secret/redact.ts";
import type { HostEvent } from "../transcript/host.ts";

/** What one scenario records at most: past it the host's lines are not kept. */
export const MAX_LINES = 2000;
/** And at most this many bytes of them: 2000 lines of a megabyte each would be two gigabytes held. */
export const MAX_RECORDED_BYTES = 8 * 1024 * 1024;
/** And at most this many notes (the over-cap note past the other caps is one of them). */
export const MAX_NOTES = 500;
/** The longest line (a relay's line of the host's input, an HTTP request's body, a line of its output) kept: past it the line is not. */
export const MAX_LINE_BYTES = 1024 * 1024;
/** The notes no cap drops: how the host ended, and what was not kept. */
const KEPT_NOTES = new Set(["host-exit", "host-timeout", "spawn-error", "over-cap"]);

/** The forms of the token a line of the host's output holds. */
export function leaks(line: string, forms: Array<[string, string]>): string[] {
  const found = forms.filter(([, v]) => line.includes(v)).map(([k]) => k);
  if (found.length === 0 && redact(line) !== line) found.push("escaped or in part");
  return found;
}

export class Recorder {
  readonly events: HostEvent[] = [];
  private start = 0;
  private lines = 0;
  private bytes = 0;
  private notes = 0;
  private capped = false;
  scenario = "";
  private reached: (() => void) | undefined;

  /** Resolves at the scenario's first "connected" note: the host has reached one of its providers. */
  contact(): Promise<void> {
    return new Promise((resolve) => (this.reached = resolve));
  }

  begin(name: string): void {
    this.reached = undefined;
    this.scenario = name;
    this.start = performance.now();
    this.lines = 0;
    this.bytes = 0;
    this.notes = 0;
    this.capped = false;
  }

  push(e: Omit<HostEvent, "n" | "scenario" | "t">): void {
    if (e.dir === "host" || e.dir === "provider") {
      const size = e.line?.length ?? 0;
      if (this.lines >= MAX_LINES || this.bytes + size > MAX_RECORDED_BYTES) {
        if (!this.capped)
          this.note({
            note: "over-cap",
            reason: `more than ${MAX_LINES} lines, or ${MAX_RECORDED_BYTES} bytes of them, in one scenario: the rest were not kept`,
          });
        this.capped = true;
        return;
      }
      this.lines++;
      this.bytes += size;
    }
    this.events.push({ n: 0, scenario: this.scenario, t: Math.round(performance.now() - this.start), ...e });
  }

  note(e: Omit<HostEvent, "n" | "scenario" | "t" | "dir">): void {
    if (e.note === "connected") {
      this.reached?.();
      this.reached = undefined;
    }
    // A host looping on refusals (401s, reconnects) would otherwise add a note a turn; how the host ended, and the caps, are always kept.
    if (!KEPT_NOTES.has(e.note ?? "")) {
      if (this.notes >= MAX_NOTES) {
        if (this.notes === MAX_NOTES)
          this.push({ dir: "note", note: "over-cap", reason: `more than ${MAX_NOTES} notes in one scenario: the rest were not kept` });
        this.notes++;
        return;
      }
      this.notes++;
    }
    this.push({ dir: "note", ...e });
  }
}

/** What marks an event as one provider's, in a scenario with several (nothing, in one with one). */
export function providerTag(index: number, count: number): Pick<HostEvent, "provider"> {
  return count > 1 ? { provider: index } : {};
}

/** A scenario provider served to a host process (over a relay's socket, or HTTP): what fills its placeholders, and its end. */
export interface Served {
  values: { provider?: string[]; url?: string };
  /** Resolves once no relay is connected (at once over HTTP). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** One scenario provider session: one relay connection (stdio) or the scenario's whole HTTP life. */
export class Session {
  readonly state = { handshaken: false, requireHandshake: true };
  readonly s: Scenario;
  silent = false;
  /** Marks this session's events as its provider's, where the scenario has several. */
  readonly tag: Pick<HostEvent, "provider">;
  constructor(
    name: ScenarioName,
    secrets: RunSecrets,
    private readonly rec: Recorder,
    http: boolean,
    /** Which of the scenario's providers this is (0: {provider}), of how many. */
    index = 0,
    count = 1,
  ) {
    this.s = scenarioOf(name, secrets, index);
    this.state.requireHandshake = !http;
    this.tag = providerTag(index, count);
  }

  /** A line from the host; what to do about it. */
  receive(text: string, extra: Partial<HostEvent> = {}): { lines: string[]; exit?: number; crash?: boolean; withhold?: boolean } {
    this.rec.push({ dir: "host", line: redact(text), bytes: Buffer.byteLength(text), ...extra, ...this.tag });
    if (this.silent) return { lines: [], withhold: true };
    const env = parseObj(text);
    if (env?.type === "query" && this.s.onQuery === "crash") return { lines: [], crash: true };
    if (env?.type === "query" && this.s.onQuery === "silent") {
      this.silent = true;
      this.rec.note({ note: "withheld", reason: "the scenario stops answering from its first query on, and never exits on its own", ...this.tag });
      return { lines: [], withhold: true };
    }
    const d = dispatch(this.s.provider, text, this.state);
    const lines = d.replies.map((r) => this.s.provider.serialize(r));
    for (const l of lines) this.rec.push({ dir: "provider", line: l, ...this.tag });
    return { lines, ...(d.exit !== undefined ? { exit: d.exit } : {}) };
  }
}
