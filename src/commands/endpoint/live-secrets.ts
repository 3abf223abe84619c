// A masked secret (`********`, what edgectl prints for one) is never sent as a secret. In
// `endpoint update`, a mask at a secret place where the live policy holds a secret at the same
// place (same phase, rule and action, by position, an action of the same type) keeps the live
// value: it is put back in the text where the mask stands (JSON stays JSON, YAML stays YAML,
// every other byte kept) before the policy is checked and sent. A mask at a secret place with
// no live secret, and any in `create`, is exit 2 naming the place. Elsewhere (a body, a header
// that is no secret place) `********` is ordinary text. The secret places are the ones the
// masking walk finds (src/output/policy-secrets.ts, from src/secrets): a place added there is
// one here.
import { every } from "../../io/checkpoint.js";
import { isDeepStrictEqual } from "node:util";
import { UsageError } from "../../errors.js";
import { jsonView, locateJson, type JsonNode } from "../../output/json-ranges.js";
import { secretNodes, type NodeView } from "../../output/policy-secrets.js";
import { mayBeJson } from "../../policy/text-format.js";
import { MASK } from "../../secrets/index.js";
import { escapeControl } from "../../text/escape.js";

type Path = (string | number)[];

/** A secret place of a policy text: its path in the document, its value, and where it stands. */
interface Place {
  path: Path;
  /** The action's type (the place is the same only for an action of the same type). */
  type: unknown;
  /** The scalar's value; undefined when the place holds a collection. */
  value: unknown;
  range: [number, number];
}

interface Located {
  json: boolean;
  places: Place[];
  /** The text read as data (what the validator reads). */
  read: (text: string) => Promise<unknown>;
}

/** A node with the path the walk took to it. */
interface At<N> {
  node: N;
  path: Path;
}

/** `inner`, each node carrying its path from the root. */
function pathView<N>(inner: NodeView<N>): NodeView<At<N>> {
  return {
    entries: (n) => {
      const entries = inner.entries(n.node);
      if (entries === undefined) return undefined;
      return [...entries].map(([k, v]): [unknown, At<N>] => [k, { node: v, path: [...n.path, String(k)] }]);
    },
    items: (n) => {
      const items = inner.items(n.node);
      return items === undefined ? undefined : [...items].map((v, i) => ({ node: v, path: [...n.path, i] }));
    },
    scalar: (n) => inner.scalar(n.node),
  };
}

/** `a.b`, `a[2]`, and a key that is not a plain name quoted: `headers["x y"]` (as the validator writes a place). */
export function placeName(path: Path): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else if (/^[A-Za-z_][\w-]*$/.test(key)) out += out === "" ? key : `.${key}`;
    else out += `[${JSON.stringify(key)}]`;
  }
  return escapeControl(out);
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** The value at `path` in plain data (undefined when there is none). */
function valueAt(data: unknown, path: Path): unknown {
  let v = data;
  for (const key of path) {
    if (Array.isArray(v) && typeof key === "number") v = v[key] as unknown;
    else if (isRecord(v) && typeof key === "string" && Object.hasOwn(v, key)) v = v[key];
    else return undefined;
  }
  return v;
}

/** The secret places of a policy text (its byte-order mark skipped), or undefined when it is no policy. */
async function locate(text: string): Promise<Located | undefined> {
  const bom = text.startsWith("\ufeff") ? 1 : 0;
  const body = text.slice(bom);
  const at = (path: Path, value: unknown, start: number, end: number, data: unknown): Place => ({
    path,
    type: (valueAt(data, path.slice(0, 4)) as { type?: unknown } | undefined)?.type,
    value,
    range: [start + bom, end + bom],
  });
  if (mayBeJson(body)) {
    let root: JsonNode | undefined;
    try {
      root = locateJson(body);
    } catch {
      // Not JSON: YAML.
    }
    if (root !== undefined) {
      const data = JSON.parse(body) as unknown;
      const view = pathView(jsonView);
      const nodes = secretNodes(view, { node: root, path: [] });
      return {
        json: true,
        places: nodes.map((n) => at(n.path, view.scalar(n)?.value, n.node.start, n.node.end, data)),
        read: (t) => Promise.resolve(JSON.parse(t.replace(/^\ufeff/, "")) as unknown),
      };
    }
  }
  const [{ yamlView }, { dataOf, readYamlPausing, yamlDocumentPausing }] = await Promise.all([
    import("../../output/yaml-text.js"),
    import("../../policy/yaml.js"),
  ]);
  // Read once, pausing: a long policy file hears a signal (src/io/checkpoint.ts).
  const read = await yamlDocumentPausing(body, every(1000));
  if (!read.ok || read.doc === null) return undefined;
  const value = dataOf(read);
  if (!value.ok) return undefined;
  const data = value.value;
  const doc = read.doc;
  const places: Place[] = [];
  try {
    const view = pathView(yamlView(doc));
    for (const n of secretNodes(view, { node: doc.contents, path: [] })) {
      if (!n.node?.range) return undefined;
      places.push(at(n.path, view.scalar(n)?.value, n.node.range[0], n.node.range[1], data));
    }
  } catch {
    return undefined; // aliases past the bound: no policy
  }
  const readBack = async (t: string) => {
    const back = await readYamlPausing(t.replace(/^\ufeff/, ""), every(1000));
    if (!back.ok) throw new Error(back.message);
    return back.value;
  };
  return { json: false, places, read: readBack };
}

const sameType = (a: Place, b: Place) => a.type === b.type;
const key = (p: Place) => JSON.stringify(p.path);

/** A problem of a masked secret, as checkEndpointInput lists the validator's. */
interface MaskProblem {
  flag: "--traffic-policy-file";
  path: string;
  message: string;
}

function refuse(problems: MaskProblem[]): never {
  const lines = problems.map((p) => `${p.flag}: ${p.path}: ${p.message}`);
  throw new UsageError(problems.length === 1 ? lines[0]! : `${problems.length} problems: ${lines.join("; ")}`, {
    problems,
  });
}

const NOT_A_SECRET = `"${MASK}" is the mask edgectl prints, not a secret`;

/** `create`: a mask at a secret place is exit 2 naming each place (nothing is sent). */
export async function refuseMasks(text: string): Promise<void> {
  const located = await locate(text);
  const masks = located?.places.filter((p) => p.value === MASK) ?? [];
  if (masks.length === 0) return;
  refuse(
    masks.map((p) => ({
      flag: "--traffic-policy-file",
      path: placeName(p.path),
      message: `${NOT_A_SECRET}; write the secret itself`,
    })),
  );
}

export interface Kept {
  /** The text to send: each mask replaced by the live value where it stood. */
  text: string;
  /** The places whose live secret is kept, as messages name them. */
  kept: string[];
}

/**
 * `update`: the policy text with each mask at a secret place replaced, where it stands, by the
 * live policy's secret at the same place; exit 2 naming each place where the live policy holds
 * none. The result is read back: it must be the policy given with exactly those values changed
 * (a mask shared with another place through a YAML anchor or merge key is refused, not guessed).
 */
export async function keepLiveSecrets(text: string, live: string | null | undefined): Promise<Kept> {
  const located = await locate(text);
  const masks = located?.places.filter((p) => p.value === MASK) ?? [];
  if (located === undefined || masks.length === 0) return { text, kept: [] };
  const livePlaces = live ? ((await locate(live))?.places ?? []) : [];
  const liveAt = new Map<string, Place>();
  for (const p of livePlaces) if (!liveAt.has(key(p))) liveAt.set(key(p), p);
  const problems: MaskProblem[] = [];
  const edits = new Map<number, { range: [number, number]; text: string; value: unknown; place: string }>();
  for (const mask of masks) {
    const name = placeName(mask.path);
    const found = liveAt.get(key(mask));
    const value = found !== undefined && sameType(found, mask) ? found.value : undefined;
    // A live value that is a collection, or the mask itself, is no secret to keep.
    if (value === undefined || value === null || value === "" || value === MASK) {
      const kind = typeof mask.type === "string" ? `${escapeControl(mask.type)} ` : "";
      problems.push({
        flag: "--traffic-policy-file",
        path: name,
        message: `${NOT_A_SECRET}, and the endpoint's live policy holds no ${kind}secret there to keep; write the secret itself`,
      });
      continue;
    }
    const written = await writeScalar(value, located.json);
    const same = edits.get(mask.range[0]);
    if (same !== undefined && !isDeepStrictEqual(same.value, value))
      problems.push({
        flag: "--traffic-policy-file",
        path: name,
        message: `${NOT_A_SECRET}, and it stands for two places (${same.place} too) whose live secrets differ; write the secret itself`,
      });
    else edits.set(mask.range[0], { range: mask.range, text: written, value, place: name });
  }
  if (problems.length > 0) refuse(problems);
  const out = replaceRanges(text, [...edits.values()]);
  // Read back: the policy given, with the live values at the masks' places and nowhere else.
  const expected = structuredClone(await located.read(text));
  for (const mask of masks) setAt(expected, mask.path, liveAt.get(key(mask))!.value);
  let back: unknown;
  try {
    back = await located.read(out);
  } catch {
    back = undefined;
  }
  if (!isDeepStrictEqual(back, expected))
    refuse(
      masks.map((p) => ({
        flag: "--traffic-policy-file",
        path: placeName(p.path),
        message: `${NOT_A_SECRET}, and the live secret cannot be put back there alone (the value is shared with another place, through a YAML anchor, alias or merge key); write the secret itself`,
      })),
    );
  return { text: out, kept: masks.map((p) => placeName(p.path)) };
}

/** A live value written as a scalar of the text's language. */
async function writeScalar(value: unknown, json: boolean): Promise<string> {
  if (typeof value !== "string" || json) return JSON.stringify(value);
  return (await import("../../output/yaml-write.js")).yamlQuoted(value);
}

function setAt(data: unknown, path: Path, value: unknown): void {
  const parent = valueAt(data, path.slice(0, -1)) as Record<string | number, unknown> | undefined;
  if (parent !== undefined) parent[path.at(-1)!] = value;
}

/** `text` with each range replaced (ranges apart); blanks and line ends closing a range (a YAML block scalar's) are kept. */
function replaceRanges(text: string, edits: { range: [number, number]; text: string }[]): string {
  const sorted = [...edits].sort((a, b) => a.range[0] - b.range[0]);
  const parts: string[] = [];
  let at = 0;
  for (const { range, text: replacement } of sorted) {
    let trailing = range[1];
    while (trailing > range[0] && /\s/.test(text[trailing - 1]!)) trailing--;
    parts.push(text.slice(at, range[0]), replacement, text.slice(trailing, range[1]));
    at = range[1];
  }
  parts.push(text.slice(at));
  return parts.join("");
}
