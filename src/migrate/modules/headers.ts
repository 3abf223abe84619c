// request_headers and response_headers → remove-headers then add-headers (at most 10 headers
// an action, empty ones left out): in the request phase for the one, the route's response
// rule for the other.
import type { Action } from "../policy.js";
import { isObj, isStrings, refused, translation, literal, type Obj, type Translation } from "./translator.js";

export type HeadersModule = "request_headers" | "response_headers";

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
  for (const group of byTen(entries))
    list.push({
      type: "add-headers",
      config: { headers: Object.fromEntries(group.map(([n, v]) => [n, literal(v, out, name, `${name}.add`)])) },
    });
  if (name === "response_headers") out.response.push(...list);
  else out.steps.push({ actions: list });
  return out;
}
