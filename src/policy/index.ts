// The Traffic Policy validator (issue 18): pure data in, problems out, no I/O. One module for
// `policy check`, the endpoint commands, the migration planner and the emulator alike, so all
// four refuse the same documents with the same words (contract, "Traffic Policy and Cloud
// Endpoints"). zod loads, and the config schemas are made, only when a config is checked.
import type * as z from "zod/mini";
import { ACTIONS, PHASES, configSchema, type Phase } from "./actions.js";
import { unbalanced } from "./expressions.js";
import { internalUrlProblem, publicUrlProblem } from "./urls.js";
import { holdsSecret } from "../secrets/index.js";

export { parseDuration } from "./duration.js";

export type Protocol = "https" | "http" | "tls" | "tcp";

/** The endpoint a policy is checked for. */
export interface Target {
  protocol: Protocol;
  /** An internal endpoint (`*.internal`, binding `internal`). */
  internal: boolean;
}

/** The error code the emulator answers a problem with (400). */
export type ProblemCode = "ERR_NGROK_2201" | "ERR_NGROK_2202" | "ERR_NGROK_2207" | "ERR_NGROK_2230" | "ERR_NGROK_2235";

export interface Problem {
  /** Where: `on_http_request[2].actions[0].config.headers`, or "" for the whole document. */
  path: string;
  message: string;
  code: ProblemCode;
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
function phasesFor(target: Target): readonly Phase[] {
  if (target.protocol === "tls" || target.protocol === "tcp") return ["on_tcp_connect"];
  // An internal HTTP endpoint is reached by forward-internal, which opens no TCP connection.
  return target.internal ? ["on_http_request", "on_http_response"] : PHASES;
}

/** The phase a public endpoint of that protocol must end in a terminating action. */
function handlingPhase(protocol: Protocol): Phase {
  return protocol === "tls" || protocol === "tcp" ? "on_tcp_connect" : "on_http_request";
}

/** Every problem of a parsed policy document for that endpoint (none: valid), in document order. */
export function checkPolicy(document: unknown, target: Target): Problem[] {
  const problems: Problem[] = [];
  const steps = checkSteps(document, target, (path, message, code = OTHER) => problems.push({ path, message, code }));
  while (!steps.next().done);
  return problems;
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
  const problems: Problem[] = [];
  const steps = checkSteps(document, target, (path, message, code = OTHER) => problems.push({ path, message, code }));
  while (!steps.next().done) await checkpoint();
  return problems;
}

/** The checks, as steps: one after each rule (the one loop that grows with the policy). */
function* checkSteps(document: unknown, target: Target, add: Add): Generator<void, void> {
  if (!isObject(document)) {
    add(
      "",
      "a Traffic Policy must be an object whose keys are phases (on_http_request, on_http_response, on_tcp_connect)",
    );
    return;
  }
  const allowed = phasesFor(target);
  const kind = `${target.internal ? "an internal" : "a public"} ${target.protocol} endpoint`;
  for (const [phase, rules] of Object.entries(document)) {
    if (!(PHASES as readonly string[]).includes(phase)) {
      add(join("", phase), `unknown phase; the phases are ${PHASES.join(", ")}`);
      continue;
    }
    if (!allowed.includes(phase as Phase)) {
      add(phase, `${kind} takes no ${phase} phase (it takes ${allowed.join(", ")})`, "ERR_NGROK_2230");
      continue;
    }
    if (rules === null || rules === undefined) continue;
    if (!Array.isArray(rules)) {
      add(phase, "must be a list of rules");
      continue;
    }
    for (let i = 0; i < rules.length; i++) {
      checkRule(rules[i], `${phase}[${i}]`, phase as Phase, target, add);
      yield;
    }
  }
  if (!target.internal) checkHandled(document, target, add);
}

type Add = (path: string, message: string, code?: ProblemCode) => void;

function checkRule(rule: unknown, at: string, phase: Phase, target: Target, add: Add): void {
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
        else {
          const why = unbalanced(e);
          if (why) add(`${at}.expressions[${k}]`, why);
        }
      });
  }
  const actions = rule.actions;
  if (!Array.isArray(actions) || actions.length === 0)
    return add(`${at}.actions`, "must be a non-empty list of actions");
  let endedBy: string | undefined;
  actions.forEach((action, j) => {
    const where = `${at}.actions[${j}]`;
    const type = isObject(action) && typeof action.type === "string" ? action.type : undefined;
    if (endedBy !== undefined)
      add(where, `unreachable: the ${endedBy} action before it ends the phase`, "ERR_NGROK_2207");
    const ends = checkAction(action, where, phase, target, add);
    if (ends && endedBy === undefined) endedBy = `${type} (actions[${j}])`;
  });
}

/** Checks one action; whether it ends the phase. */
function checkAction(action: unknown, at: string, phase: Phase, target: Target, add: Add): boolean {
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

/** A public endpoint must handle every request: its handling phase's last rule matches all and ends it. */
function checkHandled(document: Record<string, unknown>, target: Target, add: Add): void {
  const phase = handlingPhase(target.protocol);
  const rules = document[phase];
  const code = "ERR_NGROK_2235";
  const lead = "not guaranteed to handle traffic:";
  const ends = endingActions(phase);
  if (!Array.isArray(rules) || rules.length === 0)
    return add(
      phase,
      `${lead} a public ${target.protocol} endpoint's ${phase} must end in a terminating action (${ends}) that every request reaches`,
      code,
    );
  const last = rules.length - 1;
  const rule: unknown = rules[last];
  if (!isObject(rule)) return;
  if (Array.isArray(rule.expressions) && rule.expressions.length > 0)
    return add(
      `${phase}[${last}].expressions`,
      `${lead} the last rule of a public endpoint's ${phase} must have no expressions, so that every request reaches its terminating action`,
      code,
    );
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
    add(
      `${phase}[${last}].actions[${actions.length - 1}]`,
      `${lead} ${what} does not end the phase; a public endpoint's ${phase} must end in ${ends}`,
      code,
    );
  }
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
