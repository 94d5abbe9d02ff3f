import { type CheckDef } from "./kit/check.ts";
import B1 from "./B1.ts";
import B3 from "./B3.ts";
import B4 from "./B4.ts";
import C5 from "./C5.ts";
import D1 from "./D1.ts";
import E1 from "./E1.ts";
import F1 from "./F1.ts";
import F2 from "./F2.ts";
import F3 from "./F3.ts";
import F4 from "./F4.ts";
import F11 from "./F11.ts";
import F12 from "./F12.ts";
import F13 from "./F13.ts";
import F5 from "./F5.ts";
import F6 from "./F6.ts";
import F7 from "./F7.ts";
import G1 from "./G1.ts";
import G2 from "./G2.ts";
import G4 from "./G4.ts";
import H1 from "./H1.ts";
import H2 from "./H2.ts";
import H3 from "./H3.ts";
import H4 from "./H4.ts";
import P1 from "./P1.ts";
import P2 from "./P2.ts";
import P3 from "./P3.ts";
import P4 from "./P4.ts";
import P5 from "./P5.ts";
import Q1 from "./Q1.ts";
import R1 from "./R1.ts";
import R2 from "./R2.ts";
import S2E from "./S2-envelope.ts";
import S2 from "./S2-framing.ts";
import S6 from "./S6-as-of.ts";
import S6S from "./S6-signatures.ts";
import U1 from "./U1.ts";
import U2 from "./U2.ts";
import U3 from "./U3.ts";
import V1 from "./V1.ts";
import V2 from "./V2.ts";
import V3 from "./V3.ts";
import V4 from "./V4.ts";

/** Every check, in report order (spec order). Imported statically so the binary carries them all. */
export const CHECKS: readonly CheckDef[] = [
  S2, S2E, H1, H2, H3, H4, C5, Q1, E1, F1, F2, F3, F4, S6, F5, F6, F7, F11, F12, F13, S6S, D1, P1, P2, P3, P4, P5, B1, B3, B4, G1, G2, G4, V1, V2, V3, V4, R1, R2, U1, U2, U3,
];
