import UR1 from "../../../checks/host/UR1.ts";
import type { Obj } from "../../../src/protocol/envelope.ts";
import { error, frame, frames, hostTx, query, runHostCases } from "../../helpers/host-transcript.ts";
import { askAll, finish, report } from "../../helpers/compose.ts";

type P = Obj & { served_frames: Obj[] };
const providers = (r: Obj): P[] => r.providers as P[];
/** The three-providers scenario, answered as its providers answer, with the reports given (the reference host's by default). */
function three(change: (r: Obj) => Obj | string = (r) => r, extra = 0) {
  const b = hostTx();
  const held = askAll(b, "three-providers", 3);
  const r = change(report(held));
  b.usage(r);
  for (let i = 0; i < extra; i++) b.usage(r);
  return finish(b, 3);
}
/** The lock-step scenario: one frame served, and the report written. */
const lockStep = (usage: Obj | string | undefined, served = frames()) => {
  const b = hostTx().scenario("lock-step").handshake().send(query()).answer(served);
  if (usage !== undefined) b.usage(usage);
  return b.send({ type: "shutdown" }).end();
};
const RETRY = { provider_id: "cgp-conform-scenario", frame_id: "fixture:retry-doc", content_digest: `sha256:${"a".repeat(64)}` };
const one = (extra: Obj = {}, sf: Obj = {}, entry: Obj = {}): Obj => ({
  budget_requested: 2000,
  budget_consumed: 5,
  as_of: "2026-11-30T00:00:00Z",
  providers: [
    {
      provider_id: "cgp-conform-scenario",
      frames_served: 1,
      frames_rejected: 0,
      token_cost: 5,
      served_frames: [{ frame: RETRY, token_cost: 5, ...sf }],
      ...entry,
    },
  ],
  ...extra,
});

runHostCases(UR1, [
  {
    name: "the reference host's reports, three providers and one that serves nothing",
    build: () => three(),
    status: "pass",
    codes: ["host:UR1.re-sums"],
    says: [
      /scenario three-providers, line \d+: the usage report's budget_consumed \(75\) is the summed token_cost of the 4 served frames it reports, each named by its full FrameId/,
    ],
  },
  {
    name: "reports that list nothing while the blocks compose every frame: a warning, never a pass",
    build: () => {
      const b = hostTx();
      const held = askAll(b, "three-providers", 3);
      b.context(held.map((h) => String(h.frame.content)).join("\n"));
      b.usage({ ...report(held), budget_consumed: 0, providers: [] });
      return finish(b, 3);
    },
    status: "warn",
    codes: ["host:UR1.unreported"],
    says: [/scenario three-providers: its blocks compose \d+ frames that no usage report of the scenario lists among its served frames/],
  },
  {
    name: "a report naming each frame by the FrameId it was served with, in lock-step",
    build: () => lockStep(one()),
    status: "pass",
    codes: ["host:UR1.re-sums"],
    lines: [6],
  },
  {
    name: "no usage report anywhere, and no {usage} in the command: a skip that names the placeholder",
    build: () => lockStep(undefined),
    status: "skip",
    says: [/the host wrote no usage report: name \{usage\} in its command line \(or read CGP_USAGE_PATH\)/],
  },
  {
    name: "{usage} in the command and nothing written: a skip that says so",
    build: () => lockStep(undefined).commandLine(["canned-host", "--usage", "{usage}", "{provider}"]),
    status: "skip",
    says: [/the host's command names \{usage\}, but it wrote no line there in any scenario/],
  },
  {
    name: "budget_consumed is not the sum of the served frames' token_cost",
    build: () => three((r) => ({ ...r, budget_consumed: 4000 })),
    status: "fail",
    codes: ["host:UR1.consumed-unsummed"],
    says: [/the usage report's budget_consumed is 4000, and the token_cost of the 4 served frames it reports sums to 75/],
  },
  {
    name: "budget_consumed missing: the sum UR1 asks cannot hold",
    build: () => lockStep(one({ budget_consumed: undefined })),
    status: "fail",
    codes: ["host:UR1.consumed-unsummed"],
    says: [/budget_consumed is absent, and the token_cost of the 1 served frame it reports sums to 5/],
  },
  {
    name: "a served frame without the content_digest it was served with",
    build: () => lockStep(one({}, { frame: { ...RETRY, content_digest: undefined } })),
    status: "fail",
    codes: ["host:UR1.unserved-frame"],
    says: [
      /names 1 frame no provider of the scenario served: providers\[0\]\.served_frames\[0\] \("cgp-conform-scenario", "fixture:retry-doc", no content_digest\): "fixture:retry-doc" of cgp-conform-scenario was served with content_digest "sha256:aaaa/,
    ],
  },
  {
    name: "a content_digest given to a frame served without one",
    build: () =>
      three((r) => {
        const code = providers(r)[1]!;
        const sf = code.served_frames[0]!;
        code.served_frames[0] = { ...sf, frame: { ...(sf.frame as Obj), content_digest: `sha256:${"b".repeat(64)}` } };
        return r;
      }),
    status: "fail",
    codes: ["host:UR1.unserved-frame"],
    says: [/"fixture:retry" \(no content_digest\) of cgp-conform-code was served without a content_digest, and the report gives it "sha256:bbbb/],
  },
  {
    name: "a digest-less frame referenced with content_digest null (serde's None) is its full FrameId",
    build: () =>
      three((r) => {
        const code = providers(r)[1]!;
        const sf = code.served_frames[0]!;
        code.served_frames[0] = { ...sf, frame: { ...(sf.frame as Obj), content_digest: null } };
        return r;
      }),
    status: "pass",
    codes: ["host:UR1.re-sums"],
  },
  {
    name: "a frame no provider served",
    build: () => lockStep(one({}, { frame: { provider_id: "elsewhere", frame_id: "fixture:ghost" } })),
    status: "fail",
    codes: ["host:UR1.unserved-frame"],
    says: [/no provider of the scenario is named "elsewhere", and none served a frame "fixture:ghost"; a billed total must walk back/],
  },
  {
    name: "the host's own provider keys, each frame of one provider: its routing key stands for it",
    build: () =>
      three((r) => {
        for (const p of providers(r)) {
          p.provider_id = `key-${String(p.provider_id).slice(-4)}`;
          for (const sf of p.served_frames) (sf.frame as Obj).provider_id = p.provider_id;
        }
        return r;
      }),
    status: "pass",
    codes: ["host:UR1.re-sums"],
  },
  {
    name: "a frame priced at other than its declared token_cost, the totals summing what was written",
    build: () => lockStep(one({ budget_consumed: 6 }, { token_cost: 6 }, { token_cost: 6 })),
    status: "fail",
    codes: ["host:UR1.mispriced"],
    says: [
      /prices 1 served frame at other than the token_cost the frame carried: .*costs 6, and "fixture:retry-doc" of cgp-conform-scenario declared token_cost 5/,
    ],
    never: [/budget_consumed is/],
  },
  {
    name: "served frames referenced by frame id alone: one finding, its sum still judged right",
    build: () =>
      three((r) => {
        for (const p of providers(r)) p.served_frames = p.served_frames.map((sf) => ({ ...sf, frame: { frame_id: (sf.frame as Obj).frame_id } }));
        return r;
      }),
    status: "fail",
    codes: ["host:UR1.no-frame-id"],
    says: [
      /references 4 served frames by no FrameId: its frame has no string provider_id \(providers\[0\]\.served_frames\[0\], providers\[0\]\.served_frames\[1\], providers\[1\]\.served_frames\[0\], and 1 more\)/,
    ],
    never: [/budget_consumed is/],
  },
  {
    name: "the FrameId flat in each served frame, beside its token_cost: the triple is there, a pass",
    build: () =>
      three((r) => {
        for (const p of providers(r)) p.served_frames = p.served_frames.map(({ frame, token_cost }) => ({ ...(frame as Obj), token_cost }));
        return r;
      }),
    status: "pass",
    codes: ["host:UR1.re-sums"],
    says: [/the usage report's budget_consumed \(75\) is the summed token_cost of the 4 served frames it reports, each named by its full FrameId/],
  },
  {
    name: "the FrameId flat but without its provider_id: no FrameId, a failure",
    build: () =>
      three((r) => {
        for (const p of providers(r))
          p.served_frames = p.served_frames.map(({ frame, token_cost }) => {
            const { provider_id: _, ...rest } = frame as Obj;
            return { ...rest, token_cost };
          });
        return r;
      }),
    status: "fail",
    codes: ["host:UR1.no-frame-id"],
    says: [/references 4 served frames by no FrameId: it has no string provider_id \(providers\[0\]\.served_frames\[0\]/],
  },
  {
    name: "a served frame with no FrameId in any shape",
    build: () => lockStep(one({}, { frame: undefined, note: "retry doc" })),
    status: "fail",
    codes: ["host:UR1.no-frame-id"],
    says: [/it has no FrameId: no frame object, and no provider_id and frame_id of its own/],
  },
  {
    name: "a line over the run's cap: not read, it informs",
    build: () =>
      hostTx().scenario("lock-step").handshake().send(query()).answer(frames()).usage('{"budget_requested": 2000, "providers": [', { overLong: true }).end(),
    status: "info",
    codes: ["host:UR1.line-too-long"],
  },
  {
    name: "shape departures warn: as_of, frames_served, a provider total that does not re-sum",
    build: () => lockStep(one({ as_of: "yesterday" }, {}, { frames_served: 2, token_cost: 7 })),
    status: "warn",
    codes: ["host:UR1.off-shape"],
    strict: "warn",
    says: [
      /departs from the shape of context-reuse §2: as_of is "yesterday", not an RFC 3339 date-time; providers\[0\] \("cgp-conform-scenario"\) says frames_served 2 and lists 1 served frames; providers\[0\] \("cgp-conform-scenario"\) says token_cost 7, and its served frames sum to 5/,
    ],
  },
  {
    name: "a line that is not JSON warns, beside a good report",
    build: () => hostTx().scenario("lock-step").handshake().send(query()).answer(frames()).usage("usage: 5 tokens").usage(one()).end(),
    status: "warn",
    codes: ["host:UR1.not-a-report"],
    says: [/line 6: a line of \{usage\} that is not JSON \("usage: 5 tokens"\): it is no usage report/],
  },
  {
    name: "two queries answered with frames and one report: able to produce one is not one per answer, a warning",
    build: () => hostTx().scenario("lock-step").handshake().send(query()).answer(frames()).send(query()).answer(frames()).usage(one()).end(),
    status: "warn",
    codes: ["host:UR1.too-few-reports"],
    strict: "warn",
    says: [/scenario lock-step: the host executed at least 2 queries \(its provider answered lines 5, 7 with frames\) and wrote 1 usage report \(line 8\)/],
    lines: [5, 7],
  },
  {
    name: "a report in one scenario and none in another that served frames",
    build: () =>
      hostTx()
        .scenario("lock-step")
        .handshake()
        .send(query())
        .answer(frames())
        .usage(one())
        .end()
        .scenario("correlation")
        .handshake()
        .send(query())
        .answer(frames([frame({ id: "fixture:other" })]))
        .end(),
    status: "warn",
    codes: ["host:UR1.too-few-reports"],
    says: [/scenario correlation: the host executed at least 1 query \(its provider answered line \d+ with frames\) and wrote no usage report/],
  },
  {
    name: "a scenario whose queries were answered with errors asks no report",
    build: () => lockStep(one()).scenario("error-internal").handshake().send(query()).answer(error("internal")).end({ code: 1 }),
    status: "pass",
    codes: ["host:UR1.re-sums"],
  },
  {
    name: "in a scenario of several providers the count is per provider: one report for a query each reached",
    build: () => three((r) => r, 0),
    status: "pass",
    codes: ["host:UR1.re-sums"],
    never: [/executed at least/],
  },
]);
