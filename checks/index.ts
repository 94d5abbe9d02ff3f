import type { CheckDef } from "../src/check.ts";
import B1 from "./B1.ts";
import B3 from "./B3.ts";
import B4 from "./B4.ts";
import F1 from "./F1.ts";
import F2 from "./F2.ts";
import F3 from "./F3.ts";
import F4 from "./F4.ts";
import H1 from "./H1.ts";
import H2 from "./H2.ts";
import H3 from "./H3.ts";
import R1 from "./R1.ts";
import R2 from "./R2.ts";
import S2 from "./S2-framing.ts";

/** Every check, in report order. Imported statically so the binary carries them all. */
export const CHECKS: readonly CheckDef[] = [S2, H1, H2, H3, F1, F2, F3, F4, B1, B3, B4, R1, R2];
