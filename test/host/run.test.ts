import t from "tap";
import { expand } from "../../src/host/run.ts";

t.test("expand fills every placeholder; {consent} is the scenario's consent, none where it gives none", async (t) => {
  const values = { provider: ["cgp-conform", "scenario-provider", "--socket", "/tmp/a b/p.sock"], token: "tok", consent: "egress" as const };
  t.same(expand(["host", "--consent", "{consent}", "--", "{provider}"], values), [
    "host",
    "--consent",
    "egress",
    "--",
    "cgp-conform",
    "scenario-provider",
    "--socket",
    "/tmp/a b/p.sock",
  ]);
  t.same(expand(["host", "--grant={consent}", "--provider={provider}", "--token={token}"], { ...values, consent: "none" }), [
    "host",
    "--grant=none",
    "--provider=cgp-conform scenario-provider --socket '/tmp/a b/p.sock'",
    "--token=tok",
  ]);
  t.same(expand(["host", "{url}", "{consent}"], { url: "http://127.0.0.1:9/", token: "tok", consent: "none" }), ["host", "http://127.0.0.1:9/", "none"]);
});

t.test("expand fills {ca} with the run's CA file, whole or inside a longer argument", async (t) => {
  const values = { url: "https://192.0.2.1:9/", token: "tok", consent: "none" as const, ca: "/tmp/run/ca.pem" };
  t.same(expand(["host", "--ca", "{ca}", "--cacert={ca}", "{url}"], values), [
    "host",
    "--ca",
    "/tmp/run/ca.pem",
    "--cacert=/tmp/run/ca.pem",
    "https://192.0.2.1:9/",
  ]);
});
