// Secrets in data are shown as ******** in every format unless --show-secret is given: webhook
// secrets, OAuth/OIDC client secrets, and those inside a Traffic Policy text. Masking works by
// structure (a field of a known object, a value of the parsed policy) and replaces only the
// secret's own value, where it stands: it never searches the output for a secret's characters,
// so no other value is altered and where a mask lands tells nothing of the secret.
import { every } from "../io/checkpoint.js";
import { MASK, POLICY_KEYS, SECRET_KEYS, pathKey } from "../secrets/index.js";
import { locateJson, jsonView } from "./json-ranges.js";
import { mayBeJson } from "../policy/text-format.js";
import { work } from "../policy/work.js";
import { maskPolicyData, plainView, policyShaped, secretNodes } from "./policy-secrets.js";

export { MASK };

export function maskSecret<T extends { secret?: string | null }>(module: T, show: boolean): T {
  if (show || module.secret === undefined || module.secret === null || module.secret === "") return module;
  return { ...module, secret: MASK };
}

/**
 * Any JSON value from the API (or a request body) with its secrets masked: every non-empty
 * `secret` or `client_secret` field, and the secrets at every secret place of a Traffic
 * Policy: an endpoint's `traffic_policy` text, a `traffic_policy` (or legacy `policy`)
 * module's `value` text, a policy held as data. Keys keep their order. `path`, the API path the
 * value was answered for (or is sent to), names what the value itself is: a route's
 * `…/traffic_policy` answer is a policy module.
 */
export async function maskSecretsIn(value: unknown, path?: string): Promise<unknown> {
  const key = path === undefined ? undefined : pathKey(path);
  const start = key === undefined ? { copy: value } : await maskField(key, value);
  if (!("copy" in start)) return start.masked;
  // An explicit stack of the values still to copy, each with where its copy goes: never a call
  // per level, however deep the value nests (an `api` answer of any depth).
  const root: Record<string, unknown> = {};
  const todo: [Record<string | number, unknown>, string | number, unknown][] = [[root, "value", start.copy]];
  while (todo.length > 0) {
    const [into, at, v] = todo.pop()!;
    let copy: unknown = v;
    if (Array.isArray(v)) {
      const items: unknown[] = new Array<unknown>(v.length);
      v.forEach((item, i) => todo.push([items as unknown as Record<number, unknown>, i, item]));
      copy = items;
    } else if (isRecord(v)) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        const field = await maskField(k, x);
        if ("copy" in field) todo.push([out, k, field.copy]);
        // Defined now, in the object's order (a copy filled in later keeps its place).
        define(out, k, "masked" in field ? field.masked : undefined);
      }
      copy = out;
    }
    define(into, at, copy);
  }
  return root.value;
}

/** defineProperty: a "__proto__" key from JSON.parse stays a plain key. */
function define(into: Record<string | number, unknown>, key: string | number, value: unknown): void {
  Object.defineProperty(into, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A field named `key`: its masked value, or the value whose copy is still to be made (masked field by field). */
async function maskField(key: string, v: unknown): Promise<{ masked: unknown } | { copy: unknown }> {
  if (SECRET_KEYS.has(key) && v !== null && v !== "" && typeof v !== "object") return { masked: MASK };
  // A policy text: an endpoint's, or a traffic_policy module's `value`.
  if (key === "traffic_policy" && typeof v === "string") return { masked: await maskPolicyText(v) };
  if (POLICY_KEYS.has(key) && isRecord(v) && typeof v.value === "string")
    return { copy: { ...v, value: await maskPolicyText(v.value) } };
  // A policy as data (a route's legacy `policy` module, a planned endpoint's policy): by its
  // structure, then its other fields as any other data.
  if (POLICY_KEYS.has(key) && isRecord(v)) return { copy: maskPolicyData(v) };
  return { copy: v };
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** maskSecretsIn unless `show` (--show-secret). */
export async function shownData<T>(value: T, show: boolean): Promise<T> {
  return show ? value : ((await maskSecretsIn(value)) as T);
}

/**
 * A Traffic Policy text (JSON or YAML) with each secret value replaced where it stands by
 * "********" (a quoted string in either language); every other byte is kept, comments and
 * layout included. Text that does not parse as a policy (a mapping) shows nothing: it is
 * replaced by ******** whole. Empty text (or a YAML document of comments alone) holds no value
 * and is kept.
 */
export async function maskPolicyText(text: string): Promise<string> {
  if (text.trim() === "") return text;
  const located = await locateSecrets(text);
  if (located === "empty") return text;
  if (located === "not-policy") return MASK;
  const masked = replaceRanges(text, located.ranges, `"${MASK}"`);
  // JSON's places are found by edgectl's own locator (json-ranges.ts): read back by JSON.parse,
  // the masked text must show no secret; if it somehow did, show none of it. YAML's are found by
  // the same library and configuration that would read it back, so it is not read twice (a
  // second parse was 6% of `endpoint get`); test/secrets' properties hold its masking.
  if (located.readBack)
    try {
      const back = located.readBack(masked);
      for (const v of secretNodes(plainView, back)) if (v !== MASK) return MASK;
    } catch {
      return MASK;
    }
  return masked;
}

/**
 * Where a policy's secrets stand, or what it is instead: a text not laid out as a policy (no
 * phase at all, or a phase that is no list of rules) is "not-policy", since where its secrets
 * stand cannot be told, and none of it is shown.
 */
type Located = { ranges: [number, number][]; readBack?: (text: string) => unknown } | "empty" | "not-policy";

/**
 * Where the secrets of a policy text stand, and how to read the text as data: JSON by its own
 * parser; YAML by the yaml library, with the tool's one YAML configuration (src/policy/yaml.ts).
 */
async function locateSecrets(text: string): Promise<Located> {
  if (mayBeJson(text))
    try {
      const root = locateJson(text);
      if (!policyShaped(jsonView, root)) return "not-policy";
      return { ranges: secretNodes(jsonView, root).map((n) => [n.start, n.end]), readBack: JSON.parse };
    } catch {
      // Not JSON: YAML.
    }
  const [{ yamlSecretRanges }, { yamlDocumentPausing }] = await Promise.all([
    import("./yaml-text.js"),
    import("../policy/yaml.js"),
  ]);
  // Read pausing: masking a long policy hears a signal (src/io/checkpoint.ts).
  const found = yamlSecretRanges(text, await yamlDocumentPausing(text, every(1000)));
  return found.kind === "policy" ? { ranges: found.ranges } : found.kind;
}

/** The policy text as shown: masked unless `show`. */
export async function shownPolicyText(text: string, show: boolean): Promise<string> {
  return show ? text : maskPolicyText(text);
}

/**
 * The text with each range replaced by `replacement` (ranges may repeat: an alias names its
 * anchor's node; of two nested ranges the inner one is replaced). Line ends and blanks that
 * close a range (a YAML block scalar's) are kept. One pass over the text, whatever the count.
 */
function replaceRanges(text: string, ranges: [number, number][], replacement: string): string {
  const unique = [...new Map(ranges.map((r) => [r[0], r])).values()].sort((a, b) => b[0] - a[0]);
  const kept: [number, number][] = [];
  let limit = Infinity;
  for (const [start, end] of unique) {
    if (end > limit) continue; // holds a range already taken
    kept.push([start, end]);
    limit = start;
  }
  const parts: string[] = [];
  let at = 0;
  for (let k = kept.length - 1; k >= 0; k--) {
    const [start, end] = kept[k]!;
    let trailing = end;
    while (trailing > start && /\s/.test(text[trailing - 1]!)) trailing--;
    parts.push(text.slice(at, start), replacement, text.slice(trailing, end));
    work.steps += end - at;
    at = end;
  }
  parts.push(text.slice(at));
  return parts.join("");
}
