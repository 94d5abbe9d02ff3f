import S2 from "../../../checks/host/S2-unknown-type.ts";
import { providerName } from "../../../src/protocol/caps.ts";
import { LATER_MINOR, UNKNOWN_ENVELOPE } from "../../../src/protocol/host-scenarios.ts";
import { hostTx, query, runHostCases, SHUTDOWN, type Ending, type HostTranscriptBuilder } from "../../helpers/host-transcript.ts";
import { block, turns } from "../../helpers/compose.ts";
import { scenario } from "../../../src/reference/scenarios.ts";
import type { Obj } from "../../../src/protocol/envelope.ts";

const NOTE = { type: UNKNOWN_ENVELOPE, note: "a notification of a later minor", frame_ids: [] };

/** What the scenario provider serves: its ack, and the frames of its answer (between the two notifications). */
function served(): { ack: Obj; frames: Obj[] } {
  const p = scenario("unknown-envelope-type", { token: "canned-token-0123456789", nonce: "c0ffee00" }).provider;
  const answer = p.onQuery({ type: "query", query: { goal: "g", kinds: [], max_frames: 8, max_tokens: 4000 } }).find((e) => e.type === "frames");
  return { ack: p.ack(), frames: (answer!.result as Obj).frames as Obj[] };
}

/** unknown-envelope-type as a host of one query has it: the notes around the answer, then what the host did. */
function unknownType(b: HostTranscriptBuilder, how: { end?: Ending; compose?: boolean; query?: boolean } = {}): HostTranscriptBuilder {
  const { ack, frames } = served();
  b.scenario("unknown-envelope-type").handshake(ack);
  if (how.query !== false)
    b.send(query())
      .answer(NOTE)
      .answer({ type: "frames", result: { frames, truncated: false } })
      .answer(NOTE);
  b.send(SHUTDOWN).end(how.end ?? { code: 0 });
  if (how.compose !== false) b.context(block(frames.map((frame) => ({ provider_id: providerName(ack)!, frame }))));
  return b;
}
const base = () => turns(hostTx(), "lock-step");

runHostCases(S2, [
  {
    name: "the notifications ignored: the answer composed as in lock-step",
    build: () => unknownType(base()),
    status: "pass",
    says: [
      new RegExp(`after a handshake_ack of ${LATER_MINOR.replace(/[./]/g, "\\$&")} \\(line \\d+\\), and was sent notifications of type ${UNKNOWN_ENVELOPE}`),
      /the host exited with status 0 \(line \d+\), as in lock-step/,
      /the block holds every one of the 5 frames that lock-step's first block \(line \d+\) holds/,
    ],
  },
  {
    name: "the provider dropped on the unknown type: exit 1",
    build: () => unknownType(base(), { end: { code: 1 }, compose: false }),
    status: "fail",
    codes: ["host:S2-unknown-type.ending-differs"],
    says: [/the host exited with status 1 \(line \d+\), but in lock-step, identical but for a notification of type frames_invalidated/],
  },
  {
    name: "a crash on the unknown type",
    build: () => unknownType(base(), { end: { signal: "SIGABRT" }, compose: false }),
    status: "fail",
    codes: ["host:S2-unknown-type.ending-differs"],
  },
  {
    name: "the answer dropped, exit 0 all the same",
    build: () => unknownType(base(), { compose: false }),
    status: "fail",
    codes: ["host:S2-unknown-type.answer-dropped"],
  },
  {
    name: "no query after the later minor's ack: nothing unknown reached the host, skip",
    build: () => unknownType(base(), { query: false, compose: false }),
    status: "skip",
    says: [/sent no query after the handshake_ack of contextgraph\/1\.7/],
  },
  {
    name: "over HTTP the scenario does not run: skip",
    build: () => base().scenario("unknown-envelope-type", { skipped: "over stdio only" }),
    status: "skip",
    says: [/runs over stdio only/],
  },
  {
    name: "no baseline: skip",
    build: () => unknownType(hostTx()),
    status: "skip",
    says: [/lock-step did not run/],
  },
]);
