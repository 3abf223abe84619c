// The `${…}` interpolations of a config string, split from its literal text (ngrok-docs
// traffic-policy/how-it-works.mdx, "CEL Interpolation"): the expression inside runs to the `}`
// that closes it, past CEL string literals and nested braces (a map literal). Used by the CEL
// adapter (renderTemplate) and by set-vars, where a value that is exactly one interpolation
// keeps the expression's type (snippets/traffic-policy/actions/set-vars/behavior.mdx).

export type Piece = { literal: string } | { expression: string };

/** The pieces of `text`, or an error for an interpolation left open. */
export function splitTemplate(text: string): Piece[] | { error: string } {
  const pieces: Piece[] = [];
  let literal = "";
  let i = 0;
  while (i < text.length) {
    if (text.startsWith("${", i)) {
      const end = closingBrace(text, i + 2);
      if (end < 0) return { error: `the interpolation at character ${i + 1} is never closed with }` };
      if (literal !== "") pieces.push({ literal });
      literal = "";
      pieces.push({ expression: text.slice(i + 2, end) });
      i = end + 1;
    } else literal += text[i++];
  }
  if (literal !== "" || pieces.length === 0) pieces.push({ literal });
  return pieces;
}

/** The expression when the whole text is exactly one interpolation (`${vars.x}`), else undefined. */
export function wholeInterpolation(text: string): string | undefined {
  const pieces = splitTemplate(text);
  if (!Array.isArray(pieces) || pieces.length !== 1) return undefined;
  const [only] = pieces;
  return only && "expression" in only ? only.expression : undefined;
}

/** Whether the text holds an interpolation at all. */
export function hasInterpolation(text: string): boolean {
  return text.includes("${");
}

/** The index of the `}` that closes an interpolation opened before `from`, or -1. */
function closingBrace(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"' || ch === "'") {
      const raw = /[rR]/.test(text[i - 1] ?? "");
      const close = text.startsWith(ch.repeat(3), i) ? ch.repeat(3) : ch;
      let j = i + close.length;
      while (j < text.length && !text.startsWith(close, j)) j += text[j] === "\\" && !raw ? 2 : 1;
      if (j >= text.length) return -1;
      i = j + close.length - 1;
    } else if (ch === "{") depth++;
    else if (ch === "}") {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}
