import t from "tap";
import { selfScript } from "../../src/engine/fixture-process.ts";

t.test("selfScript: the CLI entry beside the sources, or the Node bundle itself", async (t) => {
  t.equal(selfScript("file:///repo/src/engine/fixture-process.ts"), "/repo/bin/cgp-conform.ts", "from the sources");
  t.equal(selfScript("file:///repo/src/engine/fixture-process.ts?tsx-namespace=1"), "/repo/bin/cgp-conform.ts", "a loader's query is no part of the path");
  t.equal(
    selfScript("file:///app/node_modules/cgp-conform/dist/cgp-conform.mjs"),
    "/app/node_modules/cgp-conform/dist/cgp-conform.mjs",
    "in the bundle, where every module has the bundle's URL",
  );
  t.match(selfScript(), /\/bin\/cgp-conform\.ts$/, "this process runs the sources");
});
