// The actions edgectl knows: every action of ngrok's action reference (traffic-policy/actions/
// *.mdx at ngrok/ngrok-docs 56a5f99; the list is snippets/ActionHub.jsx), one module each in
// src/policy/actions/<type>.ts. For each: the phases it may stand in, whether it ends the
// phase, its config's zod schema (every field's type, required, enum, range and documented
// limit; an unknown field is a problem), and as data for the CEL checker and the warnings:
// its CEL-capable fields, the fields that hold CEL expressions, its deprecated fields and
// whether it authenticates. The schemas are made on first use (zod loads then): a start-up
// that checks no policy never makes them.
import type * as z from "zod/mini";
import type { Protocol } from "./index.js";
import { spec as addHeaders } from "./actions/add-headers.js";
import { spec as basicAuth } from "./actions/basic-auth.js";
import { spec as circuitBreaker } from "./actions/circuit-breaker.js";
import { spec as closeConnection } from "./actions/close-connection.js";
import { spec as compressResponse } from "./actions/compress-response.js";
import { spec as customResponse } from "./actions/custom-response.js";
import { spec as deny } from "./actions/deny.js";
import { requestBody, responseBody, sse } from "./actions/find-replace.js";
import { spec as forwardInternal } from "./actions/forward-internal.js";
import { spec as httpRequest } from "./actions/http-request.js";
import { spec as jwtValidation } from "./actions/jwt-validation.js";
import { spec as log } from "./actions/log.js";
import { spec as oauth } from "./actions/oauth.js";
import { spec as openidConnect } from "./actions/openid-connect.js";
import { owaspRequest, owaspResponse } from "./actions/owasp-crs.js";
import { spec as rateLimit } from "./actions/rate-limit.js";
import { spec as redirect } from "./actions/redirect.js";
import { spec as removeHeaders } from "./actions/remove-headers.js";
import { spec as restrictIps } from "./actions/restrict-ips.js";
import { spec as setVars } from "./actions/set-vars.js";
import { spec as terminateTls } from "./actions/terminate-tls.js";
import { spec as urlRewrite } from "./actions/url-rewrite.js";
import { spec as verifyWebhook } from "./actions/verify-webhook.js";

export { useRe2 } from "./actions/fields.js";

export const PHASES = ["on_tcp_connect", "on_http_request", "on_http_response"] as const;
export type Phase = (typeof PHASES)[number];
/**
 * The phase of Server-Sent Events messages, where only `sse-find-replace` stands
 * (traffic-policy/actions/sse-find-replace.mdx:22 "Supported phases"; snippets/ActionHub.jsx:197
 * lists it with the three others as ngrok's phases). An SSE stream is an HTTP response, so the
 * phase is an HTTP endpoint's, after on_http_response (sse-find-replace.mdx:10-14: it modifies
 * "Server-Sent Events stream content" as "it streams to clients").
 */
export const SSE_PHASE = "on_event_stream_message";
export type ActionPhase = Phase | typeof SSE_PHASE;
/** Every phase of an endpoint's policy, in the order they run. */
export const ENDPOINT_PHASES: readonly ActionPhase[] = [...PHASES, SSE_PHASE];

/** What a config schema depends on: the endpoint it is checked for and the phase it stands in. */
export interface Where {
  protocol: Protocol;
  phase: ActionPhase;
}

export interface ActionSpec {
  phases: readonly ActionPhase[];
  /** Only on endpoints of these protocols (terminate-tls). */
  protocols?: readonly Protocol[];
  /** Ends the phase (given the action's config, which the schema has passed). */
  terminating?: (config: Record<string, unknown>) => boolean;
  /** The config's schema. */
  schema: (where: Where) => z.ZodMiniType;
  /**
   * The fields whose strings ngrok interpolates (`${…}`), from the reference's `cel={true}`
   * marks and its prose, as paths below `config`: `url`, `headers.*` (every value of a map),
   * `credentials[]` (every item of a list; a single object where a list may stand, itself),
   * `metadata.**` (every string at any depth).
   */
  celFields?: readonly string[];
  /** The fields that hold a whole CEL expression (not a template), as paths like celFields. */
  celExpressions?: readonly string[];
  /**
   * Fields accepted with this warning: ngrok once documented them and still takes them, or
   * ngrok's own tools write them where the reference names another.
   */
  deprecated?: Readonly<Record<string, string>>;
  /**
   * Forms the schema takes that the reference does not give but ngrok's own published
   * policies write (set-vars vars as one map, …): each place with its warning, a problem with
   * --strict (issue 27 item 4: where the docs and ngrok's examples disagree, a warning).
   */
  unlisted?: (config: Record<string, unknown>) => { path: ConfigPath; message: string }[];
  /**
   * An authentication action: one per endpoint, "Only one auth action allowed per endpoint"
   * (errors/err_ngrok_2239.mdx:9). The authentication methods that are actions are Basic Auth,
   * OAuth, OpenID Connect and JWT validation (traffic-policy/examples/add-authentication.mdx:19-22);
   * src/policy/index.ts says how two of them are worded.
   */
  authentication?: true;
  /**
   * Its config holds RE2 patterns (fields.ts re2): the CEL bundle, which holds RE2, is loaded
   * for a policy with it before it is checked (src/policy/index.ts loadCel).
   */
  regex?: true;
}

// In the order earlier versions listed them (messages list them in this order).
export const ACTIONS: Record<string, ActionSpec> = {
  "verify-webhook": verifyWebhook,
  "forward-internal": forwardInternal,
  "custom-response": customResponse,
  deny: deny,
  "close-connection": closeConnection,
  "restrict-ips": restrictIps,
  "terminate-tls": terminateTls,
  "add-headers": addHeaders,
  "remove-headers": removeHeaders,
  "compress-response": compressResponse,
  "circuit-breaker": circuitBreaker,
  oauth: oauth,
  "openid-connect": openidConnect,
  "set-vars": setVars,
  "url-rewrite": urlRewrite,
  redirect: redirect,
  "rate-limit": rateLimit,
  log: log,
  "basic-auth": basicAuth,
  "jwt-validation": jwtValidation,
  "http-request": httpRequest,
  "owasp-crs-request": owaspRequest,
  "owasp-crs-response": owaspResponse,
  "request-body-find-replace": requestBody,
  "response-body-find-replace": responseBody,
  "sse-find-replace": sse,
};

const made = new Map<string, z.ZodMiniType>();

/** The action's config schema for that place, made once (per protocol and phase) on first use. */
export function configSchema(type: string, where: Where): z.ZodMiniType | undefined {
  const spec = Object.hasOwn(ACTIONS, type) ? ACTIONS[type] : undefined;
  if (!spec) return undefined;
  const key = `${type} ${where.protocol} ${where.phase}`;
  let schema = made.get(key);
  if (!schema) made.set(key, (schema = spec.schema(where)));
  return schema;
}

export type ConfigPath = (string | number)[];

/** A string of a config at one of the spec's paths (celFields, celExpressions). */
export interface ConfigString {
  path: ConfigPath;
  text: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** The strings of `config` at `patterns` (ActionSpec.celFields' notation), in document order. */
export function stringsAt(config: unknown, patterns: readonly string[] | undefined): ConfigString[] {
  const found: ConfigString[] = [];
  for (const pattern of patterns ?? []) {
    const steps = pattern.split(".").flatMap((s) => (s.endsWith("[]") ? [s.slice(0, -2), "[]"] : [s]));
    walk(
      config,
      steps.filter((s) => s !== ""),
      [],
      found,
    );
  }
  return found;
}

function walk(value: unknown, steps: string[], path: ConfigPath, found: ConfigString[]): void {
  const [step, ...rest] = steps;
  if (step === undefined) {
    if (typeof value === "string") found.push({ path, text: value });
    return;
  }
  if (step === "**") {
    if (typeof value === "string") found.push({ path, text: value });
    else if (Array.isArray(value)) value.forEach((v, i) => walk(v, steps, [...path, i], found));
    else if (isObject(value)) for (const [k, v] of Object.entries(value)) walk(v, steps, [...path, k], found);
  } else if (step === "[]") {
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, rest, [...path, i], found));
    else walk(value, rest, path, found); // a single item where a list may stand (oneOrList)
  } else if (step === "*") {
    if (isObject(value)) for (const [k, v] of Object.entries(value)) walk(v, rest, [...path, k], found);
  } else if (isObject(value) && Object.hasOwn(value, step)) walk(value[step], rest, [...path, step], found);
}

/** The CEL templates of an action's config: each string of a CEL-capable field. */
export const templatesOf = (type: string, config: unknown): ConfigString[] =>
  Object.hasOwn(ACTIONS, type) ? stringsAt(config, ACTIONS[type]!.celFields) : [];

/** The CEL expressions of an action's config (rate-limit `bucket_key`, http-request `retry_condition`). */
export const expressionsOf = (type: string, config: unknown): ConfigString[] =>
  Object.hasOwn(ACTIONS, type) ? stringsAt(config, ACTIONS[type]!.celExpressions) : [];

/** The warnings of an action's config: its deprecated fields and its unlisted forms, in that order. */
export function warningsOf(type: string, config: unknown): { path: ConfigPath; message: string }[] {
  const unlisted = Object.hasOwn(ACTIONS, type) ? ACTIONS[type]!.unlisted : undefined;
  return [...deprecatedIn(type, config), ...(unlisted && isObject(config) ? unlisted(config) : [])];
}

/** The deprecated fields an action's config uses, each with its warning. */
export function deprecatedIn(type: string, config: unknown): { path: ConfigPath; message: string }[] {
  const deprecated = Object.hasOwn(ACTIONS, type) ? ACTIONS[type]!.deprecated : undefined;
  if (!deprecated || !isObject(config)) return [];
  return Object.keys(config)
    .filter((key) => Object.hasOwn(deprecated, key))
    .map((key) => ({ path: [key], message: deprecated[key]! }));
}
