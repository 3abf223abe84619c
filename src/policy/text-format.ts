// Which reader a policy text goes to first: JSON (JSON.parse, src/output/json-ranges.ts) or YAML
// (the yaml library, src/policy/yaml.ts). JSON is a format of its own, read by its own parser.

/**
 * Whether a policy text may be JSON (a collection): any other JSON text (a number, a string,
 * true, null) reads in YAML as the same value, so only these are worth a JSON.parse, which
 * costs a thrown error on every YAML text.
 */
export const mayBeJson = (text: string): boolean => /^\s*[[{]/.test(text);
