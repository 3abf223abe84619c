// Sets the provider and secret of one verify-webhook action in a Traffic Policy text, keeping
// every other byte of meaning: JSON stays JSON and YAML stays YAML (comments and layout kept);
// an existing value is replaced where it stands. The result is read back and must be the
// policy given with those two values changed, or nothing is sent.
import { isDeepStrictEqual } from "node:util";
import { InternalError, UsageError } from "../../errors.js";
import { escapeControl } from "../../text/escape.js";
import { locateJson, type JsonNode } from "../../output/json-ranges.js";
import { yamlQuoted } from "../../output/yaml-write.js";
import { MASK } from "../../secrets/index.js";

type Path = (string | number)[];

/** A verify-webhook action: where it is, and the rule it is in. */
interface Found {
  path: Path;
  rule: string;
  ruleName?: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

function findVerifyWebhooks(document: Record<string, unknown>): Found[] {
  const found: Found[] = [];
  for (const [phase, rules] of Object.entries(document)) {
    if (!Array.isArray(rules)) continue;
    rules.forEach((rule: unknown, i) => {
      if (!isRecord(rule) || !Array.isArray(rule.actions)) return;
      const ruleName = typeof rule.name === "string" ? rule.name : undefined;
      rule.actions.forEach((action: unknown, j) => {
        if (isRecord(action) && action.type === "verify-webhook")
          found.push({
            path: [phase, i, "actions", j],
            rule: ruleName === undefined ? `${phase}[${i}] (no name)` : JSON.stringify(ruleName),
            ruleName,
          });
      });
    });
  }
  return found;
}

/** The one action to change: in the rule named `rule`, or the only one in the policy. */
function choose(found: Found[], rule: string | undefined): Found {
  const rules = (list: Found[]) => [...new Set(list.map((f) => f.rule))].map(escapeControl).join(", ");
  const candidates = rule === undefined ? found : found.filter((f) => f.ruleName === rule);
  if (candidates.length === 1) return candidates[0]!;
  if (rule === undefined) {
    if (found.length === 0) throw new UsageError("the endpoint's Traffic Policy has no verify-webhook action");
    throw new UsageError(
      `the endpoint's Traffic Policy has ${found.length} verify-webhook actions, in rules ${rules(found)}: name one with --rule`,
    );
  }
  if (candidates.length === 0)
    throw new UsageError(
      `--rule: no rule named ${escapeControl(JSON.stringify(rule))} holds a verify-webhook action${found.length ? ` (rules that do: ${rules(found)})` : " (the policy has none)"}`,
    );
  throw new UsageError(
    `--rule: ${candidates.length} verify-webhook actions in rules named ${escapeControl(JSON.stringify(rule))}; edit the policy with \`edgectl endpoint update --traffic-policy-file\``,
  );
}

/** The JSON node at `path`, or undefined (the last of a repeated key, as JSON.parse reads it). */
function nodeAt(root: JsonNode, path: Path): JsonNode | undefined {
  let node: JsonNode | undefined = root;
  for (const step of path) {
    if (node?.kind === "object") node = node.entries.filter(([k]) => k === step).at(-1)?.[1];
    else if (node?.kind === "array" && typeof step === "number") node = node.items[step];
    else return undefined;
  }
  return node;
}

/** The JSON text with the object at `path` holding `key` = `json` (replaced where it stands, else added). */
function setJsonMember(text: string, path: Path, key: string, json: string): string {
  const object = nodeAt(locateJson(text), path);
  if (object?.kind !== "object") throw new Error(`${path.join(".")} is not an object`);
  const same = object.entries.filter(([k]) => k === key).map(([, v]) => v);
  if (same.length > 0) {
    let out = text;
    for (const v of same.sort((a, b) => b.start - a.start)) out = out.slice(0, v.start) + json + out.slice(v.end);
    return out;
  }
  const last = object.entries.at(-1)?.[1];
  const at = last ? last.end : object.start + 1;
  const member = `${last ? ", " : ""}${JSON.stringify(key)}: ${json}`;
  return text.slice(0, at) + member + text.slice(at);
}

export interface Edited {
  text: string;
  /** The action's live secret was kept (a `--secret ********`). */
  kept: boolean;
  /** The rule the action is in, as messages name it. */
  rule: string;
}

/**
 * The policy text with that action's provider and secret set; `secret` undefined keeps the
 * secret the action holds (a `--secret ********`: the mask edgectl prints), exit 2 when it holds
 * none. A byte-order mark is kept, and read past.
 */
export async function setVerifyWebhook(
  text: string,
  provider: string,
  secret: string | undefined,
  rule: string | undefined,
): Promise<Edited> {
  const bom = text.startsWith("\ufeff") ? "\ufeff" : "";
  const body = text.slice(bom.length);
  let json = true;
  let document: unknown;
  try {
    document = JSON.parse(body);
  } catch {
    json = false;
    try {
      document = (await import("../../policy/yaml.js")).yamlValue(body);
    } catch {
      throw new UsageError(
        "the endpoint's Traffic Policy is neither JSON nor YAML; replace it whole with `edgectl endpoint update --traffic-policy-file`",
      );
    }
  }
  if (!isRecord(document)) throw new UsageError("the endpoint's Traffic Policy is not a policy (an object of phases)");
  const target = choose(findVerifyWebhooks(document), rule);
  const configPath = [...target.path, "config"];
  let action: unknown = document;
  for (const step of target.path) action = (action as Record<string | number, unknown>)[step];
  const config = (action as Record<string, unknown>).config;
  const live = isRecord(config) ? config.secret : undefined;
  if (secret === undefined && (live === undefined || live === null || live === "" || live === MASK))
    throw new UsageError(
      `--secret: "${MASK}" is the mask edgectl prints, not a secret, and the verify-webhook action of rule ${escapeControl(target.rule)} holds no secret to keep; give the secret itself`,
    );
  const values: [string, string][] = [["provider", provider]];
  if (secret !== undefined) values.push(["secret", secret]);
  let edited: string;
  try {
    if (json) {
      const located = nodeAt(locateJson(body), configPath);
      edited = body;
      if (located?.kind === "object")
        for (const [key, value] of [...values].reverse())
          edited = setJsonMember(edited, configPath, key, JSON.stringify(value));
      else edited = setJsonMember(body, target.path, "config", JSON.stringify(Object.fromEntries(values)));
    } else {
      const { setYamlValues } = await import("../../output/yaml-text.js");
      edited = setYamlValues(body, configPath, values, (key, value) =>
        key === "provider" && /^[a-z][a-z0-9_]*$/.test(value) ? value : yamlQuoted(value),
      );
    }
  } catch (err) {
    throw new UsageError(
      `cannot edit the verify-webhook action of rule ${target.rule} in place (${(err as Error).message}); edit the policy with \`edgectl endpoint update --traffic-policy-file\``,
    );
  }
  // Read back: the policy given, with exactly those values changed.
  const expected = structuredClone(document);
  let copy: unknown = expected;
  for (const step of target.path) copy = (copy as Record<string | number, unknown>)[step];
  const a = copy as Record<string, unknown>;
  a.config = { ...(isRecord(a.config) ? a.config : {}), ...Object.fromEntries(values) };
  const back: unknown = json ? JSON.parse(edited) : (await import("../../policy/yaml.js")).yamlValue(edited);
  if (!isDeepStrictEqual(back, expected))
    throw new InternalError("the edited Traffic Policy does not read back as intended; nothing was sent");
  return { text: bom + edited, rule: target.rule, kept: secret === undefined };
}
