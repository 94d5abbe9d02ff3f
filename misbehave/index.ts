import type { Mode } from "./mode.ts";
import B1_ignore_max_tokens from "./B1-ignore-max-tokens.ts";
import B3_floor from "./B3-floor.ts";
import B3_utf16_length from "./B3-utf16-length.ts";
import B4_ignore_max_frames from "./B4-ignore-max-frames.ts";
import F1_score_above_one from "./F1-score-above-one.ts";
import F2_empty_title from "./F2-empty-title.ts";
import F3_empty_citation from "./F3-empty-citation.ts";
import F4_offset_timestamp from "./F4-offset-timestamp.ts";
import F4_space_separator from "./F4-space-separator.ts";
import H1_wrong_family from "./H1-wrong-family.ts";
import H2_empty_name from "./H2-empty-name.ts";
import H2_empty_version from "./H2-empty-version.ts";
import H3_ack_any_version from "./H3-ack-any-version.ts";
import H3_hang_on_foreign from "./H3-hang-on-foreign.ts";
import H3_wrong_code from "./H3-wrong-code.ts";
import R1_crash_on_bad_query from "./R1-crash-on-bad-query.ts";
import R1_crash_on_garbage from "./R1-crash-on-garbage.ts";
import R2_exit_nonzero from "./R2-exit-nonzero.ts";
import R2_ignore_shutdown from "./R2-ignore-shutdown.ts";
import S2_answer_notification from "./S2-answer-notification.ts";
import S2_banner from "./S2-banner.ts";
import S2_crash_on_unknown_type from "./S2-crash-on-unknown-type.ts";

/** Every misbehave mode, by name. Imported statically so the binary carries them all. */
export const MODES: readonly Mode[] = [
  B1_ignore_max_tokens,
  B3_floor,
  B3_utf16_length,
  B4_ignore_max_frames,
  F1_score_above_one,
  F2_empty_title,
  F3_empty_citation,
  F4_offset_timestamp,
  F4_space_separator,
  H1_wrong_family,
  H2_empty_name,
  H2_empty_version,
  H3_ack_any_version,
  H3_hang_on_foreign,
  H3_wrong_code,
  R1_crash_on_bad_query,
  R1_crash_on_garbage,
  R2_exit_nonzero,
  R2_ignore_shutdown,
  S2_answer_notification,
  S2_banner,
  S2_crash_on_unknown_type,
];

export function modeByName(name: string): Mode | undefined {
  return MODES.find((m) => m.name === name);
}
