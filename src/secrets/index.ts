// What a secret is, for every layer above: the text that stands in for one, the keys whose
// values are secrets wherever they stand in an API body, and the places a Traffic Policy keeps
// them (the one table of secret places: masking in every format, --debug redaction and the
// validator's problem messages all read it). Data and the small matchers over it: the walks
// that find the places are the layers' own (src/output/policy-secrets.ts walks a parsed
// document, src/api/redact.ts a log's lines, src/policy/index.ts a problem's path).

/** What a secret is shown as. */
export const MASK = "********";

/** The keys whose string values are secrets wherever they stand in an API body (webhook, OAuth/OIDC client). */
export const SECRET_KEYS: ReadonlySet<string> = new Set(["secret", "client_secret"]);

/**
 * One step of a secret place, from an action's `config` down: a key of a mapping, every item
 * of a list, or every entry of a mapping whose key is one of `names` in any letter case (a
 * header map: `Authorization`, `COOKIE`).
 */
export type Step = { readonly key: string } | { readonly each: true } | { readonly anyCase: readonly string[] };

/** A secret place: the steps from an action's config to the secret value. */
export type Place = readonly Step[];

const key = (name: string): Step => ({ key: name });
const EACH: Step = { each: true };
/** The header names whose values are secrets (RFC 9110 credentials, and the session cookie). */
export const SECRET_HEADERS: readonly string[] = ["authorization", "proxy-authorization", "cookie"];
const SECRET_HEADER: Step = { anyCase: SECRET_HEADERS };

/**
 * Where a Traffic Policy keeps its secrets, by action type: every field ngrok's action
 * reference names a secret (ngrok/ngrok-docs, snippets/traffic-policy/actions/<action>/config.mdx):
 * - `verify-webhook` `secret`: "the secret key used to validate webhook requests";
 * - `oauth` `client_secret`, and `openid-connect` (oidc/config.mdx) `client_secret`: "your
 *   app's client secret";
 * - `basic-auth` `credentials`: each entry a `username:password` pair;
 * - `terminate-tls` `server_private_key`: "the PEM-encoded private key for the server";
 * - `add-headers` and `http-request` `headers` (a map of header name to value): the values of
 *   the headers that carry credentials, `Authorization`, `Proxy-Authorization` and `Cookie`
 *   (header names in any letter case, as HTTP reads them).
 */
export const SECRET_PLACES: Readonly<Record<string, readonly Place[]>> = {
  "verify-webhook": [[key("secret")]],
  oauth: [[key("client_secret")]],
  "openid-connect": [[key("client_secret")]],
  "basic-auth": [[key("credentials"), EACH]],
  "terminate-tls": [[key("server_private_key")]],
  "add-headers": [[key("headers"), SECRET_HEADER]],
  "http-request": [[key("headers"), SECRET_HEADER]],
};

/** An interpolation that names where its value comes from (`secrets.get(…)`, `vars.x`), not a literal. */
const NAMED = /^[A-Za-z_]\w*(\s*[.([]|$)/;

/**
 * Whether a value at a secret place is a reference to a secret, not one: the whole value is
 * one CEL interpolation that names its source (`${secrets.get("vault", "name")}`), shown as
 * written. Anything else there is a secret: text around the interpolation, two
 * interpolations, an escaped `${"${"}` inside other text, a literal (`${"hunter2"}`), or an
 * interpolation this reading cannot follow to its end.
 */
export function isReference(value: unknown): boolean {
  if (typeof value !== "string" || !value.startsWith("${") || !value.endsWith("}")) return false;
  let depth = 0;
  for (let i = 2; i < value.length; i++) {
    const ch = value[i]!;
    if (ch === '"' || ch === "'") {
      const raw = /[rR]/.test(value[i - 1] ?? "") && !/[\w]/.test(value[i - 2] ?? "");
      const close = value.startsWith(ch.repeat(3), i) ? ch.repeat(3) : ch;
      let j = i + close.length;
      for (; j < value.length && !value.startsWith(close, j); j++) {
        if (value[j] === "\\" && !raw) j++;
        else if (close.length === 1 && (value[j] === "\n" || value[j] === "\r")) return false;
      }
      if (j >= value.length) return false; // a string left open
      i = j + close.length - 1;
    } else if (ch === "{") depth++;
    else if (ch === "}" && depth-- === 0) return i === value.length - 1 && NAMED.test(value.slice(2, i).trim());
  }
  return false;
}

/** The secret places of an action type (none for a type that holds no secret, or no type). */
export function placesOf(type: unknown): readonly Place[] {
  return typeof type === "string" && Object.hasOwn(SECRET_PLACES, type) ? SECRET_PLACES[type]! : [];
}

/** Whether a mapping key (a string) or a list index (a number) is taken by the step. */
export function stepTakes(step: Step, at: unknown): boolean {
  if ("each" in step) return typeof at === "number";
  if ("key" in step) return at === step.key;
  return typeof at === "string" && step.anyCase.includes(at.toLowerCase());
}

/**
 * Whether a path within an action's config (keys and list indexes) stands at a secret place,
 * inside one, or above one (a value that holds a secret place: `credentials`, `headers`, the
 * config itself): what a problem message there may not quote.
 */
export function holdsSecret(type: unknown, path: readonly unknown[]): boolean {
  return placesOf(type).some((place) => {
    const n = Math.min(place.length, path.length);
    for (let i = 0; i < n; i++) if (!stepTakes(place[i]!, path[i])) return false;
    return true;
  });
}

/** A place as words: `credentials[*]`, `headers.<authorization|proxy-authorization|cookie>`. */
export function placeName(place: Place): string {
  return place
    .map((step, i) =>
      "each" in step ? "[*]" : `${i === 0 ? "" : "."}${"key" in step ? step.key : `<${step.anyCase.join("|")}>`}`,
    )
    .join("");
}

/**
 * The keys under which an API answer or body carries a Traffic Policy: an endpoint's
 * `traffic_policy` text, a route's or a TLS/TCP edge's `traffic_policy` module (`{enabled,
 * value}`, its `value` the text), a route's legacy `policy` module (its phases as data, or a
 * `value` text).
 */
export const POLICY_KEYS: ReadonlySet<string> = new Set(["traffic_policy", "policy"]);

/**
 * The key an API path's answer (or request body) stands for, as a field of its parent would:
 * `/edges/https/{id}/routes/{id}/traffic_policy` answers a route's `traffic_policy` module
 * itself. Undefined for a path that names no such field (a resource, a list).
 */
export function pathKey(path: string): string | undefined {
  const last = (path.split(/[?#]/)[0] ?? "").replace(/\/+$/, "").split("/").pop();
  return last !== undefined && POLICY_KEYS.has(last) ? last : undefined;
}
