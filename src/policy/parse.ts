// A Traffic Policy text (JSON or YAML) parsed into a document for the validator. JSON first
// (what the API stores and edgectl sends), then YAML, read by the yaml library as every YAML
// text of the tool is (src/policy/yaml.ts, loaded only then).
import { checkPolicy, loadCel, type Problem, type Target } from "./index.js";
import { MAX_NESTING, mayBeJson, nestsDeeperThanLimit } from "./text-format.js";
import type { Pause } from "./yaml.js";

export type Parsed = { ok: true; document: unknown } | { ok: false; problems: Problem[] };

const notParsed = (message: string): Parsed => ({
  ok: false,
  problems: [{ path: "", message, code: "ERR_NGROK_2201" }],
});

/**
 * `pause`, when given, is called while a YAML text is read (src/policy/yaml.ts's
 * yamlDocumentPausing): a command passes its checkpoint so that a long read hears a signal.
 */
export async function parsePolicyText(text: string, pause?: Pause): Promise<Parsed> {
  const body = text.replace(/^\ufeff/, ""); // a byte-order mark some editors write
  if (body.trim() === "") return notParsed("the policy is empty");
  if (mayBeJson(body))
    try {
      const document = JSON.parse(body) as unknown;
      // The contract's limit, as for YAML: deeper is a problem of the policy (and no walk of
      // masking or checking is handed a document deeper than this).
      if (nestsDeeperThanLimit(document)) return notParsed(`nested more than ${MAX_NESTING} levels deep`);
      await loadCel(document);
      return { ok: true, document };
    } catch {
      // Text that starts like JSON but is not is most likely broken JSON; YAML (a superset) says where.
    }
  const { readYaml, readYamlPausing } = await import("./yaml.js");
  const result = pause ? await readYamlPausing(body, pause) : readYaml(body);
  if (!result.ok) return notParsed(`not valid JSON or YAML: ${result.message}`);
  // The CEL checker, for the validator that takes this document next (src/policy/index.ts).
  await loadCel(result.value);
  return { ok: true, document: result.value };
}

/** Parses and checks a policy text for that endpoint: every problem, none when valid. */
export async function checkPolicyText(text: string, target: Target): Promise<Problem[]> {
  const parsed = await parsePolicyText(text);
  return parsed.ok ? checkPolicy(parsed.document, target) : parsed.problems;
}
