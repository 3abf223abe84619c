// The one function the traffic port runs policies through: `PolicyEngine` mirrors
// src/policy/evaluate's evaluateRequest / evaluateResponse / createState (INTERFACES.md,
// "Evaluator"), so the traffic port depends on that shape alone and tests can hand it any engine.
//
// MERGE POINT: `loadEngine()` below is where src/policy/evaluate plugs in. Until it is on this
// branch, `minimalEngine` stands in: policies whose rules have no expressions and whose actions
// are forward-internal, custom-response, deny, add-headers and remove-headers with literal
// configs — enough to run the proxy end to end. Anything else is `unknown` (never a guess), and
// it is not a second evaluator: it goes once the real one is wired.
import type { Scheme } from "../../webhooks/scheme.js";

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

/** Opaque to the traffic port: made by `createState()`, one per endpoint, kept across requests. */
export type EvalState = unknown;

export interface EvalContext {
  protocol: "https" | "http" | "tls" | "tcp";
  kind: "public" | "internal" | "agent";
  state: EvalState;
  schemes: (provider: string) => Scheme | undefined;
  identity?: Record<string, string>;
  httpResponses?: Array<{
    method?: string;
    url: string;
    status: number;
    headers?: Record<string, string>;
    body?: string;
  }>;
  /** JWKS documents by the URL a jwt-validation action names (fetched by the emulator, src/emulator/traffic/jwks.ts). */
  jwtKeys?: unknown;
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

/** What the traffic port reads of a trace entry: the rule's name (or place) and whether it ran. */
export interface TraceEntry {
  phase?: string;
  rule?: string;
  ran?: boolean;
}

export interface RequestResult {
  outcome: Outcome;
  request: EvalRequest;
  trace: readonly TraceEntry[];
  vars?: Record<string, unknown>;
  units?: number;
}

export interface ResponseResult {
  response: EvalResponse;
  outcome?: Outcome;
  trace: readonly TraceEntry[];
  vars?: Record<string, unknown>;
  units?: number;
}

type MaybeAsync<T> = T | Promise<T>;

export interface PolicyEngine {
  createState(): EvalState;
  evaluateRequest(policy: unknown, req: EvalRequest, ctx: EvalContext): MaybeAsync<RequestResult>;
  evaluateResponse(policy: unknown, req: EvalRequest, res: EvalResponse, ctx: EvalContext): MaybeAsync<ResponseResult>;
  /** verify-webhook's schemes (src/webhooks' schemeFor). */
  schemes(provider: string): Scheme | undefined;
}

/**
 * The engine the emulator runs. At merge: load src/policy/evaluate/index.ts (its evaluateRequest,
 * evaluateResponse, createState) with a dynamic import, and src/webhooks/index.ts' schemeFor as
 * `schemes`, and return them instead of the stand-in.
 */
export function loadEngine(): Promise<PolicyEngine> {
  return Promise.resolve(minimalEngine);
}

// ---------------------------------------------------------------- the stand-in

interface Rule {
  name?: unknown;
  expressions?: unknown;
  actions?: unknown;
}
interface Action {
  type?: unknown;
  config?: unknown;
}

const rulesOf = (policy: unknown, phase: string): Rule[] => {
  const list = (policy as Record<string, unknown> | null)?.[phase];
  return Array.isArray(list) ? (list as Rule[]) : [];
};
const ruleName = (rule: Rule, phase: string, i: number) =>
  typeof rule.name === "string" && rule.name !== "" ? rule.name : `${phase}[${i}]`;
const configOf = (a: Action) =>
  (typeof a.config === "object" && a.config !== null ? a.config : {}) as Record<string, unknown>;
const hasInterpolation = (v: unknown) => JSON.stringify(v ?? null).includes("${");

function headerEdits(headers: Record<string, string[]>, a: Action): Record<string, string[]> {
  const config = configOf(a);
  const out = { ...headers };
  if (a.type === "add-headers")
    for (const [k, v] of Object.entries((config.headers ?? {}) as Record<string, unknown>))
      out[k.toLowerCase()] = [...(out[k.toLowerCase()] ?? []), String(v)];
  else for (const k of (config.headers ?? []) as unknown[]) delete out[String(k).toLowerCase()];
  return out;
}

/** One phase of the stand-in: rules in order, literal actions only. */
function runPhase(
  policy: unknown,
  phase: "on_http_request" | "on_http_response",
  headers: Record<string, string[]>,
): { outcome?: Outcome; headers: Record<string, string[]>; trace: TraceEntry[] } {
  const trace: TraceEntry[] = [];
  let current = headers;
  for (const [i, rule] of rulesOf(policy, phase).entries()) {
    const name = ruleName(rule, phase, i);
    trace.push({ phase, rule: name, ran: true });
    if (Array.isArray(rule.expressions) && rule.expressions.length > 0)
      return {
        outcome: { kind: "unknown", reason: `${name}: expressions need the evaluator` },
        headers: current,
        trace,
      };
    for (const a of (Array.isArray(rule.actions) ? rule.actions : []) as Action[]) {
      const by = { phase, rule: name, action: String(a.type) };
      const config = configOf(a);
      if (hasInterpolation(config))
        return {
          outcome: { kind: "unknown", reason: `${name}: \${…} needs the evaluator`, by },
          headers: current,
          trace,
        };
      if (a.type === "add-headers" || a.type === "remove-headers") current = headerEdits(current, a);
      else if (a.type === "forward-internal" && phase === "on_http_request")
        return { outcome: { kind: "forward", url: String(config.url), by }, headers: current, trace };
      else if (a.type === "deny")
        return { outcome: { kind: "deny", status: Number(config.status_code ?? 403), by }, headers: current, trace };
      else if (a.type === "custom-response") {
        const h: Record<string, string[]> = {};
        for (const [k, v] of Object.entries((config.headers ?? {}) as Record<string, unknown>))
          h[k.toLowerCase()] = [String(v)];
        const body = String(config.body ?? config.content ?? "");
        return {
          outcome: { kind: "response", status: Number(config.status_code), headers: h, body, by },
          headers: current,
          trace,
        };
      } else
        return {
          outcome: { kind: "unknown", reason: `${String(a.type)} needs the evaluator`, by },
          headers: current,
          trace,
        };
    }
  }
  return { headers: current, trace };
}

export const minimalEngine: PolicyEngine = {
  createState: () => ({}),
  schemes: () => undefined,
  evaluateRequest(policy, req) {
    const r = runPhase(policy, "on_http_request", req.headers);
    return { outcome: r.outcome ?? { kind: "forward" }, request: { ...req, headers: r.headers }, trace: r.trace };
  },
  evaluateResponse(policy, _req, res) {
    const r = runPhase(policy, "on_http_response", res.headers);
    const response = { ...res, headers: r.headers };
    if (r.outcome?.kind === "response")
      return {
        response: { status: r.outcome.status, headers: r.outcome.headers, body: Buffer.from(r.outcome.body) },
        outcome: r.outcome,
        trace: r.trace,
      };
    return { response, ...(r.outcome ? { outcome: r.outcome } : {}), trace: r.trace };
  },
};
