/**
 * The reference host's gates: what it refuses before a query goes, and the
 * consent it holds. Its HTTP transport decides on the URL alone, before any
 * byte leaves: plain http:// to a host that is not loopback is refused (C7),
 * and such a host is egress whatever it declares (C4), so it is reached only
 * with a consent recorded for it. A provider speaking another major version
 * is refused (H3); one declaring egress needs a boolean consent (C2); one
 * declaring an off-machine egress scope needs a receipt for it, which this
 * host never holds (C6).
 */
import { providerName } from "../protocol/caps.ts";
import { isObj, type Obj } from "../protocol/envelope.ts";
import type { Consent } from "../protocol/host-scenarios.ts";
import { displayUrl, InsecureTransportError, remoteHost, vetUrl } from "../protocol/loopback.ts";
import { family, HOST_VERSION } from "../math/version.ts";
import { shown, type Behaviours } from "./host-contract.ts";

function dataFlow(ack: Obj): Obj {
  const p = isObj(ack.provider) ? ack.provider : {};
  return isObj(p.data_flow) ? p.data_flow : {};
}

/** The consent CGP_CONSENT gives: `egress`, or none. A value it does not know grants nothing: consent is never inferred. */
export function consentOf(value: string | undefined): Consent {
  return value === "egress" ? "egress" : "none";
}

/** §4.1: everything but local-only is off-machine, an unknown custom scope included. */
export function offMachineScopes(ack: Obj): string[] {
  const scopes = dataFlow(ack).egress_scopes;
  if (!Array.isArray(scopes)) return [];
  return scopes.filter((s) => s !== "local-only").map((s) => (typeof s === "string" ? s : JSON.stringify(s)));
}

export const gates: Behaviours<"transportRefusal" | "remoteRefusal" | "compatible" | "onWrongFamily" | "egressRefusal" | "scopeRefusal" | "refusal"> = {
  transportRefusal(url) {
    try {
      vetUrl(url);
      return undefined;
    } catch (e) {
      if (!(e instanceof InsecureTransportError)) return { code: "unreachable", message: shown((e as Error).message) };
      return {
        code: "insecure_transport",
        message: `${shown(displayUrl(url))} is plain http:// to ${shown(remoteHost(url))}, which is not loopback: refused before anything is sent (C7: TLS for every non-loopback provider)`,
      };
    }
  },

  remoteRefusal(url) {
    const remote = remoteHost(url);
    if (remote === undefined || this.consent === "egress") return undefined;
    return {
      code: "consent_required",
      message: `${shown(remote)} is not loopback, so it is egress whatever it declares (C4), and no consent is recorded (C2)`,
    };
  },

  compatible(version) {
    const ours = family(HOST_VERSION);
    return ours !== undefined && family(version) === ours;
  },

  onWrongFamily(ack) {
    return {
      code: "incompatible_version",
      message: `provider speaks ${shown(ack.protocol_version)}, this host speaks ${family(HOST_VERSION)}.x`,
    };
  },

  egressRefusal(ack) {
    if (this.consent === "egress") return undefined;
    const name = shown(providerName(ack) ?? "(unnamed)");
    const egress = dataFlow(ack).egress;
    if (egress === true) return { code: "consent_required", message: `provider ${name} declares egress: true and no consent is recorded (C2)` };
    // Not declared at all: what cannot be shown to stay on the machine is treated as leaving it.
    if (egress !== false) return { code: "consent_required", message: `provider ${name} does not declare data_flow.egress and no consent is recorded (C2)` };
    return undefined;
  },

  scopeRefusal(ack) {
    const off = offMachineScopes(ack);
    if (off.length === 0) return undefined;
    const list = off.map(shown).join(", ");
    const missing = off.length === 1 ? `scope ${list} has no consent receipt` : `scopes ${list} have no consent receipt`;
    return {
      code: "consent_required",
      message: this.consent === "egress" ? `${missing}, and the boolean consent recorded for this provider satisfies no scope gate (C6)` : `${missing} (C6)`,
    };
  },

  refusal(ack) {
    return this.egressRefusal(ack) ?? this.scopeRefusal(ack);
  },
};
