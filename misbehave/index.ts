import type { Mode } from "./mode.ts";
import B1_ignore_max_tokens from "./B1-ignore-max-tokens.ts";
import B3_floor from "./B3-floor.ts";
import B3_utf16_length from "./B3-utf16-length.ts";
import B4_ignore_max_frames from "./B4-ignore-max-frames.ts";
import C5_local_posture_offmachine_scope from "./C5-local-posture-offmachine-scope.ts";
import D1_short_digest from "./D1-short-digest.ts";
import D1_unstable_content from "./D1-unstable-content.ts";
import E1_bad_fingerprint from "./E1-bad-fingerprint.ts";
import E1_refuse_vectors from "./E1-refuse-vectors.ts";
import F1_score_above_one from "./F1-score-above-one.ts";
import F11_absent_frame from "./F11-absent-frame.ts";
import F11_implied_identity from "./F11-implied-identity.ts";
import F12_arrival_order from "./F12-arrival-order.ts";
import F12_duplicate_last_leaf from "./F12-duplicate-last-leaf.ts";
import F12_untruncated_root from "./F12-untruncated-root.ts";
import F13_bad_proof from "./F13-bad-proof.ts";
import F13_wrong_leaf_count from "./F13-wrong-leaf-count.ts";
import F2_empty_title from "./F2-empty-title.ts";
import F3_empty_citation from "./F3-empty-citation.ts";
import F4_offset_timestamp from "./F4-offset-timestamp.ts";
import F4_space_separator from "./F4-space-separator.ts";
import F5_normalized_newlines from "./F5-normalized-newlines.ts";
import F5_uppercase_digest from "./F5-uppercase-digest.ts";
import F6_attestation_in_frame from "./F6-attestation-in-frame.ts";
import F7_no_presence_byte from "./F7-no-presence-byte.ts";
import F7_uint16_prefix from "./F7-uint16-prefix.ts";
import F7_utf16_length from "./F7-utf16-length.ts";
import G1_empty_display_name from "./G1-empty-display-name.ts";
import G2_relative_target from "./G2-relative-target.ts";
import G4_ignore_anchors from "./G4-ignore-anchors.ts";
import H1_wrong_family from "./H1-wrong-family.ts";
import H2_empty_name from "./H2-empty-name.ts";
import H2_empty_version from "./H2-empty-version.ts";
import H3_ack_any_version from "./H3-ack-any-version.ts";
import H3_hang_on_foreign from "./H3-hang-on-foreign.ts";
import H3_wrong_code from "./H3-wrong-code.ts";
import H4_drop_id from "./H4-drop-id.ts";
import H4_lowercase_id from "./H4-lowercase-id.ts";
import P1_full_with_content_ref from "./P1-full-with-content-ref.ts";
import P2_compact_without_transform from "./P2-compact-without-transform.ts";
import P3_reference_with_content from "./P3-reference-with-content.ts";
import P4_compact_full_cost from "./P4-compact-full-cost.ts";
import P5_compact_without_resolve from "./P5-compact-without-resolve.ts";
import Q1_ignore_kinds from "./Q1-ignore-kinds.ts";
import R1_crash_on_bad_query from "./R1-crash-on-bad-query.ts";
import R1_crash_on_garbage from "./R1-crash-on-garbage.ts";
import R2_exit_nonzero from "./R2-exit-nonzero.ts";
import R2_ignore_shutdown from "./R2-ignore-shutdown.ts";
import S2_answer_notification from "./S2-answer-notification.ts";
import S2_banner from "./S2-banner.ts";
import S2_crash_on_unknown_type from "./S2-crash-on-unknown-type.ts";
import S2_envelope_truncated_string from "./S2-envelope-truncated-string.ts";
import S6_as_of_ignored from "./S6-as-of-ignored.ts";
import S6_bad_signature from "./S6-bad-signature.ts";
import S6_small_order_key from "./S6-small-order-key.ts";
import U1_reject_unknown_members from "./U1-reject-unknown-members.ts";
import U2_reject_unknown_kind from "./U2-reject-unknown-kind.ts";
import U3_empty_namespace_rel from "./U3-empty-namespace-rel.ts";
import V1_body_in_verdict from "./V1-body-in-verdict.ts";
import V2_hollow from "./V2-hollow.ts";
import V2_rubber_stamp from "./V2-rubber-stamp.ts";
import V2_unknown_everything from "./V2-unknown-everything.ts";
import V3_invented_status from "./V3-invented-status.ts";
import V4_uppercase_replacement from "./V4-uppercase-replacement.ts";

/** Every misbehave mode, by name. Imported statically so the binary carries them all. */
export const MODES: readonly Mode[] = [
  B1_ignore_max_tokens,
  B3_floor,
  B3_utf16_length,
  B4_ignore_max_frames,
  C5_local_posture_offmachine_scope,
  D1_short_digest,
  D1_unstable_content,
  E1_bad_fingerprint,
  E1_refuse_vectors,
  F1_score_above_one,
  F11_absent_frame,
  F11_implied_identity,
  F12_arrival_order,
  F12_duplicate_last_leaf,
  F12_untruncated_root,
  F13_bad_proof,
  F13_wrong_leaf_count,
  F2_empty_title,
  F3_empty_citation,
  F4_offset_timestamp,
  F4_space_separator,
  F5_normalized_newlines,
  F5_uppercase_digest,
  F6_attestation_in_frame,
  F7_no_presence_byte,
  F7_uint16_prefix,
  F7_utf16_length,
  G1_empty_display_name,
  G2_relative_target,
  G4_ignore_anchors,
  H1_wrong_family,
  H2_empty_name,
  H2_empty_version,
  H3_ack_any_version,
  H3_hang_on_foreign,
  H3_wrong_code,
  H4_drop_id,
  H4_lowercase_id,
  P1_full_with_content_ref,
  P2_compact_without_transform,
  P3_reference_with_content,
  P4_compact_full_cost,
  P5_compact_without_resolve,
  Q1_ignore_kinds,
  R1_crash_on_bad_query,
  R1_crash_on_garbage,
  R2_exit_nonzero,
  R2_ignore_shutdown,
  S2_answer_notification,
  S2_banner,
  S2_crash_on_unknown_type,
  S2_envelope_truncated_string,
  S6_as_of_ignored,
  S6_bad_signature,
  S6_small_order_key,
  U1_reject_unknown_members,
  U2_reject_unknown_kind,
  U3_empty_namespace_rel,
  V1_body_in_verdict,
  V2_hollow,
  V2_rubber_stamp,
  V2_unknown_everything,
  V3_invented_status,
  V4_uppercase_replacement,
];

export function modeByName(name: string): Mode | undefined {
  return MODES.find((m) => m.name === name);
}
