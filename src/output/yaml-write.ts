// JSON data written as block YAML by hand, so printing a policy loads no YAML library (the yaml
// package's bundle alone costs more start-up than `endpoint get` may take). The layout is the
// yaml package's (2-space indent, sequences indented under their key, `{}`/`[]` when empty, no
// line folding); the quoting is stricter: a string is written plain only when no YAML 1.1 or
// 1.2 parser (yaml, js-yaml, go-yaml, PyYAML) could read it as anything but that same string.

/**
 * Characters some YAML parser reads as a line break, drops or refuses (C0 and C1 controls, DEL,
 * U+2028, U+2029, a BOM, U+FFFE/U+FFFF, a lone surrogate), and the bidi controls that would
 * reorder a terminal's line (escaped in JSON output too, src/output/json.ts): a string holding
 * one is double-quoted with every one of them escaped. A lone surrogate is spelled out, not `\p{Cs}` with the `u`
 * flag: esbuild writes that as `new RegExp(…, "u")`, which V8 compiles, with ICU's property
 * tables, when the module loads (~0.25 ms of every endpoint command).
 */
const UNSAFE =
  /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** In JSON.stringify's output: an escape (`\u00XX` apart), or a character YAML must not hold raw. */
const JSON_ESCAPE =
  /\\(?:u00([0-9a-f]{2})|.)|[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff\ufffe\uffff]/g;
const SHORT_ESCAPES: Record<string, string> = { "00": "\\0", "07": "\\a", "0b": "\\v", "1b": "\\e" };

function escapeRaw(ch: string): string {
  if (ch === "\u0085") return "\\N";
  if (ch === "\u2028") return "\\L";
  if (ch === "\u2029") return "\\P";
  const code = ch.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16)}` : `\\u${code.toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * A YAML double-quoted scalar holding exactly `value`: JSON's escapes (valid YAML 1.1 and 1.2),
 * control characters as YAML writes them (`\0`, `\e`, `\xNN`), and what JSON leaves raw but YAML
 * may not hold (`\N`, `\L`, `\P`, `\x7f`, `\uFEFF`) escaped too.
 */
export function yamlQuoted(value: string): string {
  return JSON.stringify(value).replace(JSON_ESCAPE, (match, hex?: string) => {
    if (match[0] !== "\\") return escapeRaw(match);
    return hex === undefined ? match : (SHORT_ESCAPES[hex] ?? `\\x${hex}`);
  });
}

// Plain strings some parser reads as another type or another string:
// - null, booleans (YAML 1.1's yes/no/on/off/y/n too, any case), `=` (1.1's value key, which
//   PyYAML refuses to load) and `<<` (a merge key);
const SPECIAL_WORD = /^(?:~|=|<<|null|true|false|yes|no|on|off|y|n|[-+]?\.(?:inf|nan))$/i;
// - anything that starts like a number (a digit or a dot) and holds only what a number in some
//   YAML form may hold (1_000, 0x1f, 0o17, 017, 0b1, .5, 1e3, sexagesimal 1:20, a date
//   2001-12-14; `.`, which YAML 1.1 reads as a float; 1.2.3, which its spec's pattern would);
const NUMBER_LIKE = /^[-+]?[0-9.][0-9a-fA-FxXoO_.:+-]*$/;
// - a YAML 1.1 timestamp (2001-12-14t21:59:43.10-05:00, 2001-12-14 21:59:43.10 -5);
const TIMESTAMP = /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}/;
// - an indicator first (`- `, `? `, `: `, flow, comment, anchor, alias, tag, block, quote,
//   directive, reserved), white space first or last, `: ` or ` #` within, `:` last, and a
//   document marker first.
const NOT_PLAIN = /^[-?:,[\]{}#&*!|>'"%@`]|^\s|\s$|: | #|:$|^(?:---|\.\.\.)/;

function plain(value: string): boolean {
  return (
    value !== "" &&
    !NOT_PLAIN.test(value) &&
    !SPECIAL_WORD.test(value) &&
    !NUMBER_LIKE.test(value) &&
    !TIMESTAMP.test(value)
  );
}

function stringText(value: string): string {
  if (UNSAFE.test(value)) return yamlQuoted(value);
  if (plain(value)) return value;
  // As the yaml package: single quotes for a string with a `"` and no `'`, else double.
  return value.includes('"') && !value.includes("'") ? `'${value}'` : yamlQuoted(value);
}

function numberText(value: number): string {
  if (Number.isNaN(value)) return ".nan";
  if (!Number.isFinite(value)) return value > 0 ? ".inf" : "-.inf";
  // -0 as -0.0: js-yaml (and any parser with integers apart) reads `-0` as the integer 0.
  if (Object.is(value, -0)) return "-0.0";
  // 1e+21 as 1.0e+21: PyYAML (YAML 1.1) reads a float only with a dot in it.
  return String(value).replace(/^(-?[0-9]+)e/, "$1.0e");
}

function scalarText(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return stringText(value);
  if (typeof value === "number") return numberText(value);
  if (typeof value === "boolean") return String(value);
  throw new TypeError(`not JSON data: ${typeof value}`);
}

type Entries = [string, unknown][];

/** A non-empty array's items or object's entries (undefined values left out, as JSON does), else undefined. */
function children(value: unknown): unknown[] | Entries | undefined {
  if (value === null || typeof value !== "object") return undefined;
  if (Array.isArray(value)) return value.length > 0 ? value : undefined;
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  return entries.length > 0 ? entries : undefined;
}

/** A value on the line after `- ` or `key: `: a scalar, or an empty collection in flow style. */
function inlineText(value: unknown): string {
  if (Array.isArray(value)) return "[]";
  if (value !== null && typeof value === "object") return "{}";
  return scalarText(value);
}

/** YAML allows an implicit key of at most 1024 characters (PyYAML enforces it): a longer one is explicit (`? key`). */
const MAX_IMPLICIT_KEY = 1024;

/** The lines of a non-empty collection at `indent`, each ending in a line break. */
function blockText(value: unknown[] | Entries, isArray: boolean, indent: string): string {
  const inner = `${indent}  `;
  let out = "";
  for (const item of value) {
    const [key, v] = isArray ? ["", item] : (item as [string, unknown]);
    const nested = children(v);
    if (isArray) {
      // A nested collection starts on the item's line: its first indent becomes `- `.
      out += nested
        ? `${indent}- ${blockText(nested, Array.isArray(v), inner).slice(inner.length)}`
        : `${indent}- ${inlineText(v)}\n`;
      continue;
    }
    const keyText = stringText(key);
    out += keyText.length > MAX_IMPLICIT_KEY ? `${indent}? ${keyText}\n${indent}:` : `${indent}${keyText}:`;
    out += nested ? `\n${blockText(nested, Array.isArray(v), inner)}` : ` ${inlineText(v)}\n`;
  }
  return out;
}

/** `value` (JSON data: objects, arrays, strings, numbers, booleans, null) as one YAML document. */
export function yamlText(value: unknown): string {
  const nested = children(value);
  return nested ? blockText(nested, Array.isArray(value), "") : `${inlineText(value)}\n`;
}
