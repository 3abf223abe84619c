// ngrok's CEL variables (src/policy/cel/variables.ts, copied from ngrok's reference tables) as
// the checker resolves them, and where each is set. ngrok declares dotted names, a name being a
// value and a prefix at once (`req.url` is a string, `req.url.path` another): CEL's name
// resolution takes the longest declared name (cel-spec langdef.md, "Name Resolution").
import { VARIABLE_TABLES } from "./variables.js";
import { BOOL, DYN, INT, list, map, scalar, STRING, type Ty } from "./types.js";

export interface CelScope {
  /** on_event_stream_message: an HTTP response's Server-Sent Events (src/policy/actions.ts SSE_PHASE). */
  phase: "on_tcp_connect" | "on_http_request" | "on_http_response" | "on_event_stream_message";
  protocol: "https" | "http" | "tls" | "tcp";
  /** TLS ends at ngrok (https, or tls with terminate-tls): conn.tls.* exist */
  tlsAtNgrok: boolean;
  /** action types that ran before this point (earlier rules/phases): actions.ngrok.<type>.* exist */
  actionsBefore: ReadonlySet<string>;
  /** vars names set by set-vars before this point (undefined: unknown, allow any vars.*) */
  vars?: ReadonlySet<string>;
  /** An http-request retry_condition: `attempts` and `last_attempt.*` are set (http-request.mdx:80-87). */
  retry?: boolean;
}

export interface Variable {
  name: string;
  type: Ty;
  /** ngrok-docs path:line of the row declaring it. */
  source: string;
}

/** A type as ngrok's tables write it (`[]string`, `map[string][]string`, `int32`, `boolean`, …). */
function docType(text: string, element?: Ty): Ty {
  const t = text.trim();
  switch (t) {
    case "string":
      return STRING;
    case "int":
    case "int32":
    case "int64":
    case "integer":
      return INT;
    case "bool":
    case "boolean":
      return BOOL;
    case "timestamp":
      return scalar("timestamp");
    case "duration":
      return scalar("duration");
    case "[]byte":
      return scalar("bytes");
    case "[]string":
    case "list[string]":
    case "array of strings":
    case "list": // conn.client_ip.categories: "list", of category names (conn.ip-intel.mdx:16)
      return list(STRING);
    case "map[string]string":
    case "map(string, string)":
      return map(STRING, STRING);
    case "map[string][]string":
      return map(STRING, list(STRING));
    case "map[string][]cookie":
      return map(STRING, list(element ?? DYN));
    case "[]Extension":
    case "array of objects":
      return list(element ?? DYN);
    default:
      // "object": fields the table may list one by one; as a whole, any value.
      return DYN;
  }
}

/** `a.b[k][i].c` → the base name and the element's field: ["a.b", "c"]. */
const ELEMENT_FIELD = /^([^[\]]+)(?:\[[ki]\])+\.(\w+)$/;

function build(): Map<string, Variable> {
  const fields = new Map<string, Record<string, Ty>>();
  for (const rows of Object.values(VARIABLE_TABLES))
    for (const [name, type] of rows) {
      const m = ELEMENT_FIELD.exec(name);
      if (!m) continue;
      const record = fields.get(m[1]!) ?? {};
      record[m[2]!] = docType(type);
      fields.set(m[1]!, record);
    }
  const variables = new Map<string, Variable>();
  for (const [file, rows] of Object.entries(VARIABLE_TABLES))
    for (const [name, type, line] of rows) {
      if (ELEMENT_FIELD.test(name) || variables.has(name)) continue;
      const own = fields.get(name);
      const element = own
        ? ({ k: "record", name: /cookie/.test(type) ? "cookie" : "Extension", fields: own } as Ty)
        : undefined;
      variables.set(name, { name, type: docType(type, element), source: `${file}:${line}` });
    }
  return variables;
}

export const VARIABLES: ReadonlyMap<string, Variable> = build();

/** Every first segment and dotted prefix of a declared name, with the segments that follow it. */
function prefixes(): Map<string, Set<string>> {
  const next = new Map<string, Set<string>>([["", new Set()]]);
  for (const name of VARIABLES.keys()) {
    const parts = name.split(".");
    for (let i = 0; i < parts.length; i++) {
      const at = parts.slice(0, i).join(".");
      let set = next.get(at);
      if (!set) next.set(at, (set = new Set()));
      set.add(parts[i]!);
    }
  }
  next.get("")!.add("vars");
  return next;
}
export const NEXT_SEGMENTS: ReadonlyMap<string, ReadonlySet<string>> = prefixes();

/** The namespace of an action's variables: `actions.ngrok.<this>.*` (its variables.mdx). */
export function actionNamespace(type: string): string {
  // snippets/traffic-policy/actions/oidc/variables.mdx (openid-connect) and
  // compress-response/variables.mdx name theirs actions.ngrok.oidc.* and actions.ngrok.compress.*.
  if (type === "openid-connect") return "oidc";
  if (type === "compress-response") return "compress";
  return type.replace(/-/g, "_");
}

/**
 * Why a declared variable is not set at this point of the policy (undefined: it is). The
 * contract ("CEL, parsed and type-checked"): `req.*` not in on_tcp_connect, `res.*` only in
 * on_http_response, `conn.tls.*` only where TLS ends at ngrok, `actions.ngrok.<action>.*`
 * after that action.
 */
export function unavailable(name: string, scope: CelScope): string | undefined {
  const root = name.split(".")[0];
  if ((root === "attempts" || root === "last_attempt") && !scope.retry)
    return `${name} is set only in an http-request retry_condition (traffic-policy/actions/http-request.mdx:80-87)`;
  if (root === "req" && scope.phase === "on_tcp_connect")
    return `${name} is not set in on_tcp_connect: req.* is the HTTP request (on_http_request, on_http_response)`;
  // The events of on_event_stream_message stream in the upstream's response (sse-find-replace.mdx:10-14).
  if (root === "res" && scope.phase !== "on_http_response" && scope.phase !== "on_event_stream_message")
    return `${name} is not set in ${scope.phase}: res.* is the upstream's response (on_http_response, on_event_stream_message)`;
  if (name.startsWith("conn.tls.") && !scope.tlsAtNgrok)
    return `${name} is not set here: conn.tls.* is set only where TLS ends at ngrok (an https endpoint, or tls with terminate-tls)`;
  if (name.startsWith("actions.ngrok.")) {
    const ns = name.split(".")[2]!;
    const ran = [...scope.actionsBefore].some((t) => actionNamespace(t) === ns);
    if (!ran) return `${name} is not set here: actions.ngrok.${ns}.* is set only after that action has run`;
  }
  return undefined;
}
