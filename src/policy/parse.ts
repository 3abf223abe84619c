// A Traffic Policy text (JSON or YAML) parsed into a document for the validator. JSON first
// (what the API stores and edgectl sends), then plain YAML (plain-yaml.ts); the yaml library,
// loaded only then, for the rest.
import { checkPolicy, type Problem, type Target } from "./index.js";
import { mayBeJson, plainValue, readPlainYaml } from "./plain-yaml.js";

export type Parsed = { ok: true; document: unknown } | { ok: false; problems: Problem[] };

const notParsed = (message: string): Parsed => ({
  ok: false,
  problems: [{ path: "", message, code: "ERR_NGROK_2201" }],
});

export async function parsePolicyText(text: string): Promise<Parsed> {
  const body = text.replace(/^\ufeff/, ""); // a byte-order mark some editors write
  if (body.trim() === "") return notParsed("the policy is empty");
  if (mayBeJson(body))
    try {
      return { ok: true, document: JSON.parse(body) as unknown };
    } catch {
      // Text that starts like JSON but is not is most likely broken JSON; YAML (a superset) says where.
    }
  // The plain YAML most policies are written in needs no library; the rest is the library's.
  const plain = readPlainYaml(body);
  if (plain !== undefined) return { ok: true, document: plainValue(plain) };
  const deep = tooDeep(body);
  if (deep) return notParsed(`not valid JSON or YAML: ${deep}`);
  const { parseYaml } = await import("./yaml-parse.js");
  const result = parseYaml(body);
  return result.ok ? { ok: true, document: result.value } : notParsed(`not valid JSON or YAML: ${result.message}`);
}

/** Parses and checks a policy text for that endpoint: every problem, none when valid. */
export async function checkPolicyText(text: string, target: Target): Promise<Problem[]> {
  const parsed = await parsePolicyText(text);
  return parsed.ok ? checkPolicy(parsed.document, target) : parsed.problems;
}

// The yaml package recurses once per level of nesting: thousands of levels (a 20 kB text of
// `[`) exhaust its stack, and V8 has then been seen to abort the whole process. A policy
// nests a few levels; these bounds are far above that and far below the parser's limit.
const MAX_FLOW_DEPTH = 100;
const MAX_INDENT = 400;

/** Why `text` nests too deep to hand to the YAML parser (undefined: it does not). */
function tooDeep(text: string): string | undefined {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // [ { open, ] } close (quotes ignored: a string of 100 unclosed brackets is refused too).
    if (c === 0x5b || c === 0x7b) max = Math.max(max, ++depth);
    else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
  }
  if (max > MAX_FLOW_DEPTH) return `nested more than ${MAX_FLOW_DEPTH} levels deep in [ ] or { }`;
  // Indentation, and the `- - -` of sequences nested on one line.
  for (const line of text.split(/\r?\n|\r/))
    if (/^[ \t?-]*/.exec(line)![0].length > MAX_INDENT) return `indented more than ${MAX_INDENT} columns`;
  return undefined;
}
