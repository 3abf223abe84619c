// mutual_tls and tls_termination (an HTTPS or TLS edge's own) → terminate-tls in on_tcp_connect:
// the client certificate authorities, the lowest TLS version (1.0 and 1.1 become 1.2, the
// lowest ngrok offers), and for a TLS edge whether TLS ends at ngrok at all (mutual TLS on a TLS
// edge that passes TLS through cannot be kept: not migrated).
import type { Action } from "../policy.js";
import { isObj, isOn, translation, type Obj, type Translation } from "./translator.js";

export interface TlsModules {
  mutual_tls?: unknown;
  tls_termination?: unknown;
}

export function translateTls(edge: TlsModules, cx: { kind: "https" | "tls" }): Translation {
  const { kind } = cx;
  const out = translation();
  const refuse = (item: string, reason: string) => (out.refused.push({ item, reason }), out);
  const config: Obj = {};
  let terminates = false;
  const mtls = edge.mutual_tls;
  if (isOn(mtls)) {
    const cas = (mtls as Obj).certificate_authorities;
    if (!Array.isArray(cas) || !cas.every((c) => isObj(c) && typeof c.id === "string"))
      return refuse("mutual_tls", "mutual_tls.certificate_authorities is not a list of certificate authorities");
    if (cas.length === 0) return refuse("mutual_tls", "mutual_tls is enabled with no certificate authorities");
    config.mutual_tls_certificate_authorities = cas.map((c) => (c as Obj).id);
  }
  const term = edge.tls_termination;
  if (isOn(term)) {
    const { terminate_at, min_version } = term as Obj;
    if (terminate_at === "edge" || terminate_at === undefined || terminate_at === null) {
      // A TLS endpoint passes TLS through unless told to end it; an HTTPS one always ends it.
      terminates = kind === "tls";
      if (min_version !== undefined && min_version !== null && min_version !== "") {
        if (min_version === "1.0" || min_version === "1.1") {
          out.warnings.push({
            item: "tls_termination",
            message: `min_version ${min_version} becomes 1.2, the lowest ngrok offers`,
          });
          config.min_version = "1.2";
        } else if (min_version === "1.2" || min_version === "1.3") config.min_version = min_version;
        else return refuse("tls_termination", `min_version ${JSON.stringify(min_version)} is not 1.0–1.3`);
      }
    } else if (kind === "https") {
      return refuse(
        "tls_termination",
        `terminate_at ${JSON.stringify(terminate_at)}: an HTTPS endpoint ends TLS at ngrok and cannot pass it through`,
      );
    } else if (terminate_at !== "upstream" && terminate_at !== "agent") {
      return refuse("tls_termination", `terminate_at ${JSON.stringify(terminate_at)} is not edge or upstream`);
    } else if (config.mutual_tls_certificate_authorities !== undefined) {
      // TLS passed through to the upstream, yet mutual TLS: terminate-tls is the only action that
      // checks client certificates (traffic-policy/actions/terminate-tls.mdx), and it ends TLS at
      // ngrok, which the edge did not: a change no notice can make safe.
      return refuse(
        "mutual_tls",
        `mutual TLS with terminate_at ${JSON.stringify(terminate_at)}: terminate-tls would end TLS at ngrok, where the edge passed it through to the upstream; rebuild it by hand`,
      );
    }
  }
  const action: Action | undefined =
    Object.keys(config).length > 0
      ? { type: "terminate-tls", config }
      : terminates
        ? { type: "terminate-tls" }
        : undefined;
  if (action) out.steps.push({ actions: [action] });
  return out;
}
