// What a secret is, for every layer above: the text that stands in for one, the keys whose
// values are secrets wherever they stand in an API body, and the places a Traffic Policy keeps
// them. Data only: the walks that find them are the layers' own (src/api/redact.ts,
// src/output/policy-secrets.ts, src/migrate/policy.ts).

/** What a secret is shown as. */
export const MASK = "********";

/** The keys whose string values are secrets wherever they stand in an API body (webhook, OAuth/OIDC client). */
export const SECRET_KEYS: ReadonlySet<string> = new Set(["secret", "client_secret"]);

/**
 * Where a Traffic Policy keeps its secrets: the config fields of an action type that hold one
 * (the `secret` of a `verify-webhook` action, the `client_secret` of an `oauth` or
 * `openid-connect` action).
 */
export const SECRET_FIELDS: Readonly<Record<string, readonly string[]>> = {
  "verify-webhook": ["secret"],
  oauth: ["client_secret"],
  "openid-connect": ["client_secret"],
};
