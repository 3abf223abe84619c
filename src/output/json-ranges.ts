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
  const value = (): JsonNode => {
    work.steps++;
    skip();
    const start = i;
    const ch = text[i];
    if (ch === "{") {
      i++;
      const entries: [string, JsonNode][] = [];
      skip();
      while (text[i] !== "}") {
        skip();
        const key = string();
        skip();
        i++; // :
        entries.push([key, value()]);
        skip();
        if (text[i] === ",") i++;
        skip();
      }
      i++;
      return { kind: "object", start, end: i, entries };
    }
    if (ch === "[") {
      i++;
      const items: JsonNode[] = [];
      skip();
      while (text[i] !== "]") {
        items.push(value());
        skip();
        if (text[i] === ",") i++;
        skip();
      }
      i++;
      return { kind: "array", start, end: i, items };
    }
    if (ch === '"') {
      const v = string();
      return { kind: "scalar", start, end: i, value: v };
    }
    while (i < text.length && /[-+.\w]/.test(text[i]!)) i++;
    return { kind: "scalar", start, end: i, value: JSON.parse(text.slice(start, i)) as unknown };
  };
  return value();
}

/** A located JSON value, as the secrets' walk sees it. */
export const jsonView = {
  entries: (n: JsonNode) => (n.kind === "object" ? n.entries : undefined),
  items: (n: JsonNode) => (n.kind === "array" ? n.items : undefined),
  scalar: (n: JsonNode) => (n.kind === "scalar" ? { value: n.value } : undefined),
};
