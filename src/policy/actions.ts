// The actions edgectl knows (contract, "Traffic Policy and Cloud Endpoints"): for each, the
// phases it may stand in, whether it ends the phase, and its config's zod schema. The schemas
// are made on first use (zod loads then): a start-up that checks no policy never makes them.
import * as z from "zod/mini";
import { OAUTH_PROVIDERS, isProvider } from "../api-data/providers.js";
import { parseDuration } from "./duration.js";
import type { Protocol } from "./index.js";
import { internalUrlProblem } from "./urls.js";

export const PHASES = ["on_tcp_connect", "on_http_request", "on_http_response"] as const;
export type Phase = (typeof PHASES)[number];

const TCP: Phase = "on_tcp_connect";
const REQ: Phase = "on_http_request";
const RES: Phase = "on_http_response";

/** What a config schema depends on: the endpoint it is checked for and the phase it stands in. */
export interface Where {
  protocol: Protocol;
  phase: Phase;
}

export interface ActionSpec {
  phases: readonly Phase[];
  /** Only on endpoints of these protocols (terminate-tls). */
  protocols?: readonly Protocol[];
  /** Ends the phase (given the action's config, which the schema has passed). */
  terminating?: (config: Record<string, unknown>) => boolean;
  /** The config's schema; none: any object is passed through. */
  schema?: (where: Where) => z.ZodMiniType;
}

const always = () => true;

// Messages carry no zod wording: zod/mini has none (index.ts words the issue codes it meets).
const str = () => z.string();
const bool = () => z.boolean();
const strings = () => z.array(z.string());
const count = <T>(what: string, min: number, max: number, size: (v: T) => number) =>
  z.refine<T>((v) => size(v) >= min && size(v) <= max, {
    error: (iss) => {
      const n = size(iss.input as T);
      return n < min ? `at least ${min} ${what} (got ${n})` : `at most ${max} ${what} (got ${n})`;
    },
  });
const keys = (v: object) => Object.keys(v).length;
const len = (v: unknown[]) => v.length;
/** A header map: name → value, min–max names. */
const headerMap = (min: number, max: number) =>
  z.record(z.string(), z.string()).check(count("headers", min, max, keys));
/**
 * "You may not add or remove the `user-agent` header." (traffic-policy/actions/add-headers.mdx and
 * traffic-policy/actions/remove-headers.mdx, Behavior; header names are case-insensitive).
 */
const noUserAgent = <T>(names: (v: T) => string[]) =>
  z.refine<T>(
    (v) => !names(v).some((n) => n.toLowerCase() === "user-agent"),
    "must not name the user-agent header: ngrok forbids adding or removing it",
  );
const whole = (min: number, max: number) =>
  z.int().check(z.refine((v) => v >= min && v <= max, `must be a whole number from ${min} to ${max}`));
const statusCode = () => whole(100, 599);
const duration = (min?: number, max?: number, range?: string) =>
  z.string().check(
    z.refine((v) => parseDuration(v) !== undefined, "must be a Go duration such as 30s, 2m or 1h30m"),
    z.refine(
      (v) => {
        const ms = parseDuration(v);
        return ms === undefined || ((min === undefined || ms >= min) && (max === undefined || ms <= max));
      },
      `must be from ${range ?? ""}`,
    ),
  );
const oneOf = <T extends string>(values: readonly [T, ...T[]]) => z.enum(values);

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
function isCidr(text: string): boolean {
  const [ip, bits, extra] = text.split("/");
  if (extra !== undefined || ip === undefined || bits === undefined || !/^\d{1,3}$/.test(bits)) return false;
  if (IPV4.test(ip)) return Number(bits) <= 32;
  return isIpv6(ip) && Number(bits) <= 128;
}
function isIpv6(ip: string): boolean {
  if (!/^[0-9a-fA-F:.]+$/.test(ip) || (ip.match(/::/g)?.length ?? 0) > 1) return false;
  let groups = ip.split(":");
  // A trailing dotted IPv4 counts as two groups.
  const last = groups[groups.length - 1]!;
  if (last.includes(".")) {
    if (!IPV4.test(last)) return false;
    groups = [...groups.slice(0, -1), "0", "0"];
  }
  if (ip.includes("::")) {
    const filled = groups.filter((g) => g !== "");
    return filled.length <= 7 && filled.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g));
  }
  return groups.length === 8 && groups.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g));
}
const cidrs = () => z.array(z.string().check(z.refine(isCidr, "must be a CIDR such as 10.0.0.0/8 or 2001:db8::/32")));

const SECOND = 1000;

export const ACTIONS: Record<string, ActionSpec> = {
  "verify-webhook": {
    phases: [REQ],
    schema: () =>
      z.strictObject({
        provider: str().check(
          z.refine(
            isProvider,
            "must be a supported provider in lower case (see `edgectl webhook-verification replace --help`)",
          ),
        ),
        // sns too: ngrok's verify-webhook needs one even where the edge module took none.
        secret: str().check(z.minLength(1, "must not be empty")),
        enforce: z.optional(bool()),
      }),
  },
  "forward-internal": {
    phases: [TCP, REQ],
    terminating: (config) => config.on_error !== "continue",
    schema: ({ protocol }) =>
      z.strictObject({
        url: str().check(
          z.refine((v) => internalUrlProblem(v, protocol) === undefined, {
            error: (iss) => internalUrlProblem(iss.input as string, protocol)!,
          }),
        ),
        on_error: z.optional(oneOf(["halt", "continue"])),
      }),
  },
  "custom-response": {
    phases: [REQ, RES],
    terminating: always,
    schema: () =>
      z.strictObject({
        status_code: z.optional(statusCode()),
        body: z.optional(str()),
        headers: z.optional(headerMap(0, 10)),
      }),
  },
  deny: {
    phases: [TCP, REQ],
    terminating: always,
    // A status code means something only to an HTTP client.
    schema: ({ phase }) =>
      phase === REQ ? z.strictObject({ status_code: z.optional(statusCode()) }) : z.strictObject({}),
  },
  "close-connection": { phases: [TCP, REQ], terminating: always, schema: () => z.strictObject({}) },
  "restrict-ips": {
    phases: [TCP, REQ, RES],
    schema: () =>
      z
        .strictObject({
          enforce: z.optional(bool()),
          allow: z.optional(cidrs()),
          deny: z.optional(cidrs()),
          ip_policies: z.optional(
            z.array(
              z
                .string()
                .check(z.regex(/^ipp_[A-Za-z0-9]{1,64}$/, "must be an IP policy id: ipp_ + 1–64 letters or digits")),
            ),
          ),
        })
        .check(
          z.refine(
            (c) => [c.allow, c.deny, c.ip_policies].some((list) => list !== undefined && list.length > 0),
            "give at least one of allow, deny or ip_policies",
          ),
        ),
  },
  "terminate-tls": {
    phases: [TCP],
    protocols: ["https", "tls"],
    schema: () =>
      z.strictObject({
        min_version: z.optional(oneOf(["1.2", "1.3"])),
        max_version: z.optional(oneOf(["1.2", "1.3"])),
        mutual_tls_certificate_authorities: z.optional(strings()),
        mutual_tls_verification_strategy: z.optional(oneOf(["require-and-verify", "require-any", "request"])),
      }),
  },
  "add-headers": {
    phases: [REQ, RES],
    schema: () => z.strictObject({ headers: headerMap(1, 10).check(noUserAgent((v) => Object.keys(v))) }),
  },
  "remove-headers": {
    phases: [REQ, RES],
    schema: () =>
      z.strictObject({
        headers: strings().check(
          count("headers", 1, 10, len),
          noUserAgent((v: string[]) => v),
        ),
      }),
  },
  "compress-response": {
    phases: [RES],
    schema: () => z.strictObject({ algorithms: z.optional(z.array(oneOf(["br", "compress", "deflate", "gzip"]))) }),
  },
  "circuit-breaker": {
    phases: [REQ],
    schema: () =>
      z.strictObject({
        error_threshold: z.number().check(z.refine((v) => v >= 0 && v <= 1, "must be a fraction from 0 to 1")),
        volume_threshold: z.optional(whole(1, 2_000_000_000)),
        window_duration: z.optional(duration(SECOND, 120 * SECOND, "1s to 2m")),
        tripped_duration: z.optional(duration(SECOND, 120 * SECOND, "1s to 2m")),
        num_buckets: z.optional(z.literal(10)), // ngrok fixes it at 10
      }),
  },
  oauth: {
    phases: [REQ],
    schema: () =>
      z.strictObject({
        provider: oneOf(OAUTH_PROVIDERS),
        client_id: z.optional(str()),
        client_secret: z.optional(str()),
        scopes: z.optional(strings()),
        allow_cors_preflight: z.optional(bool()),
        idle_session_timeout: z.optional(duration()),
        max_session_duration: z.optional(duration()),
        userinfo_refresh_interval: z.optional(duration()),
        auth_id: z.optional(str()),
        authz_url_params: z.optional(z.record(z.string(), z.string())),
      }),
  },
  "openid-connect": {
    phases: [REQ],
    // The contract names issuer_url only; the other fields are those of ngrok's reference.
    schema: () =>
      z.strictObject({
        issuer_url: str().check(z.minLength(1, "must not be empty")),
        client_id: z.optional(str()),
        client_secret: z.optional(str()),
        scopes: z.optional(strings()),
        allow_cors_preflight: z.optional(bool()),
        idle_session_duration: z.optional(duration()),
        max_session_duration: z.optional(duration()),
        userinfo_refresh_interval: z.optional(duration()),
        auth_id: z.optional(str()),
        authz_url_params: z.optional(z.record(z.string(), z.string())),
        auth_cookie_domain: z.optional(str()),
      }),
  },
  "set-vars": {
    phases: [TCP, REQ, RES],
    schema: () =>
      z.strictObject({
        vars: z.array(
          z.record(z.string(), z.unknown()).check(
            z.refine((v) => Object.keys(v).length === 1, {
              error: (iss) => `each item sets exactly one variable (got ${Object.keys(iss.input as object).length})`,
            }),
          ),
        ),
      }),
  },
  // Type and phase checked, config passed through.
  "url-rewrite": { phases: [REQ] },
  redirect: { phases: [REQ] },
  "rate-limit": { phases: [REQ] },
  log: { phases: [TCP, REQ, RES] },
  "basic-auth": { phases: [REQ] },
  "jwt-validation": { phases: [REQ] },
  "http-request": { phases: [REQ, RES] },
};

const made = new Map<string, z.ZodMiniType>();

/** The action's config schema for that place, made once (per protocol and phase) on first use. */
export function configSchema(type: string, where: Where): z.ZodMiniType | undefined {
  const spec = ACTIONS[type];
  if (!spec?.schema) return undefined;
  const key = `${type} ${where.protocol} ${where.phase}`;
  let schema = made.get(key);
  if (!schema) made.set(key, (schema = spec.schema(where)));
  return schema;
}
