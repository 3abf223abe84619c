// JSON for scripts: the resource as the API returned it, two-space indent, one document.
// JSON.stringify already escapes C0 controls; C1 and bidi controls are escaped too so a
// value printed to a terminal cannot drive it.

const UNSAFE_IN_JSON = /[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export function renderJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2).replace(UNSAFE_IN_JSON, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`)}\n`;
}

/** One compact JSON line (stderr error objects), with the same escaping as renderJson. */
export function jsonLine(value: unknown): string {
  return `${JSON.stringify(value).replace(UNSAFE_IN_JSON, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`)}\n`;
}
