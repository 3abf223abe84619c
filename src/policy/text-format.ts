// Which reader a policy text goes to first: JSON (JSON.parse, src/output/json-ranges.ts) or YAML
// (the yaml library, src/policy/yaml.ts). JSON is a format of its own, read by its own parser.

/**
 * Whether a policy text may be JSON (a collection): any other JSON text (a number, a string,
 * true, null) reads in YAML as the same value, so only these are worth a JSON.parse, which
 * costs a thrown error on every YAML text.
 */
export const mayBeJson = (text: string): boolean => /^\s*[[{]/.test(text);

/** A policy document nests at most 64 levels of mappings and sequences, JSON and YAML alike (the contract). */
export const MAX_NESTING = 64;

/**
 * Whether parsed data nests more than MAX_NESTING levels of objects and arrays (the root
 * counts as one). An explicit stack: never a call per level, however deep the data.
 */
export function nestsDeeperThanLimit(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth + 1 > MAX_NESTING) return true;
    for (const item of Array.isArray(v) ? v : Object.values(v as object)) stack.push([item, depth + 1]);
  }
  return false;
}
