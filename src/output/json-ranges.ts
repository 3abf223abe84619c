// A JSON text's values with where each stands in the text, so a value can be replaced in place
// (every other byte kept). Only for text JSON.parse has accepted: it locates, it does not judge.

import { work } from "../policy/work.js";

/** A JSON value and where it stands in the text (a string's range holds its quotes). */
export type JsonNode =
  | { kind: "object"; start: number; end: number; entries: [string, JsonNode][] }
  | { kind: "array"; start: number; end: number; items: JsonNode[] }
  | { kind: "scalar"; start: number; end: number; value: unknown };

/** The located value of a text JSON.parse accepts (else it throws, as JSON.parse does). */
export function locateJson(text: string): JsonNode {
  JSON.parse(text);
  let i = 0;
  const skip = () => {
    while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i++;
  };
  const string = (): string => {
    const start = i++;
    while (text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  /** A scalar at i (a string, number, true, false or null). */
  const scalar = (): JsonNode => {
    const start = i;
    if (text[i] === '"') {
      const value = string();
      return { kind: "scalar", start, end: i, value };
    }
    while (i < text.length && /[-+.\w]/.test(text[i]!)) i++;
    return { kind: "scalar", start, end: i, value: JSON.parse(text.slice(start, i)) as unknown };
  };
  // An explicit stack of the collections open at i: never a call per level, however deep the
  // text nests (a policy of 20,000 levels must not overflow the stack and be hidden whole).
  type Open = Extract<JsonNode, { kind: "object" | "array" }> & { key?: string };
  const open: Open[] = [];
  let done: JsonNode | undefined;
  /** A value is complete: it goes into the collection open around it, or is the root. */
  const place = (node: JsonNode) => {
    const parent = open.at(-1);
    if (parent === undefined) done = node;
    else if (parent.kind === "object") parent.entries.push([parent.key!, node]);
    else parent.items.push(node);
  };
  for (;;) {
    work.steps++;
    skip();
    const parent = open.at(-1);
    // Close the collection at i, or step over the comma after a value.
    if (parent !== undefined && (text[i] === "}" || text[i] === "]")) {
      i++;
      open.pop();
      parent.end = i;
      delete parent.key;
      place(parent);
    } else {
      if (parent !== undefined && (parent.kind === "object" ? parent.entries.length : parent.items.length) > 0) {
        i++; // ,
        skip();
      }
      if (parent?.kind === "object") {
        parent.key = string();
        skip();
        i++; // :
        skip();
      }
      const ch = text[i];
      if (ch === "{") open.push({ kind: "object", start: i++, end: -1, entries: [] });
      else if (ch === "[") open.push({ kind: "array", start: i++, end: -1, items: [] });
      else place(scalar());
    }
    if (open.length === 0 && done !== undefined) return done;
  }
}

/** A located JSON value, as the secrets' walk sees it. */
export const jsonView = {
  entries: (n: JsonNode) => (n.kind === "object" ? n.entries : undefined),
  items: (n: JsonNode) => (n.kind === "array" ? n.items : undefined),
  scalar: (n: JsonNode) => (n.kind === "scalar" ? { value: n.value } : undefined),
};
