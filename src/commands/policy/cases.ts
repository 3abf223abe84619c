// `policy test --cases`: the cases file (contract, "Testing a policy"), each case run through
// the evaluator in file order against one state (a rate-limit bucket fills across cases, by
// each case's time), and what each case expects compared with what it got.
import * as z from "zod/mini";
import type { EvalContext, EvalRequest, EvalResponse, Outcome, TraceEntry } from "../../policy/evaluate/index.js";

const headerMap = () => z.record(z.string(), z.string());
const caseSchema = z.strictObject({
  name: z.string(),
  request: z.strictObject({
    method: z.string(),
    url: z.string(),
    headers: z.optional(headerMap()),
    body: z.optional(z.string()),
    client_ip: z.optional(z.string()),
    time: z.optional(z.string()),
    sign: z.optional(z.strictObject({ provider: z.string(), secret_env: z.string() })),
    identity: z.optional(z.record(z.string(), z.string())),
  }),
  upstream: z.optional(
    z.strictObject({ status: z.int(), headers: z.optional(headerMap()), body: z.optional(z.string()) }),
  ),
  http_responses: z.optional(
    z.array(
      z.strictObject({
        method: z.optional(z.string()),
        url: z.string(),
        status: z.int(),
        headers: z.optional(headerMap()),
        body: z.optional(z.string()),
      }),
    ),
  ),
  /** JWKS for jwt-validation (`{keys: [...]}`, or one per jku URL): an addition of edgectl's. */
  jwt_keys: z.optional(z.record(z.string(), z.unknown())),
  expect: z.strictObject({
    outcome: z.optional(z.enum(["forward", "response", "deny", "close", "redirect", "unknown"])),
    status: z.optional(z.int()),
    url: z.optional(z.string()),
    headers: z.optional(z.record(z.string(), z.nullable(z.string()))),
    /** The forwarded request's headers (what the upstream sees): an addition of edgectl's. */
    request_headers: z.optional(z.record(z.string(), z.nullable(z.string()))),
    body: z.optional(z.string()),
    rules: z.optional(z.array(z.string())),
    vars: z.optional(z.record(z.string(), z.unknown())),
  }),
});
export const casesSchema = z.strictObject({
  cases: z.array(caseSchema),
  jwt_keys: z.optional(z.record(z.string(), z.unknown())),
});
export type Case = z.output<typeof caseSchema>;
export type CasesFile = z.output<typeof casesSchema>;

/** What one request came to: the outcome, and the answer or forwarded request it is compared on. */
export interface Got {
  outcome: Outcome;
  status?: number;
  url?: string;
  /** The answer's headers: the policy's (response, deny, redirect), or the upstream's after on_http_response (forward). */
  headers: Record<string, string[]>;
  /** The request as forwarded (forward). */
  requestHeaders?: Record<string, string[]>;
  body?: string;
  rules: string[];
  vars: Record<string, unknown>;
  trace: TraceEntry[];
  units: number;
  /** The upstream's answer after on_http_response, when it ran. */
  response?: EvalResponse;
}

/** The case's request (headers in lower case; Host from the URL unless given). */
export function caseRequest(c: Case, now: Date, defaultIp: string): EvalRequest | { error: string } {
  const headers: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(c.request.headers ?? {})) (headers[k.toLowerCase()] ??= []).push(v);
  let url: URL;
  try {
    url = new URL(c.request.url);
  } catch {
    return { error: `request.url: ${JSON.stringify(c.request.url)} is not a full URL (scheme://host/path)` };
  }
  if (!Object.hasOwn(headers, "host")) headers.host = [url.host];
  const time = c.request.time === undefined ? now : new Date(c.request.time);
  if (Number.isNaN(time.getTime()) || (c.request.time !== undefined && !RFC3339.test(c.request.time)))
    return { error: `request.time: ${JSON.stringify(c.request.time)} is not an RFC 3339 time` };
  return {
    method: c.request.method.toUpperCase(),
    url: url.href,
    headers,
    body: Buffer.from(c.request.body ?? "", "utf8"),
    clientIp: c.request.client_ip ?? defaultIp,
    time,
  };
}

export const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** Each difference between what the case expects and what it got, in words; none: it passed. */
export function compare(expect: Case["expect"], got: Got): string[] {
  const out: string[] = [];
  const show = (v: unknown) => (v === undefined ? "none" : JSON.stringify(v));
  if (expect.outcome !== undefined && expect.outcome !== got.outcome.kind)
    out.push(
      `expected outcome ${expect.outcome}, got ${got.outcome.kind}${got.outcome.kind === "unknown" ? ` (${got.outcome.reason})` : ""}`,
    );
  if (expect.status !== undefined && expect.status !== got.status)
    out.push(`expected status ${expect.status}, got ${show(got.status)}`);
  if (expect.url !== undefined && expect.url !== got.url)
    out.push(`expected url ${show(expect.url)}, got ${show(got.url)}`);
  const headers = (what: string, wanted: Record<string, string | null> | undefined, have: Record<string, string[]>) => {
    for (const [name, want] of Object.entries(wanted ?? {})) {
      const values = have[name.toLowerCase()];
      const value = values === undefined ? undefined : values.join(", ");
      if (want === null ? value !== undefined : value !== want)
        out.push(`expected ${what} ${name} ${want === null ? "absent" : show(want)}, got ${show(value)}`);
    }
  };
  headers("header", expect.headers, got.headers);
  headers("request header", expect.request_headers, got.requestHeaders ?? {});
  if (expect.body !== undefined && expect.body !== got.body)
    out.push(`expected body ${show(expect.body)}, got ${show(got.body)}`);
  if (expect.rules !== undefined && JSON.stringify(expect.rules) !== JSON.stringify(got.rules))
    out.push(`expected rules ${show(expect.rules)}, got ${show(got.rules)}`);
  for (const [name, want] of Object.entries(expect.vars ?? {}))
    if (JSON.stringify(want) !== JSON.stringify(got.vars[name]))
      out.push(`expected vars.${name} ${show(want)}, got ${show(got.vars[name])}`);
  return out;
}

/** Runs one request through the policy: the request phases, then on_http_response over the upstream's answer when it is forwarded. */
export async function evaluate(
  policy: unknown,
  req: EvalRequest,
  ctx: EvalContext,
  upstream: { status: number; headers?: Record<string, string>; body?: string },
): Promise<Got> {
  const { evaluateRequest, evaluateResponse } = await import("../../policy/evaluate/index.js");
  const r = evaluateRequest(policy, req, ctx);
  const ran = (trace: TraceEntry[]) => trace.filter((t) => t.ran).map((t) => t.rule);
  const got: Got = {
    outcome: r.outcome,
    headers: {},
    rules: ran(r.trace),
    vars: r.vars,
    trace: r.trace,
    units: r.units,
  };
  const o = r.outcome;
  if (o.kind === "response" || o.kind === "deny" || o.kind === "redirect") {
    got.status = o.status;
    got.headers = o.headers ?? {};
    if (o.kind === "response") got.body = o.body;
    if (o.kind === "redirect") got.url = o.url;
    return got;
  }
  if (o.kind !== "forward") return got;
  got.url = o.url ?? r.request.url;
  got.requestHeaders = r.request.headers;
  const headers: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(upstream.headers ?? {})) (headers[k.toLowerCase()] ??= []).push(v);
  const res = evaluateResponse(
    policy,
    r.request,
    { status: upstream.status, headers, body: Buffer.from(upstream.body ?? "") },
    ctx,
  );
  got.trace = [...r.trace, ...res.trace];
  got.rules = ran(got.trace);
  got.units += res.units;
  got.response = res.response;
  if (res.outcome) {
    got.outcome = res.outcome;
    const ro = res.outcome;
    if (ro.kind === "response" || ro.kind === "deny" || ro.kind === "redirect") {
      got.status = ro.status;
      got.headers = ro.headers ?? {};
      if (ro.kind === "response") got.body = ro.body;
    }
    return got;
  }
  got.status = res.response.status;
  got.headers = res.response.headers;
  got.body = res.response.body.toString("utf8");
  return got;
}
