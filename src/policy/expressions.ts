// CEL expressions are not evaluated; an unbalanced quote or bracket is refused, since ngrok
// would refuse the whole policy for it.

const CLOSE: Record<string, string> = { "(": ")", "[": "]", "{": "}" };

/** Why `expr` has an unbalanced quote or bracket (undefined: balanced). */
export function unbalanced(expr: string): string | undefined {
  const open: string[] = [];
  let i = 0;
  while (i < expr.length) {
    const c = expr[i]!;
    if (c === '"' || c === "'") {
      // A raw string (r"…") takes backslashes as written; a triple quote runs to its twin.
      const raw = i > 0 && /[rR]/.test(expr[i - 1]!) && (i < 2 || !/[\w]/.test(expr[i - 2]!));
      const quote = expr.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
      let j = i + quote.length;
      for (;;) {
        if (j >= expr.length) return `unbalanced quote: the ${quote} at character ${i + 1} is never closed`;
        if (!raw && expr[j] === "\\") j += 2;
        else if (expr.startsWith(quote, j)) break;
        else if (quote.length === 1 && (expr[j] === "\n" || expr[j] === "\r"))
          return `unbalanced quote: the ${quote} at character ${i + 1} is not closed on its line`;
        else j++;
      }
      i = j + quote.length;
      continue;
    }
    if (c in CLOSE) open.push(c);
    else if (c === ")" || c === "]" || c === "}") {
      const top = open.pop();
      if (top === undefined || CLOSE[top] !== c)
        return `unbalanced bracket: the ${c} at character ${i + 1} closes nothing open`;
    }
    i++;
  }
  const top = open.pop();
  return top === undefined ? undefined : `unbalanced bracket: a ${top} is never closed`;
}
