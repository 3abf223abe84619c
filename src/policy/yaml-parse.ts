// The yaml library for reading a policy, bundled apart (dist/policy-yaml.cjs, scripts/build.mjs)
// and required only when a policy is not JSON: `policy check` of a JSON file never loads it.
import { parseAllDocuments } from "yaml";

/** The one YAML document of `text`, or why it is not one (the first error, with its line). */
export function parseYaml(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  const docs = parseAllDocuments(text, { uniqueKeys: true });
  if (!Array.isArray(docs)) return { ok: true, value: null }; // an empty stream
  if (docs.length !== 1) return { ok: false, message: `one YAML document expected (got ${docs.length})` };
  const doc = docs[0]!;
  const error = doc.errors[0];
  // yaml's message names the line and column; its first line is enough.
  if (error) return { ok: false, message: error.message.split("\n")[0]! };
  try {
    return { ok: true, value: doc.toJS({ maxAliasCount: 100 }) as unknown };
  } catch (err) {
    // Aliases that expand past the bound ("billion laughs"): refused like any text not a policy.
    return { ok: false, message: (err as Error).message.split("\n")[0]! };
  }
}
