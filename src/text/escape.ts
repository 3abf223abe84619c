// Values from the server or the user are printed escaped, so a description cannot move
// the cursor, retitle or recolor the terminal. C0, DEL, C1 and the bidi/format controls
// that can reorder what is shown are written as visible escapes.

const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

const UNSAFE = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function escapeChar(ch: string): string {
  const named = NAMED[ch];
  if (named) return named;
  const code = ch.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

/** Escapes control characters as \n, \t, \r, \xNN or \uNNNN; other text is unchanged. */
export function escapeControl(value: string): string {
  return value.replace(UNSAFE, escapeChar);
}

export function hasControl(value: string): boolean {
  UNSAFE.lastIndex = 0;
  return UNSAFE.test(value);
}

/** A short, escaped excerpt of a response body for error messages. */
export function excerpt(text: string, max = 200): string {
  const trimmed = text.trim();
  const cut = trimmed.length > max ? `${trimmed.slice(0, max)}…` : trimmed;
  return escapeControl(cut);
}
