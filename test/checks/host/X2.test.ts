import X2 from "../../../checks/host/X2.ts";
import { hostTx, query, runHostCases, SHUTDOWN, type HostTranscriptBuilder } from "../../helpers/host-transcript.ts";

/** An error with `code`, or with none when `code` is undefined. */
const error = (code: string | undefined) =>
  code === undefined ? { type: "error", message: "an error with no code" } : { type: "error", code, message: `a ${code} error` };

/** A scenario answering each of `tries` queries with `code`, then the host's ending. */
function erring(
  b: HostTranscriptBuilder,
  name: string,
  code: string | undefined,
  tries: number,
  end: { code: number } | { hang: number } = { code: 1 },
): HostTranscriptBuilder {
  b.scenario(name).handshake();
  for (let i = 0; i < tries; i++) b.send(query()).answer(error(code));
  return b.send(SHUTDOWN).end(end);
}
const run =
  (internal: number, unknown: number, endU: { code: number } | { hang: number } = { code: 1 }) =>
  () =>
    erring(erring(hostTx(), "error-internal", "internal", internal), "error-no-code", undefined, unknown, endU);

runHostCases(X2, [
  {
    name: "the absent code treated as internal",
    build: run(1, 1),
    status: "pass",
    says: [
      /answered an error with no code, the host sent 1 query \(line 10\), as it sent 1 query \(line 4\) answered internal/,
      /the host exited with status 1 \(line 13\), as in error-internal \(line 7\)/,
    ],
  },
  {
    name: "retried on the absent code only",
    build: run(1, 3),
    status: "fail",
    codes: ["host:X2.retried-unlike-internal"],
    says: [
      /the host retried, sending 3 queries \(lines 10, 12, 14\), though answered internal it sent 1 query \(line 4\): a host must never infer "safe to retry" from an absent code/,
    ],
    lines: [10, 14],
  },
  {
    name: "gave up on the absent code at once, retrying internal",
    build: run(3, 1),
    status: "fail",
    codes: ["host:X2.gave-up-unlike-internal"],
    says: [/sent 1 query \(line 14\) and gave up, though answered internal it retried, sending 3 queries/],
    lines: [14],
  },
  {
    name: "retried in both, not alike: a warning",
    build: run(3, 4),
    status: "warn",
    codes: ["host:X2.retried-otherwise"],
    strict: "warn",
    says: [/it retried in both, but not alike/],
  },
  {
    name: "an ending unlike internal's",
    build: run(1, 1, { hang: 1000 }),
    status: "fail",
    codes: ["host:X2.ending-differs"],
    says: [
      /scenario error-no-code: the host did not end within 1000 ms and was killed \(line 13\), but in error-internal, identical but for the error \(an absent code here, internal there\), it exited with status 1 \(line 7\)/,
    ],
  },
  {
    name: "no query in error-internal",
    build: () => erring(erring(hostTx(), "error-internal", "internal", 0), "error-no-code", undefined, 1),
    status: "skip",
    says: [/scenario error-internal: the host sent no query/],
  },
  {
    name: "no query in error-no-code",
    build: run(1, 0),
    status: "skip",
    says: [/an absent code never reached it/],
  },
]);
