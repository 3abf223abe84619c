// backend (an HTTPS route's, or a TLS or TCP edge's) → where the traffic goes: forward-internal
// to a tunnel group's internal host or a URL given with --map, custom-response for an HTTP
// response backend, failovers flattened in order (each forward but the last falling through
// on error). A backend that has no equivalent, or that cannot be read, is refused.
import { backendKindOf, type Backend } from "../../api/backends.js";
import type { AnyEdge, EdgeKind } from "../../api/edges.js";
import { INTERNAL_SCHEMES, internalUrlProblem, tunnelGroupHost } from "../internal-url.js";
import type { BackendsRead, PlanInput } from "../plan.js";
import type { Action } from "../policy.js";
import { isObj, isOn, literal, refused, translation, type Obj, type Translation } from "./translator.js";

/** Nested failovers deeper than this are not followed (ngrok's own API nests far less). */
export const MAX_FAILOVER_DEPTH = 64;

/** The backend id an edge or route forwards to, when its backend module is enabled. */
export function backendIdOf(module: unknown): string | undefined {
  if (!isOn(module)) return undefined;
  const ref = (module as Obj).backend;
  return isObj(ref) && typeof ref.id === "string" ? ref.id : undefined;
}

/** Every backend id an edge names directly (its routes', or its own). */
export function rootBackendIds(any: AnyEdge): string[] {
  if (any.kind === "https") return (any.edge.routes ?? []).flatMap((r) => backendIdOf(r.backend) ?? []);
  return [backendIdOf(any.edge.backend)].filter((id): id is string => id !== undefined);
}

/**
 * Walks every backend reachable from the edges: each id once, whatever the failovers repeat
 * (linear in the backends, never in the paths). `visit` sees each id once.
 */
function walkBackends(
  edges: readonly AnyEdge[],
  backends: BackendsRead,
  maps: ReadonlyMap<string, string>,
  visit: (id: string, known: Backend | null | undefined) => void,
): void {
  const seen = new Set<string>();
  const stack = edges.flatMap(rootBackendIds).reverse();
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (seen.has(id) || maps.has(id)) continue;
    seen.add(id);
    const known = backends.get(id);
    visit(id, known);
    if (known?.kind === "failover") for (const child of [...known.backend.backends].reverse()) stack.push(child);
  }
}

/**
 * The backend ids still to be read before planning: those the edges use and the children of
 * failovers already read, minus those already read and those --map forwards (never read).
 */
export function backendsToRead(
  edges: readonly AnyEdge[],
  backends: BackendsRead,
  maps: ReadonlyMap<string, string>,
): string[] {
  const wanted: string[] = [];
  walkBackends(edges, backends, maps, (id, known) => {
    if (known === undefined && backendKindOf(id)) wanted.push(id);
  });
  return wanted;
}

/** Tunnel groups whose labels give the same host as another label set's within the plan. */
export function hostCollisions(edges: readonly AnyEdge[], input: PlanInput): Map<string, string[]> {
  const byHost = new Map<string, Map<string, string[]>>();
  walkBackends(edges, input.backends, input.maps, (id, known) => {
    if (known?.kind !== "tunnel_group") return;
    const labels = known.backend.labels ?? {};
    const host = tunnelGroupHost(labels);
    if (host === undefined) return;
    const key = JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const sets = byHost.get(host) ?? new Map<string, string[]>();
    sets.set(key, [...(sets.get(key) ?? []), id]);
    byHost.set(host, sets);
  });
  const colliding = new Map<string, string[]>();
  for (const sets of byHost.values()) {
    if (sets.size < 2) continue;
    const ids = [...sets.values()].flat();
    for (const id of ids) colliding.set(id, ids);
  }
  return colliding;
}

export interface BackendContext {
  kind: EdgeKind;
  /** The public endpoint's port (a TCP tunnel group is forwarded to the same port). */
  port: string;
  input: PlanInput;
  /** Tunnel groups whose hosts collide (hostCollisions). */
  collisions: ReadonlyMap<string, string[]>;
  /** The route's id; null for a TLS or TCP edge's own backend. */
  routeId: string | null;
}

const mapHint = (id: string, kind: EdgeKind) =>
  `give its internal URL with --map ${id}=${kind === "tcp" ? "tcp://….internal:<port>" : kind === "tls" ? "tls://….internal" : "https://….internal"}`;

/** A backend module: the actions its backend becomes, failovers flattened in order, each child once. */
export function translateBackend(module: Obj, cx: BackendContext): Translation {
  const rootId = backendIdOf(module);
  if (rootId === undefined) return refused("backend", `the ${cx.routeId ? "route" : "edge"} has no enabled backend`);
  const out = translation();
  const list: Action[] = [];
  const seen = new Set<string>();
  const { input, kind, routeId } = cx;
  const warn = (message: string) => out.warnings.push({ item: "backend", message });
  const walk = (id: string, path: string[]): string | undefined => {
    if (path.includes(id)) return `failover cycle: ${[...path.slice(path.indexOf(id)), id].join(" → ")}`;
    if (list.at(-1)?.type === "custom-response") {
      warn(`backend ${id} comes after an HTTP response, can never be reached and was left out`);
      return undefined;
    }
    if (seen.has(id)) {
      warn(`backend ${id} appears again in the failover and was left out the second time`);
      return undefined;
    }
    seen.add(id);
    const mapped = input.maps.get(id);
    if (mapped !== undefined) {
      const problem = internalUrlProblem(mapped, INTERNAL_SCHEMES[kind]);
      if (problem !== undefined) return `--map ${id}=${mapped}: for a ${kind.toUpperCase()} edge the URL ${problem}`;
      list.push({ type: "forward-internal", config: { url: literal(mapped, out, "backend", "a URL") } });
      return undefined;
    }
    const found = input.backends.get(id);
    if (found === null)
      return `backend ${id} does not exist (the API answered 404); point the ${routeId ? "route" : "edge"} at a backend that exists, or ${mapHint(id, kind)}`;
    if (found === undefined)
      return backendKindOf(id)
        ? `backend ${id} was not read`
        : `backend ${id} is of a kind edgectl does not know; ${mapHint(id, kind)}`;
    switch (found.kind) {
      case "tunnel_group": {
        const host = tunnelGroupHost(found.backend.labels ?? {});
        if (host === undefined)
          return `tunnel group ${id}'s labels give no valid internal host (at most 63 characters of a-z, 0-9 and -, not starting or ending with -); ${mapHint(id, kind)}`;
        const others = cx.collisions.get(id);
        if (others)
          return `tunnel groups ${others.join(", ")} have different labels that give the same internal host ${host}; give each a URL with --map`;
        const url =
          kind === "https" ? `https://${host}` : kind === "tls" ? `tls://${host}:443` : `tcp://${host}:${cx.port}`;
        list.push({ type: "forward-internal", config: { url } });
        return undefined;
      }
      case "http_response": {
        if (kind !== "https") return `HTTP response backend ${id} has no ${kind.toUpperCase()} equivalent`;
        const { status_code, body, headers } = found.backend;
        const config: Obj = { status_code };
        if (body) config.body = literal(body, out, "backend", `the body of ${id}`);
        const names = Object.keys(headers ?? {});
        if (names.length > 10)
          return `HTTP response backend ${id} has ${names.length} headers; custom-response takes at most 10`;
        if (names.length > 0) {
          if (names.some((n) => n.includes("${"))) return `HTTP response backend ${id} has a header name holding "\${"`;
          config.headers = Object.fromEntries(
            names.map((n) => [n, literal(headers![n]!, out, "backend", `the headers of ${id}`)]),
          );
        }
        list.push({ type: "custom-response", config });
        return undefined;
      }
      case "weighted":
      case "static":
        return `${found.kind} backend ${id} has no Traffic Policy equivalent; ${mapHint(id, kind)}`;
      case "failover": {
        if (found.backend.backends.length === 0) return `failover ${id} has no backends`;
        if (path.length >= MAX_FAILOVER_DEPTH) return `failovers nested more than ${MAX_FAILOVER_DEPTH} deep at ${id}`;
        for (const child of found.backend.backends) {
          const problem = walk(child, [...path, id]);
          if (problem !== undefined) return problem;
        }
        return undefined;
      }
    }
  };
  const problem = walk(rootId, []);
  if (problem !== undefined) {
    out.refused.push({ item: "backend", reason: problem });
    return out;
  }
  // Every forward-internal but the chain's last falls through to the next on error.
  out.steps.push({
    actions: list.map((a, i) =>
      a.type === "forward-internal" && i < list.length - 1
        ? { ...a, config: { ...a.config, on_error: "continue" } }
        : a,
    ),
  });
  return out;
}
