// The yaml library, bundled apart (dist/yaml-text.cjs) and required only when a policy is
// printed as YAML or a YAML policy's secrets are masked, so no other command parses it at start-up.
import { isScalar, parseDocument, stringify, visit } from "yaml";

export function yamlText(value: unknown): string {
  // No aliases: the same action object may appear twice and must read as written out.
  return stringify(value, { aliasDuplicateObjects: false, lineWidth: 0 });
}

/**
 * The YAML text with every non-empty `secret` and `client_secret` value replaced by `mask`, comments and layout
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
        (pair.key.value === "secret" || pair.key.value === "client_secret") &&
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
  return (changed as boolean) ? doc.toString({ lineWidth: 0 }) : text;
}
