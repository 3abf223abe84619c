// The yaml library, bundled apart (dist/yaml-text.cjs) and required only when a policy is
// printed as YAML or a YAML policy's secrets are masked, so no other command parses it at start-up.
import { Document, isScalar, parseDocument, visit } from "yaml";

/**
 * Characters some YAML parser reads as a line break or drops (C0 and C1 controls, DEL, U+2028,
 * U+2029, a BOM): a string holding one is double-quoted and every one of them escaped.
 */
// eslint-disable-next-line no-control-regex -- control characters are what this finds
const UNSAFE = /[\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff]/;
const RAW_AFTER_JSON = /[\x7f-\x9f\u2028\u2029\ufeff]/g;

function escapeRaw(ch: string): string {
  if (ch === "\u0085") return "\\N";
  if (ch === "\u2028") return "\\L";
  if (ch === "\u2029") return "\\P";
  const code = ch.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16)}` : `\\u${code.toString(16).toUpperCase()}`;
}

export function yamlText(value: unknown): string {
  // No aliases: the same action object may appear twice and must read as written out.
  const doc = new Document(value, { aliasDuplicateObjects: false });
  visit(doc, {
    Scalar(_, node) {
      if (typeof node.value === "string" && UNSAFE.test(node.value)) node.type = "QUOTE_DOUBLE";
    },
  });
  // The library escapes what JSON.stringify escapes (C0 controls) and writes the rest raw; those
  // stand only inside the double-quoted strings forced above, where an escape means the same.
  return doc
    .toString({ lineWidth: 0, doubleQuotedMinMultiLineLength: Number.MAX_SAFE_INTEGER })
    .replace(RAW_AFTER_JSON, escapeRaw);
}

/**
 * The YAML text with every non-empty `secret` value replaced by `mask`, comments and layout
 * kept; undefined when the text is not YAML.
 */
export function maskYamlSecrets(text: string, mask: string): string | undefined {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) return undefined;
  let changed = false;
  visit(doc, {
    Pair(_, pair) {
      if (
        isScalar(pair.key) &&
        pair.key.value === "secret" &&
        isScalar(pair.value) &&
        typeof pair.value.value === "string" &&
        pair.value.value !== ""
      ) {
        pair.value.value = mask;
        pair.value.type = "QUOTE_DOUBLE";
        changed = true;
      }
    },
  });
  return changed ? doc.toString({ lineWidth: 0 }) : text;
}
