// The yaml library, bundled apart (dist/yaml-text.cjs, like conf-store) and required only
// when a policy is printed as YAML, so no other command parses it at start-up.
import { stringify } from "yaml";

export function yamlText(value: unknown): string {
  // No aliases: the same action object may appear twice and must read as written out.
  return stringify(value, { aliasDuplicateObjects: false, lineWidth: 0 });
}
