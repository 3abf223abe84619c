// The Traffic Policy validator (issue 18): pure data in, problems out, no I/O. One module for
// `policy check`, the endpoint commands, the migration planner and the emulator alike, so all
// four refuse the same documents with the same words (contract, "Traffic Policy and Cloud
// Endpoints"). zod loads, and the config schemas are made, only when a config is checked.
import type * as z from "zod/mini";
import {
  ACTIONS,
  ENDPOINT_PHASES,
  SSE_PHASE,
  configSchema,
  warningsOf,
  expressionsOf,
  templatesOf,
  useRe2,
  type ActionPhase,
  type ConfigPath,
  type Phase,
} from "./actions.js";
import type * as Cel from "./cel/index.js";
import { internalUrlProblem, publicUrlProblem } from "./urls.js";
import { holdsSecret } from "../secrets/index.js";

export { parseDuration } from "./duration.js";

export type Protocol = "https" | "http" | "tls" | "tcp";

/** The kinds of endpoint a policy is written for (the contract, "Endpoint kinds"). */
export type EndpointKind = "public" | "internal" | "agent";

/** The endpoint a policy is checked for. */
export interface Target {
  protocol: Protocol;
  /** An internal endpoint (`*.internal`, binding `internal`): no on_tcp_connect for HTTP. */
  internal: boolean;
  /**
   * Default: internal or public by `internal`. An agent endpoint's policy (an agent, an SDK,
   * an AgentEndpoint) has no terminating-action requirement: the agent forwards what it lets
   * through (traffic-policy/how-it-works.mdx).
   */
  kind?: EndpointKind;
}

/** The error code the emulator answers a problem with (400). */
export type ProblemCode =
  | "ERR_NGROK_2200"
  | "ERR_NGROK_2201"
  | "ERR_NGROK_2202"
  | "ERR_NGROK_2207"
  | "ERR_NGROK_2230"
  | "ERR_NGROK_2235"
  | "ERR_NGROK_2239";

export interface Problem {
  /** Where: `on_http_request[2].actions[0].config.headers`, or "" for the whole document. */
  path: string;
  message: string;
  code: ProblemCode;
}

/** What ngrok may accept but edgectl doubts (a problem with --strict). */
export interface Warning {
  path: string;
  message: string;
}

export interface Verdict {
  problems: Problem[];
  warnings: Warning[];
}

export interface CheckOptions {
  /** Warnings are problems. */
  strict?: boolean;
}

const kindOf = (target: Target): EndpointKind => target.kind ?? (target.internal ? "internal" : "public");

// The CEL checker (src/policy/cel/), loaded only for a policy with expressions or `${…}`, or
// with an action whose config holds RE2 patterns (RE2 is bundled with it: ActionSpec.regex):
// loadCel() before checkPolicy, as parsePolicyText does for the text it parses. Until it is
// loaded, expressions are not checked (and a pattern is not checked but refused: fields.ts re2).
let cel: typeof Cel | undefined;

/** Whether a parsed document holds CEL: an `expressions` key or a `${` anywhere (one walk). */
export function holdsCel(document: unknown, depth = 0): boolean {
  if (typeof document === "string") return document.includes("${");
  if (document === null || typeof document !== "object" || depth > 64) return false;
  if (Array.isArray(document)) return document.some((v) => holdsCel(v, depth + 1));
  return Object.entries(document).some(([k, v]) => k === "expressions" || holdsCel(v, depth + 1));
}

/** Whether a parsed policy has an action whose config holds RE2 patterns (ActionSpec.regex). */
export function holdsRegexAction(document: unknown): boolean {
  if (!isObject(document)) return false;
  return Object.values(document).some(
    (rules) =>
      Array.isArray(rules) &&
      rules.some(
        (rule) =>
          isObject(rule) &&
          Array.isArray(rule.actions) &&
          rule.actions.some(
            (a) =>
              isObject(a) && typeof a.type === "string" && Object.hasOwn(ACTIONS, a.type) && ACTIONS[a.type]!.regex,
          ),
      ),
  );
}

/**
 * Loads the CEL checker (once) when `document` holds CEL or an action whose patterns RE2 checks;
 * undefined: load it whatever the document.
 */
export async function loadCel(document?: unknown): Promise<void> {
  if (cel || (document !== undefined && !holdsCel(document) && !holdsRegexAction(document))) return;
  cel = await import("./cel/index.js");
  useRe2(cel.re2Problem);
}

const OTHER = "ERR_NGROK_2201";
const RULE_FIELDS = ["name", "expressions", "actions"];
const ACTION_FIELDS = ["type", "config"];

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const quote = (s: string) => JSON.stringify(s);
/** `a.b`, `a[2]`, and a key that is not a plain name quoted: `headers["x y"]`. */
function join(path: string, key: string | number | symbol): string {
  if (typeof key === "number") return `${path}[${key}]`;
  const name = String(key);
  if (/^[A-Za-z_][\w-]*$/.test(name)) return path === "" ? name : `${path}.${name}`;
  return `${path}[${quote(name)}]`;
}

/** The phases an endpoint of that kind takes. */
function phasesFor(target: Target): readonly ActionPhase[] {
  if (target.protocol === "tls" || target.protocol === "tcp") return ["on_tcp_connect"];
  // An internal HTTP endpoint is reached by forward-internal, which opens no TCP connection.
  // on_event_stream_message: an HTTP response's Server-Sent Events (src/policy/actions.ts SSE_PHASE).
  return target.internal ? ["on_http_request", "on_http_response", SSE_PHASE] : ENDPOINT_PHASES;
}

/** The phase a public endpoint of that protocol must end in a terminating action. */
function handlingPhase(protocol: Protocol): Phase {
  return protocol === "tls" || protocol === "tcp" ? "on_tcp_connect" : "on_http_request";
}

/** Every problem of a parsed policy document for that endpoint (none: valid), in document order. */
export function checkPolicy(document: unknown, target: Target): Problem[] {
  return validatePolicy(document, target).problems;
}

/** Every problem and warning of a parsed policy document for that endpoint, in document order. */
export function validatePolicy(document: unknown, target: Target, options: CheckOptions = {}): Verdict {
  const verdict: Verdict = { problems: [], warnings: [] };
  const steps = checkSteps(document, target, collector(verdict, options));
  while (!steps.next().done);
  return verdict;
}

function collector(verdict: Verdict, options: CheckOptions): Sink {
  return {
    strict: options.strict === true,
    add: (path, message, code = OTHER) => void verdict.problems.push({ path, message, code }),
    warn: (path, message, code = OTHER) =>
      void (options.strict ? verdict.problems.push({ path, message, code }) : verdict.warnings.push({ path, message })),
  };
}

/**
 * checkPolicy, awaiting `checkpoint` after each rule: a command checking a policy of thousands
 * of rules lets the event loop turn, so Ctrl-C and SIGTERM are heard at once (src/io/checkpoint.ts).
 */
export async function checkPolicyInterruptibly(
  document: unknown,
  target: Target,
  checkpoint: () => Promise<void> | undefined,
): Promise<Problem[]> {
  return (await validatePolicyInterruptibly(document, target, checkpoint)).problems;
}

/** validatePolicy, awaiting `checkpoint` after each rule (as checkPolicyInterruptibly). */
export async function validatePolicyInterruptibly(
  document: unknown,
  target: Target,
  checkpoint: () => Promise<void> | undefined,
  options: CheckOptions = {},
): Promise<Verdict> {
  const verdict: Verdict = { problems: [], warnings: [] };
  const steps = checkSteps(document, target, collector(verdict, options));
  while (!steps.next().done) await checkpoint();
  return verdict;
}

/** The checks, as steps: one after each rule (the one loop that grows with the policy). */
function* checkSteps(document: unknown, target: Target, sink: Sink): Generator<void, void> {
  const { add } = sink;
  if (!isObject(document)) {
    add(
      "",
      "a Traffic Policy must be an object whose keys are phases (on_http_request, on_http_response, on_tcp_connect)",
    );
    return;
  }
  const allowed = phasesFor(target);
  const kind = kindOf(target);
  const endpoint = `${kind === "agent" ? "an agent" : kind === "internal" ? "an internal" : "a public"} ${target.protocol} endpoint`;
  const walk: Walk = { ...sink, target, phase: "on_http_request", ran: new Set(), vars: new Set(), auth: undefined };
  // The phases in the order they run (on_tcp_connect, on_http_request, on_http_response), so that
  // actions.ngrok.<action>.* and vars.* are known where an earlier phase set them; problems are
  // sorted back into document order below.
  const order = Object.keys(document).sort(
    (a, b) => (ENDPOINT_PHASES as readonly string[]).indexOf(a) - (ENDPOINT_PHASES as readonly string[]).indexOf(b),
  );
  const byPhase = new Map<string, Verdict>();
  for (const phase of order) {
    const rules = document[phase];
    const own: Verdict = { problems: [], warnings: [] };
    byPhase.set(phase, own);
    const at: Walk = {
      ...walk,
      add: (p, m, c = OTHER) => void own.problems.push({ path: p, message: m, code: c }),
      warn: (p, m, c) =>
        walk.strict
          ? void own.problems.push({ path: p, message: m, code: c ?? OTHER })
          : void own.warnings.push({ path: p, message: m }),
    };
    if (!(ENDPOINT_PHASES as readonly string[]).includes(phase)) {
      at.add(join("", phase), `unknown phase; the phases are ${ENDPOINT_PHASES.join(", ")}`);
      continue;
    }
    if (!allowed.includes(phase as ActionPhase)) {
      at.add(phase, `${endpoint} takes no ${phase} phase (it takes ${allowed.join(", ")})`, "ERR_NGROK_2230");
      continue;
    }
    if (rules === null || rules === undefined) continue;
    if (!Array.isArray(rules)) {
      at.add(phase, "must be a list of rules");
      continue;
    }
    at.phase = phase as ActionPhase;
    for (let i = 0; i < rules.length; i++) {
      checkRule(rules[i], `${phase}[${i}]`, at);
      yield;
    }
    walk.auth = at.auth;
    walk.vars = at.vars;
  }
  for (const phase of Object.keys(document)) {
    const own = byPhase.get(phase)!;
    for (const p of own.problems) add(p.path, p.message, p.code);
    for (const w of own.warnings) sink.warn(w.path, w.message);
  }
  if (kind !== "agent") checkHandled(document, target, sink);
}

type Add = (path: string, message: string, code?: ProblemCode) => void;
interface Sink {
  add: Add;
  /** A warning, or a problem (of that code) with --strict. */
  warn: Add;
  strict?: boolean;
}
/** What a walk knows at a point of the policy: for the CEL scope and the policy-wide rules. */
interface Walk extends Sink {
  target: Target;
  phase: ActionPhase;
  /** The action types of the rules before this point. */
  ran: Set<string>;
  /** The vars set-vars set before this point (undefined: one set-vars the walk cannot read). */
  vars: Set<string> | undefined;
  /** The first authentication action: its place. */
  auth: string | undefined;
}

// The actions that authenticate a visitor (ActionSpec.authentication):
// traffic-policy/examples/add-authentication.mdx:19-22 (Basic Auth, OAuth, OpenID Connect, JWT
// validation; its IP restrictions and mTLS are not actions of that kind:
// gateway/examples/ip-restrictions-basic-auth.mdx puts restrict-ips beside basic-auth).
// ERR_NGROK_2239, errors/err_ngrok_2239.mdx:9: "Only one auth action allowed per endpoint". Two
// in one rule run for the same request: a problem. In two rules, a warning (a problem with
// --strict): ngrok's own published policies put two in different rules, each for other requests
// (gateway/examples/paas-alternative-gateway.mdx: oauth for /admin, basic-auth for /api;
// agent-assisted-gateway.mdx the same; route-api-app-traffic-user-agent.mdx: jwt-validation
// and oauth by user agent). None puts two in one rule.
const AUTH_NAMES = Object.keys(ACTIONS)
  .filter((t) => ACTIONS[t]!.authentication)
  .sort()
  .join(", ");

/** The CEL scope at this point of the walk (src/policy/cel, CelScope). */
function scopeOf(walk: Walk): Cel.CelScope {
  const { protocol } = walk.target;
  return {
    phase: walk.phase,
    protocol,
    // TLS ends at ngrok on an https endpoint, and on a tls one after terminate-tls.
    tlsAtNgrok: protocol === "https" || (protocol === "tls" && walk.ran.has("terminate-tls")),
    actionsBefore: walk.ran,
    ...(walk.vars ? { vars: walk.vars } : {}),
  };
}

/** CEL findings as problems (ERR_NGROK_2200: the emulator's code for a CEL error) and warnings. */
function report(walk: Walk, at: string, findings: Cel.CelFinding[]): void {
  for (const f of findings) {
    const message = f.column === undefined ? f.message : `column ${f.column}: ${f.message}`;
    if (f.severity === "problem") walk.add(at, message, "ERR_NGROK_2200");
    else walk.warn(at, message, "ERR_NGROK_2200");
  }
}

function checkRule(rule: unknown, at: string, walk: Walk): void {
  const { add } = walk;
  if (!isObject(rule)) return add(at, "a rule must be an object with actions (and optionally name and expressions)");
  for (const key of Object.keys(rule))
    if (!RULE_FIELDS.includes(key))
      add(join(at, key), `unknown field of a rule (its fields are ${RULE_FIELDS.join(", ")})`);
  if (rule.name !== undefined && rule.name !== null && typeof rule.name !== "string")
    add(`${at}.name`, "must be a string");
  const expressions = rule.expressions;
  if (expressions !== undefined && expressions !== null) {
    if (!Array.isArray(expressions)) add(`${at}.expressions`, "must be a list of CEL expressions (strings)");
    else
      expressions.forEach((e, k) => {
        if (typeof e !== "string") add(`${at}.expressions[${k}]`, "must be a string (a CEL expression)");
        else if (e.trim() === "") add(`${at}.expressions[${k}]`, "must not be empty");
        else if (cel) report(walk, `${at}.expressions[${k}]`, cel.checkExpression(e, scopeOf(walk)));
      });
  }
  const actions = rule.actions;
  if (!Array.isArray(actions) || actions.length === 0)
    return add(`${at}.actions`, "must be a non-empty list of actions");
  let endedBy: string | undefined;
  let ruleAuth: string | undefined;
  actions.forEach((action, j) => {
    const where = `${at}.actions[${j}]`;
    const type = isObject(action) && typeof action.type === "string" ? action.type : undefined;
    // traffic-policy/how-it-works.mdx: the first terminating action ends the phase; what follows never runs.
    if (endedBy !== undefined)
      add(where, `unreachable: the ${endedBy} action before it ends the phase`, "ERR_NGROK_2207");
    // set-vars sets its items in order, each seeing those before it (set-vars.mdx:343's example).
    if (type === "set-vars") noteVars(walk, isObject(action) ? action.config : undefined);
    const ends = checkAction(action, where, walk);
    if (ends && endedBy === undefined) endedBy = `${type} (actions[${j}])`;
    if (type !== undefined) {
      if (Object.hasOwn(ACTIONS, type) && ACTIONS[type]!.authentication) {
        const first = ruleAuth ?? walk.auth;
        const message = `only one authentication action per endpoint (${AUTH_NAMES}); the first is ${first}`;
        if (ruleAuth !== undefined) add(`${where}.type`, message, "ERR_NGROK_2239");
        else if (walk.auth !== undefined)
          walk.warn(`${where}.type`, `${message}, in another rule (ngrok's own examples do this)`, "ERR_NGROK_2239");
        ruleAuth ??= `${type} at ${where}`;
        walk.auth ??= ruleAuth;
      }
      walk.ran.add(type);
    }
  });
}

/** The names a set-vars config sets (`vars: [{name: value}]`, traffic-policy/actions/set-vars.mdx). */
function noteVars(walk: Walk, config: unknown): void {
  const list = isObject(config) ? config.vars : undefined;
  if (!Array.isArray(list) || !walk.vars) return void (walk.vars = undefined);
  for (const item of list) {
    if (!isObject(item)) return void (walk.vars = undefined);
    for (const name of Object.keys(item)) walk.vars.add(name);
  }
}

const placeOf = (at: string, path: ConfigPath): string => path.reduce<string>((p, k) => join(p, k), at);

/**
 * The CEL of an action's config, as src/policy/actions.ts names it: every `${…}` of a field the
 * reference marks as CEL-capable (templatesOf), and every field that is a whole expression
 * (expressionsOf: rate-limit bucket_key, a value of any type, rate-limit.mdx:62; http-request
 * retry_condition, a bool, http-request.mdx:80-81). Strings of other fields are literal text.
 */
function checkConfigCel(config: Record<string, unknown>, at: string, type: string, walk: Walk): void {
  if (!cel) return;
  const scope = scopeOf(walk);
  for (const { path, text } of templatesOf(type, config))
    if (cel.hasInterpolation(text)) report(walk, placeOf(at, path), cel.checkTemplate(text, scope));
  // retry_condition is a condition with its own names (http-request.mdx:80-87); a bucket key any value.
  const retry = type === "http-request";
  for (const { path, text } of expressionsOf(type, config))
    report(walk, placeOf(at, path), cel.checkExpression(text, retry ? { ...scope, retry } : scope, { bool: retry }));
}

/** Checks one action; whether it ends the phase. */
function checkAction(action: unknown, at: string, walk: Walk): boolean {
  const { add, phase, target } = walk;
  if (!isObject(action)) {
    add(at, 'an action must be an object with a type (and optionally a config): {"type": "deny"}');
    return false;
  }
  for (const key of Object.keys(action))
    if (!ACTION_FIELDS.includes(key)) add(join(at, key), "unknown field of an action (its fields are type, config)");
  const type = action.type;
  if (typeof type !== "string" || type === "") {
    add(`${at}.type`, "is required: the action's type (deny, forward-internal, …)");
    return false;
  }
  const spec = Object.hasOwn(ACTIONS, type) ? ACTIONS[type] : undefined;
  if (!spec) {
    add(`${at}.type`, `unknown action type ${quote(type)}${suggestion(type)}`);
    return false;
  }
  const config = action.config ?? {};
  if (!spec.phases.includes(phase)) {
    add(`${at}.type`, `${type} is not allowed in ${phase} (only in ${spec.phases.join(", ")})`, "ERR_NGROK_2202");
    return false;
  }
  if (spec.protocols && !spec.protocols.includes(target.protocol)) {
    add(
      `${at}.type`,
      `${type} is not allowed on a ${target.protocol} endpoint (only on ${spec.protocols.join(", ")})`,
      "ERR_NGROK_2202",
    );
    return false;
  }
  if (!isObject(config)) {
    add(`${at}.config`, "must be an object");
    return false;
  }
  checkConfigCel(config, `${at}.config`, type, walk);
  // Fields ngrok once documented and still takes (custom-response `content`, forward-internal
  // `binding`), and forms only ngrok's examples write: accepted with a warning, the action's
  // `deprecated` and `unlisted` data (src/policy/actions.ts warningsOf; the contract, "Deprecated fields").
  for (const { path, message } of warningsOf(type, config)) walk.warn(placeOf(`${at}.config`, path), message);
  const schema = configSchema(type, { protocol: target.protocol, phase });
  if (schema) {
    const result = schema.safeParse(config);
    if (!result.success) {
      for (const issue of result.error.issues)
        for (const [path, message] of words(issue, config, `${at}.config`, type)) add(path, message);
      return false;
    }
  }
  return spec.terminating?.(config) ?? false;
}

/** The actions that can end `phase`, as words: "forward-internal, deny or close-connection". */
function endingActions(phase: Phase): string {
  const types = Object.keys(ACTIONS).filter((t) => ACTIONS[t]!.terminating && ACTIONS[t]!.phases.includes(phase));
  return `${types.slice(0, -1).join(", ")} or ${types[types.length - 1]}`;
}

/**
 * A cloud endpoint (public or internal) must handle every request: its handling phase ends in
 * a terminating action (none at all: a problem). A last rule with expressions may let some
 * requests reach none: a warning, a problem with --strict (ERR_NGROK_2235 asks that "traffic
 * always results in an action", errors/err_ngrok_2235.mdx; 25 of ngrok's own tutorial
 * policies end in a conditional rule; the contract, "Handling all traffic").
 */
function checkHandled(document: Record<string, unknown>, target: Target, sink: Sink): void {
  const { add } = sink;
  // An HTTP endpoint whose policy has no on_http_request rules but on_tcp_connect ones is
  // handled there: a terminating action in on_tcp_connect ends the connection's processing
  // (traffic-policy/actions/forward-internal.mdx:21 phases, :51 "No further actions … will be
  // executed"; k8s/guides/how-to/pod-identity.mdx's CloudEndpoints forward in on_tcp_connect).
  const http = handlingPhase(target.protocol);
  const tcp = document.on_tcp_connect;
  const requests = document[http];
  const phase: Phase =
    http === "on_http_request" &&
    phasesFor(target).includes("on_tcp_connect") &&
    (!Array.isArray(requests) || requests.length === 0) &&
    Array.isArray(tcp) &&
    tcp.length > 0
      ? "on_tcp_connect"
      : http;
  const rules = document[phase];
  const code = "ERR_NGROK_2235";
  const lead = "not guaranteed to handle traffic:";
  const ends = endingActions(phase);
  const kind = kindOf(target) === "internal" ? "an internal" : "a public";
  if (!Array.isArray(rules) || rules.length === 0)
    return add(
      phase,
      `${lead} ${kind} ${target.protocol} endpoint's ${phase} must end in a terminating action (${ends}) that every request reaches`,
      code,
    );
  const last = rules.length - 1;
  const rule: unknown = rules[last];
  if (!isObject(rule)) return;
  const actions = rule.actions;
  if (!Array.isArray(actions) || actions.length === 0) return;
  const action: unknown = actions[actions.length - 1];
  if (!isObject(action) || typeof action.type !== "string" || !Object.hasOwn(ACTIONS, action.type)) return;
  const spec = ACTIONS[action.type]!;
  // An action refused where it stands has its own problem already.
  if (!spec.phases.includes(phase)) return;
  const config = isObject(action.config) ? action.config : {};
  if (!spec.terminating?.(config)) {
    const what = action.type === "forward-internal" ? "forward-internal with on_error: continue" : action.type;
    return add(
      `${phase}[${last}].actions[${actions.length - 1}]`,
      `${lead} ${what} does not end the phase; ${kind} endpoint's ${phase} must end in ${ends}`,
      code,
    );
  }
  if (Array.isArray(rule.expressions) && rule.expressions.length > 0)
    sink.warn(
      `${phase}[${last}].expressions`,
      `${lead} the last rule of ${kind} endpoint's ${phase} has expressions, so some requests may reach no terminating action`,
      code,
    );
}

function suggestion(type: string): string {
  const aliases: Record<string, string> = {
    oidc: "openid-connect",
    "webhook-validation": "verify-webhook",
    "ip-restriction": "restrict-ips",
    "add-header": "add-headers",
    "remove-header": "remove-headers",
  };
  const near =
    aliases[type] ?? Object.keys(ACTIONS).find((known) => known.replace(/-/g, "") === type.replace(/[-_]/g, ""));
  return near ? `; did you mean ${near}?` : `; the types are ${Object.keys(ACTIONS).join(", ")}`;
}

/**
 * A zod issue in edgectl's words: the places (below `base`) and messages it stands for. At,
 * in or above a secret place of the action `type` (src/secrets' table) a message names the
 * value's kind, never the value.
 */
function words(issue: z.core.$ZodIssue, config: unknown, base: string, type: string): [string, string][] {
  const secret = holdsSecret(type, issue.path);
  const path = issue.path.reduce<string>((p, k) => join(p, k as string | number), base);
  const value = issue.path.reduce<unknown>(
    (v, k) => (isObject(v) || Array.isArray(v) ? (v as Record<PropertyKey, unknown>)[k] : undefined),
    config,
  );
  if (value === undefined && (issue.code === "invalid_type" || issue.code === "invalid_value"))
    return [[path, "is required"]];
  switch (issue.code) {
    case "unrecognized_keys":
      return issue.keys.map((key) => [join(path, key), "unknown field"]);
    case "invalid_type":
      return [[path, `must be ${TYPE_NAMES[issue.expected] ?? issue.expected} (got ${describe(value, secret)})`]];
    case "invalid_value": {
      // Worded here, not by zod, whose words depend on the locale another module may have loaded.
      const values = issue.values.map((v) => JSON.stringify(v));
      return [[path, values.length === 1 ? `must be ${values[0]}` : `must be one of ${values.join(", ")}`]];
    }
    default:
      return [[path, secret ? withoutValue(issue.message, value) : issue.message]];
  }
}

/**
 * A message about a secret's value that quotes none of it: a message holding any of the
 * value's text (a refinement that words its input) says only that the value is not valid.
 */
function withoutValue(message: string, value: unknown): string {
  const texts: string[] = [];
  const collect = (v: unknown): void => {
    if (v !== null && typeof v === "object") for (const inner of Object.values(v)) collect(inner);
    else if (v !== null && v !== undefined && String(v) !== "") texts.push(String(v));
  };
  collect(value);
  // As a word of its own: a header value "1" is not quoted by "at most 10 headers (got 11)".
  const quoted = (t: string) =>
    new RegExp(`(?<![\\w])${t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w])`).test(message) ||
    message.includes(JSON.stringify(t));
  return texts.some(quoted) ? `is not valid (a secret: its value is not shown; got ${describe(value, true)})` : message;
}

const TYPE_NAMES: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  array: "a list",
  object: "an object",
  record: "an object",
};

/** A value as a problem message shows it: its kind, and a number or boolean itself unless `secret`. */
function describe(value: unknown, secret = false): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return "a string";
  if (secret) return typeof value === "number" || typeof value === "bigint" ? "a number" : `a ${typeof value}`;
  return `${typeof value} ${String(value)}`;
}

/**
 * An endpoint URL (create/update) for that binding: its problems, and the target its policy is
 * checked for when the URL is valid.
 */
export function checkEndpointUrl(
  url: string,
  binding: "public" | "internal",
): { target?: Target; problems: Problem[] } {
  const fail = (message: string) => ({ problems: [{ path: "url", message, code: OTHER } as Problem] });
  if (binding === "internal") {
    const scheme = /^(https|http|tls|tcp):\/\//.exec(url)?.[1] as Protocol | undefined;
    if (!scheme) return fail("an internal endpoint's URL must start with https://, http://, tls:// or tcp://");
    const why = internalUrlProblem(url, scheme);
    return why ? fail(why) : { target: { protocol: scheme, internal: true }, problems: [] };
  }
  const { protocol, problem } = publicUrlProblem(url);
  return problem || !protocol
    ? fail(problem ?? "not an endpoint URL")
    : { target: { protocol, internal: false }, problems: [] };
}
