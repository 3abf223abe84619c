// Secrets (the API key, webhook secrets) never reach logs or messages: every debug line and
// error message passes through redactText. Data printed on stdout is not redacted (a key such
// as "anything" would alter values the API sent); only webhook secrets are masked there.

import { MASK, POLICY_KEYS, SECRET_KEYS, SECRET_PLACES, pathKey } from "../secrets/index.js";
import { maskPolicyData } from "../secrets/walk.js";

export function redactText(text: string, secrets: (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret) continue;
    for (const form of encodedForms(secret)) {
      // A very short value is masked only where it stands alone, or every word holding its
      // letters would be; a long one wherever it appears.
      out =
        secret.length < 4
          ? out.replace(new RegExp(`(?<![A-Za-z0-9_-])${escapeRegExp(form)}(?![A-Za-z0-9_-])`, "g"), MASK)
          : out.split(form).join(MASK);
    }
  }
  return maskSecretFields(out);
}

/**
 * A JSON "secret" field (a webhook secret) or "client_secret" (OAuth, OIDC) is masked even when its value is not known in
 * advance; an empty one (sns) stays empty, so it does not read as a secret that is set.
 */
export function maskSecretFields(text: string): string {
  return text.replace(/("(?:client_)?secret"\s*:\s*)"(?:[^"\\]|\\.)+"/g, `$1"${MASK}"`);
}

/**
 * The value as given, and as it reads inside a JSON string when a server echoes it back:
 * `"` and `\` escaped, and optionally `/` escaped, `&<>` escaped as Go's encoding/json
 * does, or everything outside ASCII escaped (\u00e9 or \u00E9).
 */
function encodedForms(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1);
  const forms = new Set<string>([value, json]);
  const u = (ch: string, upper: boolean) => {
    const hex = ch.charCodeAt(0).toString(16).padStart(4, "0");
    return `\\u${upper ? hex.toUpperCase() : hex}`;
  };
  for (const slash of [false, true]) {
    for (const html of [false, true]) {
      for (const ascii of [false, true]) {
        for (const upper of ascii ? [false, true] : [false]) {
          let form = json;
          if (html) form = form.replace(/[&<>\u2028\u2029]/g, (ch) => u(ch, upper));
          if (ascii) form = form.replace(/[^\x00-\x7f]/g, (ch) => u(ch, upper));
          if (slash) form = form.replace(/\//g, "\\/");
          forms.add(form);
        }
      }
    }
  }
  // Longest first, so a form that contains another is replaced whole.
  return [...forms].sort((a, b) => b.length - a.length);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Masks the secrets of a Traffic Policy text by its parsed structure (src/output/mask.ts's maskPolicyText, given by the factory). */
export type PolicyMasker = (text: string) => Promise<string>;

/**
 * A request or response body for a --debug line: its secrets masked first, then cut to `max`
 * characters, so no part of a secret can survive the cut. `path`: the API path it was sent to
 * or answered for. A JSON body is masked by its
 * structure (secret and client_secret fields, and the secrets inside a traffic_policy text:
 * by the parsed policy with `maskPolicy`, then by lines) and re-serialised; any other text by
 * the patterns of redactLogText.
 */
export async function redactBody(
  text: string,
  secrets: (string | undefined)[],
  opts: { maskPolicy?: PolicyMasker; max?: number; path?: string } = {},
): Promise<string> {
  const max = opts.max ?? 4000;
  let out: string | undefined;
  if (/^\s*[[{]/.test(text)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined; // not JSON after all: the patterns below
    }
    // The API path names what the body itself is (a route's `…/traffic_policy` module).
    const key = opts.path === undefined ? undefined : pathKey(opts.path);
    if (parsed !== undefined) out = JSON.stringify(await maskJsonSecrets(parsed, key, opts.maskPolicy));
  }
  out = redactLogText(out ?? text, secrets);
  return out.length > max ? `${out.slice(0, max)}…` : out;
}

/**
 * A parsed JSON value with every secret field, and every secret in a policy text, masked.
 * `key` is the value's own key, `parent` the key of the object holding it.
 */
async function maskJsonSecrets(
  value: unknown,
  key: string | undefined,
  maskPolicy: PolicyMasker | undefined,
  parent?: string,
): Promise<unknown> {
  if (typeof value === "string") {
    if (key !== undefined && SECRET_KEYS.has(key)) return value === "" ? value : MASK;
    // An endpoint's policy text (`traffic_policy`), or a route module's (`traffic_policy.value`):
    // by its parsed structure (a secret written across lines, after a comment, under an escaped
    // key), then by lines (a secret field of an action the structure does not know).
    const policy = isPolicyKey(key) || (key === "value" && isPolicyKey(parent));
    if (policy && maskPolicy) return maskPolicySecrets(await maskPolicy(value));
    if (policy || key === "value") return maskPolicySecrets(value);
    return value;
  }
  if (Array.isArray(value)) return Promise.all(value.map((v) => maskJsonSecrets(v, undefined, maskPolicy)));
  if (value === null || typeof value !== "object") return value;
  // A policy held as data (a route's legacy `policy` module): its secret places by structure.
  const data = isPolicyKey(key) ? maskPolicyData(value) : value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) {
    // A secret held by an object or array is masked whole (a number or boolean is left to the
    // text patterns that run after this pass).
    const masked =
      SECRET_KEYS.has(k) && v !== null && typeof v === "object" ? MASK : await maskJsonSecrets(v, k, maskPolicy, key);
    Object.defineProperty(out, k, { value: masked, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** The keys under which an API body carries a Traffic Policy (text, module or data). */
const isPolicyKey = (key: string | undefined) => key !== undefined && POLICY_KEYS.has(key);

/**
 * The names that hold a policy's secrets (the table's keys and header names), for the log's
 * line patterns: a YAML text that could not be masked by structure is masked by them.
 */
const PLACE_NAMES = [
  ...new Set(
    Object.values(SECRET_PLACES).flatMap((places) =>
      places.flatMap((place) =>
        place.flatMap((step) => ("key" in step ? [step.key] : "anyCase" in step ? step.anyCase : [])),
      ),
    ),
  ),
].filter((name) => name !== "headers");
const escapeName = (name: string) => name.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&");
const NAMES = PLACE_NAMES.map(escapeName).join("|");
/** The table's field names alone (no header names). */
const FIELD_NAMES = [
  ...new Set(
    Object.values(SECRET_PLACES).flatMap((places) =>
      places.flatMap((p) => p.flatMap((st) => ("key" in st ? [st.key] : []))),
    ),
  ),
]
  .filter((name) => name !== "headers")
  .map(escapeName)
  .join("|");

/** Parsed JSON with every secret place of a policy, and every secret or client_secret field, masked. */
function maskJsonFields(value: unknown, key?: string): unknown {
  return maskFields(maskPolicyData(value), key);
}

/** Parsed JSON with every secret or client_secret field masked, wherever it stands. */
function maskFields(value: unknown, key?: string): unknown {
  if (typeof value === "string") return key !== undefined && SECRET_KEYS.has(key) && value !== "" ? MASK : value;
  if (Array.isArray(value)) return value.map((v) => maskFields(v));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const masked = SECRET_KEYS.has(k) && v !== null && typeof v === "object" ? MASK : maskFields(v, k);
    Object.defineProperty(out, k, { value: masked, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * A Traffic Policy text with its secrets masked: JSON by structure; anything else (YAML) by
 * lines, since a log need not keep the layout: from a key that names a secret place (the
 * table's field and header names, any letter case) to the end of its line, and the lines under
 * it (more indented, or list items at its indent: a block scalar, the credentials' entries),
 * are masked.
 */
function maskPolicySecrets(text: string): string {
  if (!ANY_NAME.test(text)) return text;
  if (/^\s*[[{]/.test(text)) {
    try {
      return JSON.stringify(maskJsonFields(JSON.parse(text)));
    } catch {
      // YAML flow style or broken JSON: by lines
    }
  }
  const lines = text.split(/\r\n|\r|\n/);
  const out: string[] = [];
  let under: number | undefined;
  for (const line of lines) {
    const indent = /^\s*/.exec(line)![0].length;
    if (
      under !== undefined &&
      (line.trim() === "" || indent > under || (/^\s*-(\s|$)/.test(line) && indent === under))
    ) {
      out.push(line.trim() === "" ? line : `${" ".repeat(indent)}${MASK}`);
      continue;
    }
    under = undefined;
    const m = NAME_LINE.exec(line);
    if (m && m[2]!.trim() !== "" && m[2]!.trim() !== '""' && m[2]!.trim() !== "''") {
      out.push(`${m[1]} ${MASK}`);
      if (/^\s*[|>]/.test(m[2]!)) under = indent;
    } else if (m) {
      out.push(line);
      under = indent; // the value may follow on the next, more indented lines
    } else out.push(line);
  }
  return out.join("\n");
}

const ANY_NAME = new RegExp(`(?:${NAMES})`, "i");
const NAME_LINE = new RegExp(`^(.*?["']?(?<![\\w-])(?:${NAMES})["']?\\s*:)(.*)$`, "i");

/**
 * Text for a log line or a message: the known secrets masked (redactText), and any secret
 * field however it is written: `"secret": "…"` or `"client_secret": "…"`, also inside a JSON
 * string (`\"secret\":\"…\"`, a policy text in a body), `secret: …` (YAML, also inside a JSON
 * string up to its `\n`), and a value cut off before its end (a truncated body) masked to the
 * end. Masking too much is the safe side here: this is never data.
 */
export function redactLogText(text: string, secrets: (string | undefined)[]): string {
  return redactText(text, secrets)
    .replace(QUOTED_SECRET, (_all, head: string, _bs, _q, _value, end: string) => `${head}${MASK}${end}`)
    .replace(QUOTED_LIST, (_all, head: string, bs: string, _items, end: string) => `${head}${bs}"${MASK}${bs}"${end}`)
    .replace(YAML_LIST, (_all, head: string, items: string) => `${head}${items.replace(YAML_ITEM, `$1${MASK}`)}`)
    .replace(
      YAML_BLOCK,
      (_all, head: string, _indent, lines: string) => `${head}${lines.replace(YAML_LINE, `$1${MASK}`)}`,
    )
    .replace(YAML_SECRET, (_all, head: string) => `${head}${MASK}`);
}

/**
 * A pattern over the log's text, written raw: `NAMES` stands for the names of the secret
 * fields (src/secrets' table: `secret`, `client_secret`, `credentials`, `server_private_key`;
 * not the header names, which messages use as words: "the Authorization header: Authorization:
 * Bearer <API key>"), `NL` for a line break, real or escaped inside a JSON string, and
 * `VALUE` for a YAML value's text up to one (or to the quote that closes the JSON string).
 */
const pattern = (source: string, flags: string, names = FIELD_NAMES) =>
  new RegExp(
    source
      .replaceAll("NAMES", names)
      .replaceAll("NL", String.raw`(?:\\r)?\\n|\r?\n`)
      .replaceAll("VALUE", String.raw`(?:[^\r\n"\\]|\\(?![nr])[^\r\n])`),
    flags,
  );

// The key in quotes (escaped as many times as the text is nested), a colon, then the value's
// opening quote escaped as the key's is; the value runs to that same quote not preceded by a
// backslash (an escaped quote inside it is), or to the end of the text.
const QUOTED_SECRET = pattern(
  String.raw`((\\*)"(?:NAMES)\2"\s*:\s*(\2)")(?!\*{8}\3"|\3")([\s\S]*?)((?<!\\)\3"|$)`,
  "gi",
);
// A list of secrets (`"credentials": ["…", …]`): its items, to the closing bracket or the
// end of the text, masked as one.
const QUOTED_LIST = pattern(String.raw`((\\*)"(?:NAMES)\2"\s*:\s*\[)(?!\s*\2"\*{8}\2"\s*\])([^\]]*)(\]|$)`, "gi");
// A YAML key followed by list items at one indent on the next lines: each item's value masked.
const YAML_LIST = pattern(
  String.raw`((?:^|[\s{,-])["']?(?:NAMES)["']?[ \t]*:[ \t]*)((?:NL)([ \t]*)-[ \t]*VALUE*(?:(?:NL)\3-[ \t]*VALUE*)*)`,
  "gim",
);
const YAML_ITEM = pattern(String.raw`(-[ \t]*)VALUE+`, "g");
// A YAML key holding a block scalar (`|`, `>`): the lines under it, more indented than the key.
const YAML_BLOCK = pattern(
  String.raw`((?:^|NL)([ \t]*)["']?(?:NAMES)["']?[ \t]*:[ \t]*[|>][-+0-9]*)((?:(?:NL)\2[ \t]+VALUE*)+)`,
  "gim",
);
const YAML_LINE = pattern(String.raw`((?:NL)[ \t]+)VALUE+`, "g");
// A YAML key: its value to the end of the line, an escaped line break (`\n` inside a JSON
// string), or the unescaped quote that closes the JSON string holding it. Not `credentials`
// (a list, above): "the proxy wants credentials: give them as …" is a message's words.
const YAML_SECRET = pattern(
  String.raw`((?:^|[\s{,-])["']?(?:NAMES)["']?[ \t]*:[ \t]*(?:\\*["'])?)(?!\*{8}|\\*["']|\s)(VALUE+)`,
  "gim",
  FIELD_NAMES.split("|")
    .filter((name) => name !== "credentials")
    .join("|"),
);
