// oidc → openid-connect: the issuer, the client, scopes and session times.
import {
  isStrings,
  literal,
  refused,
  seconds,
  translation,
  warnCookiePrefix,
  type Obj,
  type Translation,
} from "./translator.js";

export function translateOidc(m: Obj): Translation {
  if (typeof m.issuer !== "string" || m.issuer === "") return refused("oidc", "the oidc module has no issuer");
  const out = translation();
  const config: Obj = { issuer_url: m.issuer };
  // ngrok interpolates `${…}` in both (traffic-policy/actions/oidc.mdx: "Supports CEL
  // Interpolation"); the edge took them as written.
  for (const key of ["client_id", "client_secret"] as const) {
    const v = m[key];
    if (typeof v === "string" && v) config[key] = literal(v, out, "oidc", `oidc.${key}`);
  }
  if (isStrings(m.scopes) && m.scopes.length > 0) config.scopes = m.scopes;
  if (m.options_passthrough === true) config.allow_cors_preflight = true;
  const idle = seconds(m.inactivity_timeout);
  const max = seconds(m.maximum_duration);
  if (idle) config.idle_session_duration = idle;
  if (max) config.max_session_duration = max;
  warnCookiePrefix(out, "oidc", m.cookie_prefix);
  out.steps.push({ actions: [{ type: "openid-connect", config }] });
  return out;
}
