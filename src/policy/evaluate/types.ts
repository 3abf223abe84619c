// The evaluator's shapes (INTERFACES.md, "Evaluator"): what goes in, what comes out.
/**
 * What the evaluator needs of a webhook scheme: the part of src/webhooks/scheme.ts's `Scheme`
 * that verifies (declared here, structurally, so that the policy layer imports nothing above
 * it; every `Scheme` is one).
 */
export interface VerifyingScheme {
  key: "secret" | "private-key" | "public-key";
  verify(input: {
    request: { method: string; url: string; headers: Record<string, string>; body: Buffer };
    secret?: string;
    publicKey?: string;
    now: number;
  }): { verified: true } | { verified: false; check: string; message: string };
}

export type Phase = "on_tcp_connect" | "on_http_request" | "on_http_response";
export type Protocol = "https" | "http" | "tls" | "tcp";

export interface EvalRequest {
  method: string;
  /** Full URL: scheme://host[:port]/path?query */
  url: string;
  /** Lower-case names. */
  headers: Record<string, string[]>;
  body: Buffer;
  clientIp: string;
  time: Date;
}

export interface EvalResponse {
  status: number;
  headers: Record<string, string[]>;
  body: Buffer;
}

export interface HttpAnswer {
  method?: string;
  url: string;
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

/** What lasts across requests: rate-limit buckets, the upstream errors seen (circuit-breaker). */
export interface EvalState {
  /** Per bucket: the times (ms) of the requests it let through, oldest first. */
  buckets: Map<string, number[]>;
  /** Upstream answers of 500 or more seen by evaluateResponse. */
  upstreamErrors: number;
}

export interface EvalContext {
  protocol: Protocol;
  kind: "public" | "internal" | "agent";
  state: EvalState;
  /** The webhook schemes (src/webhooks), injected. */
  schemes: (provider: string) => VerifyingScheme | undefined;
  /** The identity oauth / openid-connect has signed in (email, name, …); none: not signed in. */
  identity?: Record<string, string>;
  /** The answers of the policy's http-request actions. */
  httpResponses?: HttpAnswer[];
  /** JWKS given outside the policy: `{keys: [...]}` for every jku, or `{<jku url>: {keys: [...]}}`. */
  jwtKeys?: unknown;
  /** The rules of IP policies a restrict-ips names (`ipp_…` → CIDRs); an id not here is not worked out. */
  ipPolicies?: ReadonlyMap<string, { allow: readonly string[]; deny: readonly string[] }>;
}

export interface By {
  phase: string;
  rule: string;
  action: string;
}

export type Outcome =
  | { kind: "forward"; url?: string; by?: By }
  | { kind: "response"; status: number; headers: Record<string, string[]>; body: string; by: By }
  | { kind: "deny"; status: number; headers?: Record<string, string[]>; by: By }
  | { kind: "close"; by: By }
  | { kind: "redirect"; status: number; url: string; headers: Record<string, string[]>; by: By }
  | { kind: "unknown"; reason: string; by?: By };

export interface TraceExpression {
  expression: string;
  /** Its value, when it was evaluated without error. */
  value?: unknown;
  error?: string;
  /** Not evaluated: an expression before it was false. */
  skipped?: true;
}

export interface TraceAction {
  type: string;
  /** The config with every interpolation resolved (secrets in it: mask before printing, see maskTrace). */
  config: unknown;
  /** What it did, in words. */
  did: string;
  /** The action's result variables (`actions.ngrok.<name>`), when it sets any. */
  result?: Record<string, unknown>;
}

export interface TraceEntry {
  phase: Phase;
  /** The rule's name, or its place when it has none. */
  rule: string;
  /** `on_http_request[2]` */
  place: string;
  /** Its expressions were all true and its actions ran. */
  ran: boolean;
  /** False: an earlier action ended the phase, the rule was never looked at. */
  reached: boolean;
  expressions: TraceExpression[];
  actions: TraceAction[];
}
