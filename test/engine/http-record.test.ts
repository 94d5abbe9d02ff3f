import t from "tap";
import { runSuite } from "../../src/engine/run.ts";
import { withFixtureRoot } from "../../src/engine/fixture-process.ts";
import { materialize } from "../../src/reference/files.ts";
import { serveHttp } from "../../src/reference/http.ts";
import type { Provider } from "../../src/reference/provider.ts";
import { providerFor } from "../../misbehave/apply.ts";
import { renderHuman } from "../../src/report/human.ts";
import { Chalk } from "chalk";
import { SHUTDOWN } from "../../src/protocol/probes.ts";

/** The reference provider, counting every message it is handed: dispatch gives each to exactly one of these. */
function counting(p: Provider): { provider: Provider; received: string[] } {
  const received: string[] = [];
  const wrap = <A extends unknown[], R>(kind: string, f: (this: Provider, ...a: A) => R) =>
    function (this: Provider, ...a: A): R {
      received.push(kind);
      return f.apply(this, a);
    };
  const provider: Provider = {
    ...p,
    onHandshake: wrap("handshake", p.onHandshake),
    onQuery: wrap("query", p.onQuery),
    onVerify: wrap("verify", p.onVerify),
    onMalformed: wrap("malformed", p.onMalformed),
    onUnknown: wrap("unknown", p.onUnknown),
    onShutdown: wrap("shutdown", p.onShutdown),
  };
  return { provider, received };
}

t.test("over HTTP the record calls sent exactly what reached the provider, and the counts say so", async (t) => {
  await withFixtureRoot(async (root) => {
    materialize(root);
    const { provider, received } = counting(providerFor(undefined, root, true));
    const served = await serveHttp(provider, 0, false);
    t.teardown(() => served.close());
    const { report, transcript } = await runSuite({ kind: "http", url: served.url, headers: {} }, { trustRoots: [root], grants: ["all"] });
    await served.close();
    const sent = transcript.events.filter((e) => e.dir === "send");
    t.ok(sent.length > 50, `a full run sends many lines (${sent.length})`);
    t.equal(sent.length, received.length, "every line recorded as sent reached the provider, and nothing else did");
    t.notOk(received.includes("shutdown"), "no shutdown reaches an HTTP provider whose server the other sessions share");
    t.notOk(
      sent.some((e) => e.step === SHUTDOWN.steps.shutdown),
      "so none is recorded as sent",
    );
    const unsent = transcript.events.filter((e) => e.note === "unsent");
    t.match(unsent, [{ probe: SHUTDOWN.name, line: '{"type":"shutdown"}', reason: /not sent over HTTP/ }], "it is a note saying why");
    t.equal(report.exploration?.exchanges, received.length, "--json's exploration.exchanges counts what was written");
    const human = renderHuman(report, new Chalk({ level: 0 }));
    t.match(human, new RegExp(`· ${received.length} lines sent \\(depth standard\\)`), "the human report's lines sent too");
    t.equal(report.results.find((r) => r.id === "R2")?.status, "skip", "R2 is judged on stdio only");
    t.equal(report.conformant, true, "the reference provider stays conformant");
  });
});
