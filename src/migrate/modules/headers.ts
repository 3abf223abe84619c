// request_headers and response_headers → remove-headers then add-headers (at most 10 headers
// an action, empty ones left out): in the request phase for the one, the route's response
// rule for the other. A request header value's `${…}` that the edge filled in is carried as the
// Traffic Policy interpolation of the same variable, or not migrated; user-agent is not migrated.
import type { Action } from "../policy.js";
import { isObj, isStrings, refused, translation, literal, type Obj, type Translation } from "./translator.js";

export type HeadersModule = "request_headers" | "response_headers";

/**
 * Variables the edge's request headers module filled in (`${…}` in a value: "You may interpolate
 * variables into header values", ngrok.com/docs/http/request-headers, whose example is
 * `${conn.geo.country_code}`; the older JSONPath form `${.ngrok.geo.country_code}`,
 * ngrok.com/docs/http-header-templates), each with the Traffic Policy variable of the same
 * meaning (traffic-policy/variables/connection.mdx: `conn.client_ip` "Source IP of the
 * connection to the ngrok endpoint", `conn.geo.*` "where the conn.client_ip is likely to
 * originate"; the edge's HTTP variables reference, ngrok.com/docs/http/traffic-policy/expressions/variables,
 * named the same client IP and geo fields). Any other variable is not migrated: no doc says its
 * value is the same.
 */
export const EDGE_HEADER_VARIABLES: Readonly<Record<string, string>> = {
  "conn.client_ip": "conn.client_ip",
  "conn.geo.city": "conn.geo.city",
  "conn.geo.country": "conn.geo.country",
  "conn.geo.country_code": "conn.geo.country_code",
  "conn.geo.latitude": "conn.geo.latitude",
  "conn.geo.longitude": "conn.geo.longitude",
  "conn.geo.radius": "conn.geo.radius",
  "conn.geo.subdivision": "conn.geo.subdivision",
  ".ngrok.geo.country_code": "conn.geo.country_code",
};

/**
 * A request header value as the edge filled it in → the same in Traffic Policy: each `${name}`
 * the edge replaced becomes `${<the same variable>}` (a warning each), an unknown one refuses the
 * module, and an unclosed `${` (no variable: the edge sent it as text) is escaped as text.
 */
function requestHeaderValue(value: string, header: string, out: Translation): string | undefined {
  const where = `request_headers.add[${JSON.stringify(header)}]`;
  let result = "";
  let at = 0;
  for (;;) {
    const open = value.indexOf("${", at);
    const close = open < 0 ? -1 : value.indexOf("}", open + 2);
    if (close < 0) return result + literal(value.slice(at), out, "request_headers", "request_headers.add");
    const written = value.slice(open, close + 1);
    const variable = EDGE_HEADER_VARIABLES[value.slice(open + 2, close).trim()];
    if (variable === undefined) {
      out.refused.push({
        item: "request_headers",
        reason: `${where}: the edge filled in ${written}, which has no Traffic Policy variable edgectl knows to mean the same; set this header by hand`,
      });
      return undefined;
    }
    out.warnings.push({
      item: "request_headers",
      message: `${where}: ${written}, which the edge filled in, becomes the Traffic Policy interpolation \${${variable}}, which ngrok fills in with the same value`,
    });
    result += `${value.slice(at, open)}\${${variable}}`;
    at = close + 1;
  }
}

/** Splits a list or an object's entries into groups of at most 10 (ngrok's per-action limit). */
function byTen<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += 10) out.push(items.slice(i, i + 10));
  return out;
}

export function translateHeaders(module: Obj, cx: { name: HeadersModule }): Translation {
  const { name } = cx;
  const remove = module.remove ?? [];
  const add = module.add ?? {};
  if (!isStrings(remove)) return refused(name, `${name}.remove is not a list of header names`);
  if (!isObj(add) || !Object.values(add).every((v) => typeof v === "string"))
    return refused(name, `${name}.add is not an object of header values`);
  const entries = Object.entries(add as Record<string, string>);
  if (entries.some(([n]) => n.includes("${"))) return refused(name, `${name}.add has a header name holding "\${"`);
  // "You may not add or remove the `user-agent` header." (traffic-policy/actions/add-headers.mdx,
  // traffic-policy/actions/remove-headers.mdx, Behavior): the edge could; a plan cannot.
  for (const [verb, names] of [
    ["adds", entries.map(([n]) => n)],
    ["removes", remove],
  ] as const) {
    const ua = names.find((n) => n.toLowerCase() === "user-agent");
    if (ua !== undefined)
      return refused(
        name,
        `${name} ${verb} the ${ua} header, which ngrok's add-headers and remove-headers may not touch; change it upstream by hand`,
      );
  }
  const out = translation();
  const list: Action[] = byTen(remove).map((headers) => ({ type: "remove-headers", config: { headers } }));
  const values: [string, string][] = [];
  for (const [n, v] of entries) {
    // The response headers module's values are copied as text (contract: "Text copied into a policy").
    const carried = name === "request_headers" ? requestHeaderValue(v, n, out) : literal(v, out, name, `${name}.add`);
    if (carried === undefined) return out;
    values.push([n, carried]);
  }
  for (const group of byTen(values)) list.push({ type: "add-headers", config: { headers: Object.fromEntries(group) } });
  if (name === "response_headers") out.response.push(...list);
  else out.steps.push({ actions: list });
  return out;
}
