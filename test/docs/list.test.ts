import t from "tap";
import { EXCLUDED } from "../../checks/excluded.ts";
import { CHECKS } from "../../checks/index.ts";
import { MODES } from "../../misbehave/index.ts";
import { listJson, renderList } from "../../src/docs/list.ts";
import { HOST_CHECKS } from "../../checks/host/index.ts";
import { HOST_MODES } from "../../misbehave/host/index.ts";

t.test("listJson: one entry per check, in registry order, with its witnesses", async (t) => {
  const all = listJson();
  t.same(
    all.map((e) => e.id),
    [...CHECKS.map((c) => c.id), ...HOST_CHECKS.map((c) => c.id)],
    "provider checks, then host checks",
  );
  const list = all.filter((e) => e.side === "provider");
  for (const c of HOST_CHECKS) {
    const e = all.find((x) => x.id === c.id)!;
    t.same(
      { side: e.side, level: e.level, title: e.title, scenarios: e.scenarios },
      { side: "host", level: c.level, title: c.title, scenarios: c.scenarios.map((s) => s.name) },
      c.id,
    );
    t.same(
      e.witnesses,
      HOST_MODES.filter((m) => m.expectFail.includes(c.id) || (m.expectWarn ?? []).includes(c.id) || (m.expectInfo ?? []).includes(c.id)).map((m) => m.name),
      `${c.id} witnesses`,
    );
    t.ok(e.witnesses.length > 0, `${c.id} has a witness (a host mode)`);
  }
  for (const [k, e] of list.entries()) {
    const c = CHECKS[k]!;
    t.same(
      { level: e.level, title: e.title, requirement: e.requirement, probes: e.probes },
      { level: c.level, title: c.title, requirement: c.requirement, probes: c.probes.map((p) => p.name) },
      c.id,
    );
    t.same(
      e.witnesses,
      MODES.filter((m) => m.expectFail.includes(c.id) || (m.expectWarn ?? []).includes(c.id)).map((m) => m.name),
      `${c.id} witnesses`,
    );
    t.ok(e.witnesses.length > 0, `${c.id} has a witness`);
  }
  const json: unknown = JSON.parse(JSON.stringify(list));
  t.same(json, list, "plain JSON data");
});

t.test("listJson: witnesses include modes that fail several checks", async (t) => {
  t.ok(
    listJson()
      .find((e) => e.id === "F11")!
      .witnesses.includes("H2-empty-name"),
  );
});

t.test("renderList: a header, a row per check, and the excluded anchors", async (t) => {
  const text = renderList();
  const lines = text.split("\n");
  t.match(lines[0], /^ANCHOR\s+LEVEL\s+TITLE\s+PROBES\s+WITNESSES$/);
  for (const c of CHECKS) {
    const row = lines.find((l) => l.startsWith(`${c.id} `));
    t.ok(row, `a row for ${c.id}`);
    t.ok(row!.includes(c.title) && row!.includes(c.level) && row!.includes(c.probes.map((p) => p.name).join(", ")), `${c.id} row has level, title, probes`);
  }
  // Columns align: every row's title starts where the header's TITLE does.
  const at = lines[0]!.indexOf("TITLE");
  for (const c of CHECKS) t.equal(lines.find((l) => l.startsWith(`${c.id} `))!.indexOf(c.title), at, `${c.id} title aligned`);
  t.match(
    text,
    new RegExp(
      `${CHECKS.length} checks of providers \\(stdio, http, reference\\) and ${HOST_CHECKS.length} host checks \\(cgp-conform host\\)\\. ${Object.keys(EXCLUDED).length} anchors have no check`,
    ),
  );
  const hostHeader = lines.findIndex((l) => /^ANCHOR\s+LEVEL\s+TITLE\s+SCENARIOS\s+WITNESSES$/.test(l));
  t.ok(hostHeader > 0, "a second table, of host checks, with their scenarios");
  for (const c of HOST_CHECKS)
    t.ok(
      lines.slice(hostHeader).some((l) => l.startsWith(`${c.id} `) && l.includes(c.title)),
      `a row for ${c.id}`,
    );
  t.notMatch(text, /[ \t]+$/m, "no trailing spaces");
});

t.test("renderList ends with a newline, and fits a terminal's width when given one", async (t) => {
  t.ok(renderList().endsWith(".\n"), "the last line ends with a newline");
  for (const width of [80, 100, 120]) {
    const text = renderList(width);
    const wide = text.split("\n").filter((l) => l.length > width);
    t.same(wide, [], `nothing wider than ${width} columns`);
    for (const c of CHECKS)
      t.ok(
        text.split("\n").some((l) => l.startsWith(`${c.id} `)),
        `${width}: a row for ${c.id}`,
      );
    t.match(text, /counted to fit the terminal/);
  }
  t.notMatch(renderList(10_000), /counted to fit/, "a wide terminal gets the full table");
});
