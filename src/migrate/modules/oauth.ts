// oauth → the oauth action (one provider ngrok's action takes, its client, scopes and session
// times), then a rule of its own that denies (403) an email the edge's email_addresses and
// email_domains did not let through. teams and organizations have no equivalent: refused.
import { OAUTH_PROVIDERS } from "../../api-data/providers.js";
import { celString } from "../policy.js";
import {
  DENY_403,
  isObj,
  isStrings,
  literal,
  seconds,
  translation,
  warnCookiePrefix,
  type Obj,
  type Translation,
} from "./translator.js";

/** The fields of an oauth module's provider that edgectl knows. */
const OAUTH_PROVIDER_KEYS = new Set([
  "client_id",
  "client_secret",
  "scopes",
  "email_addresses",
  "email_domains",
  "teams",
  "organizations",
]);

export function translateOauth(m: Obj): Translation {
  const out = translation();
  const refuse = (reason: string) => out.refused.push({ item: "oauth", reason });
  const providers = isObj(m.provider)
    ? Object.entries(m.provider).filter(([, v]) => v !== null && v !== undefined)
    : [];
  if (providers.length !== 1) {
    refuse(
      providers.length === 0 ? "the oauth module names no provider" : "the oauth module names more than one provider",
    );
    return out;
  }
  const [name, p] = providers[0]!;
  if (!(OAUTH_PROVIDERS as readonly string[]).includes(name) || !isObj(p)) {
    refuse(`oauth provider ${JSON.stringify(name)} is not one ngrok's oauth action takes`);
    return out;
  }
  const unknown = Object.keys(p).filter((k) => !OAUTH_PROVIDER_KEYS.has(k) && p[k] !== null);
  if (unknown.length > 0) {
    refuse(`the ${name} provider has fields edgectl does not know (${unknown.join(", ")}); carry them over by hand`);
    return out;
  }
  for (const key of ["teams", "organizations"]) {
    const v = p[key];
    if (v === null || v === undefined || (Array.isArray(v) && v.length === 0)) continue;
    refuse(`${key} has no equivalent in ngrok's oauth action; rebuild that check by hand`);
  }
  const emails = p.email_addresses ?? [];
  const domains = p.email_domains ?? [];
  if (!isStrings(emails) || !isStrings(domains)) {
    refuse("email_addresses and email_domains must be lists");
    return out;
  }
  if (out.refused.length > 0) return out;
  const config: Obj = { provider: name };
  // ngrok interpolates `${…}` in both (traffic-policy/actions/oauth.mdx: "Supports CEL
  // Interpolation"); the edge took them as written.
  for (const key of ["client_id", "client_secret"] as const) {
    const v = p[key];
    if (typeof v === "string" && v) config[key] = literal(v, out, "oauth", `oauth.provider.${name}.${key}`);
  }
  if (isStrings(p.scopes) && p.scopes.length > 0) config.scopes = p.scopes;
  if (m.options_passthrough === true) config.allow_cors_preflight = true;
  const idle = seconds(m.inactivity_timeout);
  const max = seconds(m.maximum_duration);
  const refresh = seconds(m.auth_check_interval);
  if (idle) config.idle_session_timeout = idle;
  if (max) config.max_session_duration = max;
  if (refresh) config.userinfo_refresh_interval = refresh;
  warnCookiePrefix(out, "oauth", m.cookie_prefix);
  out.steps.push({ actions: [{ type: "oauth", config }] });
  if (emails.length > 0 || domains.length > 0) {
    const email = "actions.ngrok.oauth.identity.email";
    const terms = [
      ...emails.map((e) => `${email} == ${celString(e)}`),
      ...domains.map((d) => `${email}.endsWith(${celString(`@${d}`)})`),
    ];
    out.steps.push({ rule: "oauth-email", expressions: [`!(${terms.join(" || ")})`], actions: [DENY_403] });
  }
  return out;
}
