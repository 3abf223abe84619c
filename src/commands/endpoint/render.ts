// How Cloud Endpoints are printed, by get, create, update and webhook-verification replace: in
// a table its fields, then its Traffic Policy as YAML (secrets masked unless shown); a list
// one row per endpoint; JSON as the API returned it, secrets masked.
import type { Endpoint } from "../../api/endpoints.js";
import { escapeControl } from "../../text/escape.js";
import { MASK, shownData, shownPolicyText } from "../../output/mask.js";
import { printResult } from "../../output/print.js";
import type { Deps } from "../deps.js";
import { renderRecord, renderRows, type TableStyle } from "../../output/table.js";
import { mayBeJson } from "../../policy/text-format.js";
import { yamlText } from "../../output/yaml-write.js";
import { turn } from "../../io/checkpoint.js";

export function endpointRows(list: Endpoint[], style: boolean | TableStyle): string {
  return renderRows(
    ["ID", "URL", "TYPE", "DESCRIPTION"],
    list.map((e) => [e.id, e.url, e.type ?? "", e.description ?? ""]),
    style,
  );
}

/** The record, then `TRAFFIC POLICY` and the policy as YAML (a JSON policy turned into YAML). */
async function endpointRecord(e: Endpoint, show: boolean, color: boolean): Promise<string> {
  const record = renderRecord(
    [
      ["ID", e.id],
      ["URL", e.url],
      ["TYPE", e.type ?? ""],
      ["DESCRIPTION", e.description ?? ""],
      ["METADATA", e.metadata ?? ""],
      ["BINDINGS", (e.bindings ?? []).join(", ")],
      ["POOLING", e.pooling_enabled === undefined || e.pooling_enabled === null ? "" : String(e.pooling_enabled)],
      ["CREATED", e.created_at ?? ""],
      ["UPDATED", e.updated_at ?? ""],
      ["URI", e.uri ?? ""],
    ],
    color,
  );
  const text = e.traffic_policy ?? "";
  if (text.trim() === "") return record;
  return `${record}\nTRAFFIC POLICY\n${await policyYaml(text, show)}`;
}

/**
 * The policy as YAML, each line escaped (nothing in it can drive the terminal): a YAML text as
 * it is (comments kept), a JSON one converted; secrets masked in the text first.
 */
async function policyYaml(text: string, show: boolean): Promise<string> {
  const shown = await shownPolicyText(text, show);
  let yaml = shown;
  if (shown !== MASK && mayBeJson(shown)) {
    try {
      yaml = yamlText(JSON.parse(shown) as unknown);
    } catch {
      // YAML that starts like JSON (a flow mapping): shown as written.
    }
  }
  const lines = yaml.replace(/\r?\n$/, "").split(/\r?\n/);
  return `${lines.map(escapeControl).join("\n")}\n`;
}

/** JSON or YAML: `json` (one endpoint or a list) with secrets masked; table: each endpoint's record and policy. */
export async function printEndpoints(deps: Deps, json: unknown, list: Endpoint[], show: boolean): Promise<void> {
  // Masking a big policy takes a while: a signal meanwhile is heard before anything is printed.
  if (deps.settings.output !== "table") {
    const shown = await shownData(json, show);
    await turn();
    return printResult(deps, shown, () => "");
  }
  const color = deps.io.colorOn(deps.io.stdout);
  const blocks = await Promise.all(list.map((e) => endpointRecord(e, show, color)));
  await turn();
  printResult(deps, undefined, () => blocks.join("\n"));
}
