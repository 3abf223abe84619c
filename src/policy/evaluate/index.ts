// The Traffic Policy evaluator (contract, "Testing a policy"): pure, no I/O — a request (and
// the upstream's answer) in, the outcome, the trace, the vars and the cost in units out; the
// clock is the request's `time` and what lasts across requests is the injected state. It runs
// the phases as ngrok-docs traffic-policy/how-it-works.mdx describes them: rules in order, a
// rule runs when all its expressions are true (none: always), its actions in order, and the
// first terminating action ends the phase (redirect only when it changes the URL:
// snippets/traffic-policy/actions/redirect/behavior.mdx). What each action does is in
// actions.ts; CEL goes through cel.ts alone. The policy is the parsed document, already passed
// by the validator (src/policy/index.ts); what does not have the expected shape is skipped.
import { maskPolicyData } from "../../secrets/walk.js";
import { CEL_FIELDS, RESULT_NAMES, RUNS, UNITS, type Config, type Run } from "./actions.js";
import { evaluateExpression, renderTemplate, type Activation } from "./cel.js";
import { connVariables, reqVariables, resVariables } from "./scope.js";
import { wholeInterpolation } from "./template.js";
import type {
  By,
  EvalContext,
  EvalRequest,
  EvalResponse,
  EvalState,
  Outcome,
  Phase,
  TraceAction,
  TraceEntry,
  TraceExpression,
} from "./types.js";

export type * from "./types.js";

export function createState(): EvalState {
  return { buckets: new Map(), upstreamErrors: 0 };
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** A shallow copy; an empty object without the spread (V8's object spread costs ~0.5 µs even then, and most are empty). */
function copy(o: Record<string, unknown>): Record<string, unknown> {
  for (const _ in o) return { ...o };
  return {};
}

export interface RequestResult {
  outcome: Outcome;
  /** The request as the policy left it (headers added or removed, URL rewritten). */
  request: EvalRequest;
  trace: TraceEntry[];
  vars: Record<string, unknown>;
  units: number;
}

export interface ResponseResult {
  response: EvalResponse;
  /** Set when the phase ended in an answer of its own (custom-response, restrict-ips) or could not be worked out. */
  outcome?: Outcome;
  trace: TraceEntry[];
  vars: Record<string, unknown>;
  units: number;
}

function copyRequest(req: EvalRequest): EvalRequest {
  return { ...req, headers: copyHeaders(req.headers) };
}
function copyHeaders(h: Record<string, string[]>): Record<string, string[]> {
  // No prototype: a header named `constructor` (or a case's `__proto__`) is a name like any other.
  const out: Record<string, string[]> = Object.create(null);
  for (const k of Object.keys(h)) {
    const name = k.toLowerCase();
    const had = out[name];
    out[name] = had === undefined ? h[k]!.slice() : had.concat(h[k]!);
  }
  return out;
}

/** The phases a request goes through on that endpoint (src/policy/index.ts phasesFor: internal HTTP endpoints take no on_tcp_connect). */
const TCP_PHASES: readonly Phase[] = ["on_tcp_connect"];
const INTERNAL_HTTP_PHASES: readonly Phase[] = ["on_http_request"];
const HTTP_PHASES: readonly Phase[] = ["on_tcp_connect", "on_http_request"];
function requestPhases(ctx: EvalContext): readonly Phase[] {
  if (ctx.protocol === "tls" || ctx.protocol === "tcp") return TCP_PHASES;
  return ctx.kind === "internal" ? INTERNAL_HTTP_PHASES : HTTP_PHASES;
}

export function evaluateRequest(policy: unknown, req: EvalRequest, ctx: EvalContext): RequestResult {
  const request = copyRequest(req);
  const doc = isObject(policy) ? policy : {};
  const trace: TraceEntry[] = [];
  const results: Record<string, unknown> = {};
  let units = 0;
  let vars: Record<string, unknown> = {};
  for (const phase of requestPhases(ctx)) {
    const ran = runPhase(phase, doc[phase], { ctx, req: request, results, trace });
    units += ran.units;
    vars = ran.vars;
    if (ran.outcome) return { outcome: ran.outcome, request, trace, vars, units };
  }
  // No terminating action: an agent endpoint forwards to its agent; a Cloud Endpoint has no
  // upstream of its own, and what ngrok answers then is not documented (ERR_NGROK_2235 asks
  // that "traffic always results in an action").
  const outcome: Outcome =
    ctx.kind === "agent"
      ? { kind: "forward" }
      : { kind: "unknown", reason: "no terminating action ran, and a Cloud Endpoint has no upstream of its own" };
  return { outcome, request, trace, vars, units };
}

export function evaluateResponse(
  policy: unknown,
  req: EvalRequest,
  res: EvalResponse,
  ctx: EvalContext,
): ResponseResult {
  if (res.status >= 500) ctx.state.upstreamErrors++;
  const response: EvalResponse = { ...res, headers: copyHeaders(res.headers) };
  const doc = isObject(policy) ? policy : {};
  const trace: TraceEntry[] = [];
  const ran = runPhase("on_http_response", doc.on_http_response, {
    ctx,
    req: copyRequest(req),
    res: response,
    results: {},
    trace,
  });
  return { response, ...(ran.outcome ? { outcome: ran.outcome } : {}), trace, vars: ran.vars, units: ran.units };
}

interface PhaseEnv {
  ctx: EvalContext;
  req: EvalRequest;
  res?: EvalResponse;
  /** actions.ngrok.*: the results of the actions run so far (across the request's phases). */
  results: Record<string, unknown>;
  trace: TraceEntry[];
}

/** A rule as runPhase reads it: its name (or place), its place, its expressions as texts; `rule` undefined when it is not an object. */
interface RuleView {
  rule: Record<string, unknown> | undefined;
  name: string;
  place: string;
  expressions: readonly string[];
}

/**
 * The rules of a phase as runPhase reads them, made once per rules list: a policy is parsed data
 * evaluated request after request, and its names, places and texts are the same each time (the
 * place's text was a string made per rule and request). A list whose rules, names or expression
 * texts are no longer the ones it was read from (a caller changed the document) is read again.
 */
const ruleViews = new WeakMap<readonly unknown[], { phase: Phase; views: RuleView[] }>();
function rulesOf(phase: Phase, rules: readonly unknown[]): RuleView[] {
  const had = ruleViews.get(rules);
  if (had !== undefined && had.phase === phase && unchanged(had.views, rules)) return had.views;
  // Array.from, not map: a hole in a list built in code is a rule like `undefined` (skipped).
  const views = Array.from(rules, (rule, i): RuleView => {
    const place = `${phase}[${i}]`;
    if (!isObject(rule)) return { rule: undefined, name: place, place, expressions: [] };
    const name = typeof rule.name === "string" && rule.name !== "" ? rule.name : place;
    const expressions = Array.isArray(rule.expressions) ? Array.from(rule.expressions as unknown[], String) : [];
    return { rule, name, place, expressions };
  });
  ruleViews.set(rules, { phase, views });
  return views;
}
function unchanged(views: readonly RuleView[], rules: readonly unknown[]): boolean {
  if (views.length !== rules.length) return false;
  for (let i = 0; i < views.length; i++) {
    const v = views[i]!;
    if (v.rule === undefined) {
      if (isObject(rules[i])) return false;
      continue;
    }
    if (rules[i] !== v.rule) return false;
    const name = v.rule.name;
    if ((typeof name === "string" && name !== "" ? name : v.place) !== v.name) return false;
    const e = v.rule.expressions;
    const n = Array.isArray(e) ? e.length : 0;
    if (n !== v.expressions.length) return false;
    for (let k = 0; k < n; k++) if ((e as unknown[])[k] !== v.expressions[k]) return false;
  }
  return true;
}

function runPhase(
  phase: Phase,
  rules: unknown,
  walk: PhaseEnv,
): { outcome?: Outcome; vars: Record<string, unknown>; units: number } {
  // set-vars/behavior.mdx, "Scoping": the variables of each phase are that phase's alone.
  const vars: Record<string, unknown> = {};
  let units = 0;
  let fixed: Record<string, unknown> | undefined;
  let activation: Activation | undefined;
  const current = (): Activation => {
    if (activation) return activation;
    // Built by assignment: object spreads are what a request's evaluation spent most on here.
    const made: Activation = {};
    fixed ??= connVariables(walk.req, walk.ctx.protocol);
    for (const k in fixed) made[k] = fixed[k];
    made.req = reqVariables(walk.req);
    if (walk.res) made.res = resVariables(walk.res);
    made.vars = copy(vars);
    made.actions = { ngrok: copy(walk.results) };
    return (activation = made);
  };
  let outcome: Outcome | undefined;
  const list = Array.isArray(rules) ? rulesOf(phase, rules) : [];
  for (let i = 0; i < list.length; i++) {
    const { rule, name, place, expressions } = list[i]!;
    const entry: TraceEntry = {
      phase,
      rule: name,
      place,
      ran: false,
      reached: outcome === undefined,
      expressions: [],
      actions: [],
    };
    walk.trace.push(entry);
    if (outcome !== undefined || rule === undefined) continue;
    let matched = true;
    for (let k = 0; k < expressions.length; k++) {
      const expression = expressions[k]!;
      if (!matched) {
        entry.expressions.push({ expression, skipped: true });
        continue;
      }
      const r = evaluateExpression(expression, current());
      const shown: TraceExpression = { expression };
      if ("error" in r) shown.error = r.error;
      else if (typeof r.value !== "boolean") shown.error = `is ${describe(r.value)}, not a bool`;
      else shown.value = r.value;
      entry.expressions.push(shown);
      if (shown.error !== undefined) {
        outcome = { kind: "unknown", reason: `${place}.expressions[${k}]: ${shown.error}` };
        matched = false;
      } else if (shown.value === false) matched = false;
    }
    if (!matched) continue;
    entry.ran = true;
    const actions = Array.isArray(rule.actions) ? rule.actions : [];
    for (let j = 0; j < actions.length; j++) {
      const action: unknown = actions[j];
      const type = isObject(action) && typeof action.type === "string" ? action.type : "";
      const by: By = { phase, rule: name, action: type };
      const config = isObject(action) && isObject(action.config) ? action.config : {};
      units += UNITS[type] ?? 0;
      const shown: TraceAction = { type, config, did: "" };
      entry.actions.push(shown);
      const resolved = resolveConfig(type, config, current());
      if ("error" in resolved) {
        shown.did = "not worked out";
        outcome = { kind: "unknown", reason: `${place}.actions[${j}].config: ${resolved.error}`, by };
        break;
      }
      shown.config = resolved.config;
      if (type === "set-vars") {
        const set = setVars(resolved.config, current(), vars);
        activation = undefined;
        if ("error" in set) {
          shown.did = "not worked out";
          outcome = { kind: "unknown", reason: `${place}.actions[${j}]: ${set.error}`, by };
          break;
        }
        shown.did = `set ${set.names.join(", ")}`;
        continue;
      }
      const fn = Object.hasOwn(RUNS, type) ? RUNS[type] : undefined;
      if (!fn) {
        shown.did = "not worked out";
        outcome = { kind: "unknown", reason: `${type}: what this action does is not worked out by edgectl`, by };
        break;
      }
      const run: Run = {
        phase,
        ctx: walk.ctx,
        req: walk.req,
        activation: current,
        by,
        place: `${place}.actions[${j}]`,
      };
      if (walk.res) run.res = walk.res;
      const step = fn(resolved.config, run);
      shown.did = step.did;
      if (step.result) {
        shown.result = step.result;
        const key = RESULT_NAMES[type];
        if (key) walk.results[key] = step.result;
      }
      activation = undefined;
      if (step.unknown !== undefined) {
        outcome = { kind: "unknown", reason: step.unknown, by };
        break;
      }
      if (step.end) {
        outcome = step.end;
        break;
      }
    }
  }
  const ran: { outcome?: Outcome; vars: Record<string, unknown>; units: number } = { vars, units };
  if (outcome) ran.outcome = outcome;
  return ran;
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  return typeof v === "object" ? "a map" : `a ${typeof v} (${JSON.stringify(v)})`;
}

/** Every string of a value interpolated (lists and maps walked; map keys as written). */
function render(value: unknown, activation: Activation): { value: unknown } | { error: string } {
  if (typeof value === "string") return renderTemplate(value, activation);
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const v of value) {
      const r = render(v, activation);
      if ("error" in r) return r;
      out.push(r.value);
    }
    return { value: out };
  }
  if (isObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const r = render(v, activation);
      if ("error" in r) return r;
      out[k] = r.value;
    }
    return { value: out };
  }
  return { value };
}

/** The config with the interpolations of its CEL fields resolved (actions.ts CEL_FIELDS). */
function resolveConfig(type: string, config: Config, activation: Activation): { config: Config } | { error: string } {
  const fields = CEL_FIELDS[type];
  if (!fields) return { config };
  const out: Config = { ...config };
  for (const field of fields) {
    if (!(field in config)) continue;
    const r = render(config[field], activation);
    if ("error" in r) return { error: `${field}: ${r.error}` };
    out[field] = r.value;
  }
  return { config: out };
}

/**
 * set-vars/behavior.mdx: each item names one variable; a string that is exactly one
 * interpolation (`"${vars.x}"`) keeps the expression's type, other strings are interpolated as
 * text; later items see the earlier ones ("Referencing other variables").
 */
function setVars(
  config: Config,
  activation: Activation,
  vars: Record<string, unknown>,
): { names: string[] } | { error: string } {
  const names: string[] = [];
  let scope = activation;
  const value = (v: unknown): { value: unknown } | { error: string } => {
    if (typeof v === "string") {
      const whole = wholeInterpolation(v);
      return whole !== undefined ? evaluateExpression(whole, scope) : renderTemplate(v, scope);
    }
    if (Array.isArray(v) || isObject(v)) return render(v, scope);
    return { value: v };
  };
  for (const item of Array.isArray(config.vars) ? config.vars : []) {
    if (!isObject(item)) continue;
    for (const [name, raw] of Object.entries(item)) {
      const r = value(raw);
      if ("error" in r) return { error: `vars.${name}: ${r.error}` };
      vars[name] = r.value;
      names.push(name);
      scope = { ...scope, vars: { ...vars } };
    }
  }
  return { names };
}

/** The trace with every secret place of each action's config masked (src/secrets' table), for printing. */
export function maskTrace(trace: readonly TraceEntry[]): TraceEntry[] {
  const masked = (type: string, config: unknown): unknown =>
    maskPolicyData({ on_http_request: [{ actions: [{ type, config }] }] }).on_http_request[0]!.actions[0]!.config;
  return trace.map((entry) => ({
    ...entry,
    actions: entry.actions.map((a) => {
      const out: TraceAction = { ...a, config: masked(a.type, a.config) };
      // http-request's result repeats the headers it sent (variables.mdx `req.header`).
      const sent = a.result?.req;
      if (a.type === "http-request" && isObject(sent) && a.result)
        out.result = {
          ...a.result,
          req: { ...sent, header: (masked(a.type, { headers: sent.header }) as Config).headers },
        };
      return out;
    }),
  }));
}
