// Internal URLs: what a backend is forwarded to once its edge is gone. A URL is checked as the
// text it is and written as that same text: no URL parser between the check and the policy
// (WHATWG's drops tabs and newlines, and percent-encodes spaces, after which anything passes).
import { createHash } from "node:crypto";
import { ID_RULES } from "../api-data/ids.js";
import { UsageError } from "../errors.js";
import { escapeControl } from "../text/escape.js";
import type { EdgeKind } from "../api/edges.js";

/** The schemes an internal URL may have for an edge of each kind (the public endpoint's family). */
export const INTERNAL_SCHEMES: Record<EdgeKind, readonly string[]> = {
  https: ["https", "http"],
  tls: ["tls"],
  tcp: ["tcp"],
};

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** Whether `host` is `<1–5 labels>.internal`, each label 1–63 of a-z 0-9 -, not starting or ending with -. */
export function isInternalHost(host: string): boolean {
  if (!host.endsWith(".internal")) return false;
  const labels = host.slice(0, -".internal".length).split(".");
  return labels.length >= 1 && labels.length <= 5 && labels.every((l) => LABEL.test(l));
}

/**
 * What is wrong with `url` as an internal URL of one of `schemes` (undefined: nothing): the
 * scheme, a host ending in .internal, an optional port (required for tcp), nothing else.
 */
export function internalUrlProblem(url: string, schemes: readonly string[]): string | undefined {
  if (/[\x00-\x20\x7f-\x9f\u2028\u2029]/.test(url)) return "must not hold spaces or control characters";
  const m = /^([a-z]+):\/\/([^/:?#@]*)(?::(\d*))?(.*)$/.exec(url);
  if (!m) return `must be ${schemes.map((s) => `${s}://`).join(" or ")}<host>.internal[:port]`;
  const [, scheme, host, port, rest] = m as unknown as [string, string, string, string | undefined, string];
  if (!schemes.includes(scheme)) return `must start with ${schemes.map((s) => `${s}://`).join(" or ")}`;
  if (url.includes("@")) return "must not carry a user or password";
  if (rest !== "") return "must have no path, query or fragment";
  if (!isInternalHost(host))
    return "must have a host ending in .internal, with at most 5 labels before it, each 1–63 characters of a-z, 0-9 and -, not starting or ending with -";
  if (port !== undefined && !/^[1-9]\d{0,4}$/.test(port)) return "must have a port from 1 to 65535";
  if (port !== undefined && Number(port) > 65535) return "must have a port from 1 to 65535";
  if (scheme === "tcp" && port === undefined) return "must give a port (tcp://<host>.internal:<port>)";
  return undefined;
}

/**
 * The internal host of a tunnel group: its labels as key-value joined by `-` in key order,
 * lower case, every character but a-z, 0-9 and `-` made `-` (service=app → service-app.internal);
 * undefined when that is no valid internal host (no labels, a label over 63, a leading `-`, …).
 * That name loses what tells label sets apart ({app: x_y} and {app: x-y} are both app-x-y), so
 * unless it is one label whose key and value are already [a-z0-9]+ (nothing lost), `-` and the
 * first 8 hex digits of the SHA-256 of the labels' canonical JSON (keys sorted, no spaces,
 * UTF-8) are appended: different label sets never share a host, in one run or across runs.
 */
export function tunnelGroupHost(labels: Record<string, string>): string | undefined {
  const keys = Object.keys(labels).sort();
  if (keys.length === 0) return undefined;
  let name = keys
    .map((k) => `${k}-${labels[k]}`)
    .join("-")
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, "-");
  const exact = keys.length === 1 && /^[a-z0-9]+$/.test(keys[0]!) && /^[a-z0-9]+$/.test(labels[keys[0]!]!);
  if (!exact) {
    const canonical = `{${keys.map((k) => `${JSON.stringify(k)}:${JSON.stringify(labels[k])}`).join(",")}}`;
    name += `-${createHash("sha256").update(canonical, "utf8").digest("hex").slice(0, 8)}`;
  }
  const host = `${name}.internal`;
  return isInternalHost(host) ? host : undefined;
}

/**
 * `--map <backend-id>=<url>` values as a map; any bad one is a UsageError (nothing sent yet).
 * `schemes`: the schemes the edges asked for allow (all four when the kinds are not known yet).
 */
export function parseMaps(
  values: string[],
  schemes: readonly string[] = ["https", "http", "tls", "tcp"],
): Map<string, string> {
  const maps = new Map<string, string>();
  for (const value of values) {
    const eq = value.indexOf("=");
    const id = eq < 0 ? "" : value.slice(0, eq);
    const url = eq < 0 ? "" : value.slice(eq + 1);
    if (!ID_RULES.backend.re.test(id) || !url) {
      throw new UsageError(
        `--map: "${escapeControl(value)}" must be <backend-id>=<url>, e.g. bkdwd_123=https://api.internal`,
      );
    }
    const problem = internalUrlProblem(url, schemes);
    if (problem !== undefined) throw new UsageError(`--map: "${escapeControl(url)}" ${problem}`);
    const earlier = maps.get(id);
    if (earlier !== undefined && earlier !== url)
      throw new UsageError(`--map: ${id} is mapped twice (${escapeControl(earlier)} and ${escapeControl(url)})`);
    maps.set(id, url);
  }
  return maps;
}
