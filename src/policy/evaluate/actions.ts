// What each action does to a request, from its behaviour page in ngrok's docs
// (ngrok/ngrok-docs snippets/traffic-policy/actions/<action>/behavior.mdx, its config.mdx for
// defaults and variables.mdx for the `actions.ngrok.<name>.*` results). An action whose effect
// cannot be told from what the evaluator was given says so (`unknown`): never a guess.
import type { JsonWebKey } from "node:crypto";
import type { Activation } from "./cel.js";
import { evaluateExpression } from "./cel.js";
import { firstMatch, isCidr } from "./cidr.js";
import { checkJwt } from "./jwt.js";
import { re2, replaceAll } from "./regex.js";
import { parseUrl } from "./scope.js";
import type { By, EvalContext, EvalRequest, EvalResponse, Outcome, Phase } from "./types.js";

export interface Run {
  phase: Phase;
  ctx: EvalContext;
  req: EvalRequest;
  /** The upstream's answer, in on_http_response. */
  res?: EvalResponse;
  activation(): Activation;
  by: By;
  /** The action's place (`on_http_request[0].actions[1]`): its rate-limit buckets are its own. */
  place: string;
}

export interface Step {
  did: string;
  /** `actions.ngrok.<name>` after it. */
  result?: Record<string, unknown>;
  /** It ended the phase with this outcome. */
  end?: Outcome;
  /** It could not be worked out: the outcome is unknown for this reason. */
  unknown?: string;
}

export type Config = Record<string, unknown>;
type ActionRun = (config: Config, run: Run) => Step;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const texts = (v: unknown): string[] => list(v).map(String);
const statusOr = (v: unknown, fallback: number) => (typeof v === "number" ? v : fallback);
const headerList = (h: unknown): Record<string, string[]> => {
  const out: Record<string, string[]> = {};
  if (isObject(h)) for (const [k, v] of Object.entries(h)) (out[k.toLowerCase()] ??= []).push(String(v));
  return out;
};

/** The name of an action's results: `actions.ngrok.<name>` (each action's variables.mdx). */
export const RESULT_NAMES: Record<string, string> = {
  "add-headers": "add_headers",
  "remove-headers": "remove_headers",
  "url-rewrite": "url_rewrite",
  redirect: "redirect",
  "restrict-ips": "restrict_ips",
  "verify-webhook": "verify_webhook",
  "basic-auth": "basic_auth",
  oauth: "oauth",
  "openid-connect": "oidc",
  "jwt-validation": "jwt_validation",
  "rate-limit": "rate_limit",
  "http-request": "http_request",
  log: "log",
  "compress-response": "compress",
  "circuit-breaker": "circuit_breaker",
};

/**
 * The config fields ngrok interpolates (`${…}`), per action: the fields its config.mdx marks
 * `cel={true}` or says "Supports CEL Interpolation" (custom-response `body`). Other fields are
 * taken as written.
 */
export const CEL_FIELDS: Record<string, readonly string[]> = {
  "add-headers": ["headers"],
  "basic-auth": ["credentials"],
  "custom-response": ["body", "headers"],
  "forward-internal": ["url"],
  "http-request": ["url", "query_params", "headers", "body"],
  "jwt-validation": ["issuer", "http"],
  log: ["metadata"],
  oauth: ["client_id", "client_secret"],
  "openid-connect": ["client_id", "client_secret"],
  redirect: ["from", "to", "headers"],
  "restrict-ips": ["allow", "deny"],
  "terminate-tls": ["server_private_key", "server_certificate", "mutual_tls_certificate_authorities"],
  "url-rewrite": ["from", "to"],
  "verify-webhook": ["secret"],
};

/** The pricing of each action in Traffic Policy units (ngrok-docs pricing-limits/traffic-policy-unit-pricing.mdx, "Actions"; "Free" is 0). */
export const UNITS: Record<string, number> = {
  "circuit-breaker": 10,
  "compress-response": 10,
  "http-request": 1,
  "jwt-validation": 10,
  "owasp-crs-request": 10,
  "owasp-crs-response": 10,
  "rate-limit": 1,
  redirect: 10,
  "remove-headers": 1,
  "restrict-ips": 10,
  "terminate-tls": 100,
  "url-rewrite": 10,
  "verify-webhook": 1,
};

/** The headers the phase changes: the request's, or the upstream's answer in on_http_response. */
const target = (run: Run) => (run.phase === "on_http_response" && run.res ? run.res.headers : run.req.headers);

/**
 * A new URL from a rewrite: an absolute URL as is; a path (`/store/products`) on the request's
 * origin, as redirect's first example shows (`location: https://example.ngrok.app/store/products`,
 * redirect/examples/1-basic-example.mdx); anything else is not worked out.
 */
function resolveUrl(text: string, base: string): string | undefined {
  const origin = parseUrl(base)?.origin;
  if (/^[a-z][a-z0-9+.-]*:\/\/[^/]/i.test(text)) return parseUrl(text)?.href;
  const path = /^[a-z][a-z0-9+.-]*:\/\/(\/.*)$/i.exec(text)?.[1] ?? (text.startsWith("/") ? text : undefined);
  return path !== undefined && origin ? parseUrl(origin + path)?.href : undefined;
}

/** url-rewrite and redirect: the URL with every match of `from` replaced by `to` (no `from`: the whole URL). */
function rewrite(config: Config, url: string): { url: string; matches: string[] } | { error: string } {
  const to = String(config.to ?? "");
  if (config.from === undefined) return { url: resolveUrl(to, url) ?? "", matches: [url] };
  const re = re2(String(config.from));
  if ("error" in re) return { error: `from: ${re.error}` };
  const { text, matches } = replaceAll(re, url, to);
  if (matches.length === 0) return { url, matches };
  const next = resolveUrl(text, url);
  return next === undefined
    ? { error: `the rewritten URL ${JSON.stringify(text)} is not a URL edgectl can place` }
    : { url: next, matches };
}

export const RUNS: Record<string, ActionRun> = {
  // add-headers/behavior.mdx: names lower-cased; a header that exists gets another value,
  // except `host`, which is replaced.
  "add-headers": (config, run) => {
    const headers = target(run);
    const added: Record<string, string> = {};
    for (const [name, value] of Object.entries(isObject(config.headers) ? config.headers : {})) {
      const key = name.toLowerCase();
      const v = String(value);
      if (key === "host") headers[key] = [v];
      else headers[key] = [...(headers[key] ?? []), v];
      added[key] = v;
    }
    return { did: `added ${Object.keys(added).join(", ")}`, result: { headers_added: added } };
  },

  // remove-headers/behavior.mdx: removes them from the request (or the response).
  "remove-headers": (config, run) => {
    const headers = target(run);
    const removed: string[] = [];
    for (const name of texts(config.headers)) {
      const key = name.toLowerCase();
      if (Object.hasOwn(headers, key)) {
        delete headers[key];
        removed.push(key);
      }
    }
    return {
      did: removed.length > 0 ? `removed ${removed.join(", ")}` : "removed nothing (none present)",
      result: { headers_removed: removed },
    };
  },

  // url-rewrite/behavior.mdx: replaces all matches of `from` in the whole URL with `to`.
  "url-rewrite": (config, run) => {
    const r = rewrite(config, run.req.url);
    if ("error" in r) return { did: "could not rewrite", unknown: `url-rewrite: ${r.error}` };
    const before = run.req.url;
    run.req.url = r.url;
    return {
      did: before === r.url ? "left the URL as it was (no match)" : `rewrote the URL to ${r.url}`,
      result: { url: r.url, matches: r.matches },
    };
  },

  // redirect/behavior.mdx: when `to` changes the URL, a 302 (or `status_code`) to it; when the
  // URL is not changed, "the action will take no further action".
  redirect: (config, run) => {
    const r = rewrite(config, run.req.url);
    if ("error" in r) return { did: "could not rewrite", unknown: `redirect: ${r.error}` };
    if (r.url === run.req.url) return { did: "did nothing (the URL is unchanged)", result: { matches: r.matches } };
    const status = statusOr(config.status_code, 302);
    const headers = { ...headerList(config.headers), location: [r.url] };
    return {
      did: `redirected (${status}) to ${r.url}`,
      result: { url: r.url, matches: r.matches },
      end: { kind: "redirect", status, url: r.url, headers, by: run.by },
    };
  },

  // custom-response/behavior.mdx: answers at once (on_http_response: replaces the upstream's
  // answer); status 200 by default (config.mdx). The inferred content-type is not documented:
  // none is added.
  "custom-response": (config, run) => {
    const status = statusOr(config.status_code, 200);
    const body =
      typeof config.body === "string" ? config.body : typeof config.content === "string" ? config.content : "";
    return {
      did: `answered ${status}`,
      end: { kind: "response", status, headers: headerList(config.headers), body, by: run.by },
    };
  },

  // deny/http/behavior.mdx: a response at once, no body; 403 by default (deny/http/config.mdx).
  // On on_tcp_connect the connection is refused (deny/tcp/behavior.mdx).
  deny: (config, run) =>
    run.phase === "on_tcp_connect"
      ? { did: "closed the connection", end: { kind: "close", by: run.by } }
      : {
          did: `denied (${statusOr(config.status_code, 403)})`,
          end: { kind: "deny", status: statusOr(config.status_code, 403), by: run.by },
        },

  // close-connection/behavior.mdx: "connection to the endpoint is closed immediately".
  "close-connection": (_config, run) => ({ did: "closed the connection", end: { kind: "close", by: run.by } }),

  // restrict-ips/behavior.mdx: allowed only when the client IP matches an allowed CIDR and no
  // denied one; refused: 403 in HTTP phases, the connection closed in on_tcp_connect.
  "restrict-ips": (config, run) => {
    // An IP policy's rules live on ngrok's side: worked out only when the caller gives them
    // (`migrate --verify` gives each policy the range it tests with).
    const policies = texts(config.ip_policies);
    const missing = policies.find((id) => !run.ctx.ipPolicies?.has(id));
    if (missing !== undefined)
      return {
        did: "not worked out",
        unknown: `restrict-ips: the CIDRs of ip_policies ${missing} are on ngrok's side, not in the policy`,
      };
    const given = policies.map((id) => run.ctx.ipPolicies!.get(id)!);
    const allow = [...texts(config.allow), ...given.flatMap((p) => p.allow)];
    const deny = [...texts(config.deny), ...given.flatMap((p) => p.deny)];
    const bad = [...allow, ...deny].find((c) => !isCidr(c));
    if (bad !== undefined)
      return { did: "not worked out", unknown: `restrict-ips: ${JSON.stringify(bad)} is not a CIDR` };
    const ip = run.req.clientIp;
    const denied = firstMatch(ip, deny);
    const allowed = firstMatch(ip, allow);
    if (denied === undefined && allowed === undefined && allow.length === 0)
      return {
        did: "not worked out",
        unknown: `restrict-ips: ${ip} is in no denied CIDR, and with no allow list the docs ("allowed only if its source IP matches at least one of the allowed CIDRs") do not say whether it passes`,
      };
    const ok = denied === undefined && allowed !== undefined;
    const result = { action: ok ? "allow" : "deny", matched_cidr: denied ?? allowed ?? "" };
    if (ok) return { did: `allowed ${ip} (in ${allowed})`, result };
    const why = denied !== undefined ? `in denied ${denied}` : "in no allowed CIDR";
    if (config.enforce === false) return { did: `would refuse ${ip} (${why}); enforce: false`, result };
    return {
      did: `refused ${ip} (${why})`,
      result,
      end: run.phase === "on_tcp_connect" ? { kind: "close", by: run.by } : { kind: "deny", status: 403, by: run.by },
    };
  },

  // verify-webhook/behavior.mdx: the provider's signature checked with the secret (for a key-pair
  // scheme, SendGrid's, the policy's `secret` is the public key); refused: 403,
  // unless `enforce: false`, which lets it through with the result in
  // actions.ngrok.verify_webhook.{verified,error.code,error.message} (variables.mdx).
  "verify-webhook": (config, run) => {
    const provider = String(config.provider ?? "");
    const scheme = run.ctx.schemes(provider);
    if (!scheme)
      return { did: "not worked out", unknown: `verify-webhook: edgectl cannot verify provider ${provider}` };
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(run.req.headers)) headers[k] = v.join(", ");
    const secret = String(config.secret ?? "");
    let verdict: ReturnType<typeof scheme.verify>;
    try {
      verdict = scheme.verify({
        request: { method: run.req.method, url: run.req.url, headers, body: run.req.body },
        ...(scheme.key === "secret" ? { secret } : { publicKey: secret }),
        now: Math.floor(run.req.time.getTime() / 1000),
      });
    } catch (err) {
      return { did: "not worked out", unknown: `verify-webhook: ${provider}: ${(err as Error).message}` };
    }
    const result = verdict.verified
      ? { verified: true }
      : { verified: false, error: { code: verdict.check, message: verdict.message } };
    if (verdict.verified) return { did: `verified (${provider})`, result };
    if (config.enforce === false) return { did: `not verified: ${verdict.message}; enforce: false`, result };
    return { did: `not verified: ${verdict.message}`, result, end: { kind: "deny", status: 403, by: run.by } };
  },

  // basic-auth/behavior.mdx: `Authorization: Basic <base64 user:password>` against the
  // credentials (the first colon splits); refused: 401 (realm "ngrok" by default, config.mdx),
  // unless `enforce: false`.
  "basic-auth": (config, run) => {
    const header = run.req.headers.authorization?.[0] ?? "";
    const m = /^Basic\s+(\S+)$/i.exec(header);
    const presented = m ? Buffer.from(m[1]!, "base64").toString("utf8") : undefined;
    const split = (pair: string) => {
      const at = pair.indexOf(":");
      return at < 0 ? [pair, ""] : [pair.slice(0, at), pair.slice(at + 1)];
    };
    const [user, password] = presented === undefined ? [undefined, undefined] : split(presented);
    const authorized =
      presented !== undefined &&
      texts(config.credentials).some((c) => {
        const [u, p] = split(c);
        return u === user && p === password;
      });
    const result = { credentials: { presented: presented !== undefined, username: user ?? "", authorized } };
    if (authorized) return { did: `signed in as ${user}`, result };
    const why = presented === undefined ? "no Basic credentials" : `credentials of ${JSON.stringify(user)} refused`;
    if (config.enforce === false) return { did: `${why}; enforce: false`, result };
    const realm = typeof config.realm === "string" ? config.realm : "ngrok";
    return {
      did: `refused (401): ${why}`,
      result,
      end: { kind: "deny", status: 401, headers: { "www-authenticate": [`Basic realm="${realm}"`] }, by: run.by },
    };
  },

  // oauth/behavior.mdx: an unauthenticated request "returns a redirect response that begins an
  // authentication flow with the configured identity provider"; a signed-in one goes on, with
  // actions.ngrok.oauth.identity.* (variables.mdx).
  oauth: (config, run) => signIn("oauth", String(config.provider ?? ""), run),
  // oidc/behavior.mdx: the same flow with the OpenID provider at issuer_url.
  "openid-connect": (config, run) => signIn("openid-connect", String(config.issuer_url ?? ""), run),

  // jwt-validation/behavior.mdx: every token of `http.tokens` must be present ("If all tokens
  // are not present, a 401 Unauthorized"), signed by a key of the JWKS and with a matching
  // issuer and audience. The keys come from the jku URLs of the policy, whose JWKS the case
  // (or the emulator) supplies: nothing is fetched.
  "jwt-validation": (config, run) => {
    const issuers = list(isObject(config.issuer) ? config.issuer.allow_list : []).map((i) =>
      String(isObject(i) ? i.value : i),
    );
    const audiences = list(isObject(config.audience) ? config.audience.allow_list : []).map((i) =>
      String(isObject(i) ? i.value : i),
    );
    const jws = isObject(config.jws) ? config.jws : {};
    const algorithms = texts(jws.allowed_algorithms);
    // `keys` and `sources` are lists (config.mdx:100,111) that ngrok's examples write as one
    // object (`keys: sources: additional_jkus:`, gateway/api-gateway/get-started.mdx:356-359);
    // the validator takes both (src/policy/actions/jwt-validation.ts oneOrList).
    const oneOrList = (v: unknown): unknown[] => (Array.isArray(v) ? v : isObject(v) ? [v] : []);
    const jkus = oneOrList(jws.keys).flatMap((k) =>
      oneOrList(isObject(k) ? k.sources : []).flatMap((s) => texts(isObject(s) ? s.additional_jkus : [])),
    );
    const keys = jwksFor(jkus, run.ctx.jwtKeys);
    if (!keys)
      return {
        did: "not worked out",
        unknown: `jwt-validation: no keys given for ${jkus.join(", ") || "its jku URLs"} (give them as jwt_keys)`,
      };
    const tokens: unknown[] = [];
    for (const spec of list(isObject(config.http) ? config.http.tokens : [])) {
      const t = isObject(spec) ? spec : {};
      if (t.method !== undefined && t.method !== "header")
        return { did: "not worked out", unknown: "jwt-validation: tokens in the body are not worked out" };
      const raw = run.req.headers[String(t.name ?? "authorization").toLowerCase()]?.[0];
      const prefix = typeof t.prefix === "string" ? t.prefix : "";
      if (raw === undefined || !raw.startsWith(prefix)) {
        const result = { tokens, error: { code: "missing", message: `no token in ${String(t.name)}` } };
        return {
          did: `refused (401): no token in ${String(t.name)}`,
          result,
          end: { kind: "deny", status: 401, by: run.by },
        };
      }
      const verdict = checkJwt(raw.slice(prefix.length).trim(), keys, {
        algorithms,
        issuers,
        audiences,
        now: Math.floor(run.req.time.getTime() / 1000),
      });
      if (verdict.token)
        tokens.push({ ...verdict.token, location: "header", location_property: String(t.name), verified: verdict.ok });
      if (!verdict.ok) {
        const result = { tokens, error: { code: "invalid", message: verdict.why } };
        // An algorithm edgectl does not check: the token may be good, so no outcome is guessed.
        if (verdict.unknown)
          return { did: `not worked out: ${verdict.why}`, result, unknown: `jwt-validation: ${verdict.why}` };
        // An invalid token (bad signature, no such key, another issuer or audience, expired) is
        // refused with 403: "Reject requests with an invalid token with a `403 Forbidden` error"
        // (ngrok-docs gateway/api-gateway/get-started.mdx:328, a policy of jwt-validation alone;
        // the action's own page gives only the missing token's 401, behavior.mdx:41-43).
        return {
          did: `refused (403): ${verdict.why}`,
          result,
          end: { kind: "deny", status: 403, by: run.by },
        };
      }
    }
    return { did: "validated the token(s)", result: { tokens } };
  },

  // rate-limit/behavior.mdx: one bucket per combination of the bucket_key values; over
  // `capacity` requests within `rate` (sliding_window, config.mdx): 429 with retry-after, unless
  // `enforce: false` (config.mdx). Buckets live in the state, timed by the request's time.
  "rate-limit": (config, run) => {
    const rate = durationMs(config.rate);
    const capacity = typeof config.capacity === "number" ? config.capacity : NaN;
    if (rate === undefined || !(capacity >= 1))
      return { did: "not worked out", unknown: "rate-limit: capacity or rate missing" };
    const values: string[] = [];
    for (const key of texts(config.bucket_key)) {
      const v = evaluateExpression(key, run.activation());
      if ("error" in v) return { did: "not worked out", unknown: `rate-limit bucket_key ${key}: ${v.error}` };
      values.push(JSON.stringify(v.value));
    }
    const bucketKey = values.join(",");
    const id = `${run.place} ${String(config.name ?? "")} ${bucketKey}`;
    const now = run.req.time.getTime();
    const seen = (run.ctx.state.buckets.get(id) ?? []).filter((t) => t > now - rate);
    const limited = seen.length >= capacity;
    if (!limited) seen.push(now);
    run.ctx.state.buckets.set(id, seen);
    const result = { bucket_key: bucketKey, limited };
    const left = `${seen.length}/${capacity} in ${String(config.rate)}`;
    if (!limited) return { did: `let through (${left}, bucket ${bucketKey})`, result };
    if (config.enforce === false) return { did: `over the limit (${left}); enforce: false`, result };
    const retry = Math.max(1, Math.ceil((seen[0]! + rate - now) / 1000));
    return {
      did: `limited (429): ${left}, retry after ${retry}s`,
      result,
      end: { kind: "deny", status: 429, headers: { "retry-after": [String(retry)] }, by: run.by },
    };
  },

  // forward-internal/behavior.mdx: forwards to the internal endpoint (its own policy runs
  // there), ending the phase; with `on_error: continue` the actions after it run only when
  // forwarding fails, which the evaluator cannot know: the forward is taken as made.
  "forward-internal": (config, run) => {
    const url = String(config.url ?? "");
    return { did: `forwards to ${url}`, end: { kind: "forward", url, by: run.by } };
  },

  // http-request/behavior.mdx: an outbound request; the evaluator sends nothing, its answer
  // comes from the case's http_responses, or the outcome is unknown.
  "http-request": (config, run) => {
    const url = String(config.url ?? "");
    const method = String(config.method ?? "GET").toUpperCase();
    const answer = run.ctx.httpResponses?.find((a) => a.url === url && (a.method ?? "GET").toUpperCase() === method);
    if (!answer)
      return { did: "not worked out", unknown: `http-request: no answer given for ${method} ${url} (http_responses)` };
    return {
      did: `${method} ${url} answered ${answer.status}`,
      result: {
        req: { method, url, header: isObject(config.headers) ? config.headers : {}, body: String(config.body ?? "") },
        res: { status_code: answer.status, header: headerList(answer.headers ?? {}), body: answer.body ?? "" },
      },
    };
  },

  // log/behavior.mdx: logs its metadata; nothing else changes.
  log: (config) => ({ did: "logged", result: { metadata: isObject(config.metadata) ? config.metadata : {} } }),

  // set-vars is run by the engine (its values keep their types): see index.ts.

  // terminate-tls/behavior.mdx: ends TLS at ngrok; nothing the evaluator follows changes.
  "terminate-tls": () => ({ did: "TLS ends at ngrok" }),

  // compress-response/behavior.mdx: compresses only when the request has Accept-Encoding.
  "compress-response": (_config, run) =>
    run.req.headers["accept-encoding"] === undefined
      ? { did: "did nothing (no Accept-Encoding)", result: { already_compressed: false, negotiated_algorithm: "" } }
      : { did: "not worked out", unknown: "compress-response: the negotiated compression is not worked out" },

  // circuit-breaker/behavior.mdx: trips on upstream errors; with none seen it cannot be tripped.
  "circuit-breaker": (_config, run) =>
    run.ctx.state.upstreamErrors === 0
      ? { did: "closed (no upstream errors seen)" }
      : { did: "not worked out", unknown: "circuit-breaker: whether the errors seen trip it is not worked out" },
};

function signIn(type: "oauth" | "openid-connect", provider: string, run: Run): Step {
  const identity = run.ctx.identity;
  if (identity && Object.keys(identity).length > 0)
    return {
      did: `signed in as ${identity.email ?? identity.name ?? "(identity)"}`,
      result: { identity: { ...identity } },
    };
  // The provider's sign-in URL is built by ngrok (not documented); the redirect names the provider.
  const url = type === "openid-connect" ? provider : `oauth:${provider}`;
  return {
    did: `not signed in: redirected to ${type === "oauth" ? `the ${provider} sign-in` : provider}`,
    end: { kind: "redirect", status: 302, url, headers: {}, by: run.by },
  };
}

/** A Go duration's milliseconds (`60s`, `10m`, `1h30m`). */
function durationMs(v: unknown): number | undefined {
  if (typeof v !== "string" || !/^(\d+(\.\d+)?(ms|s|m|h))+$/.test(v)) return undefined;
  const unit: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  for (const m of v.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) total += Number(m[1]) * unit[m[2]!]!;
  return total;
}

/** The JWKs for the jku URLs: a JWKS for all, or one per URL. */
function jwksFor(jkus: string[], given: unknown): JsonWebKey[] | undefined {
  if (!isObject(given)) return undefined;
  if (Array.isArray(given.keys)) return given.keys as JsonWebKey[];
  const keys = jkus.flatMap((u) => {
    const set = given[u];
    return isObject(set) && Array.isArray(set.keys) ? (set.keys as JsonWebKey[]) : [];
  });
  return keys.length > 0 ? keys : undefined;
}
