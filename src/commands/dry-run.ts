// --dry-run: show the request a command would send (secrets masked) and send nothing. The body
// is masked by structure (src/output/mask.ts): a secret's own value, never text that looks like it.
import type { Method } from "../api/client.js";
import { turn } from "../io/checkpoint.js";
import { renderJson } from "../output/json.js";
import { maskSecretsIn } from "../output/mask.js";
import { renderData } from "../output/print.js";
import type { Deps } from "./deps.js";

export interface DryRunRequest {
  method: Method;
  path: string;
  body?: unknown;
}

async function requestObject(deps: Pick<Deps, "settings">, { method, path, body }: DryRunRequest) {
  const url = deps.settings.baseUrl + path;
  return {
    dry_run: true,
    request: { method, url, ...(body === undefined ? {} : { body: await maskSecretsIn(body, path) }) },
  };
}

async function requestText(deps: Pick<Deps, "settings">, { method, path, body }: DryRunRequest): Promise<string> {
  return `${method} ${deps.settings.baseUrl + path}\n${body === undefined ? "" : renderJson(await maskSecretsIn(body, path))}`;
}

export async function printDryRun(
  deps: Pick<Deps, "io" | "settings">,
  method: Method,
  path: string,
  body?: unknown,
): Promise<void> {
  const request = { method, path, body };
  const { output } = deps.settings;
  const text =
    output === "table" ? await requestText(deps, request) : renderData(output, await requestObject(deps, request));
  await turn(); // masking a big policy takes a while: a signal meanwhile is heard first (src/io/checkpoint.ts)
  deps.io.stdout.write(text);
}

/**
 * Several requests (a batch): with -o json (or yaml) ONE document, an array of what printDryRun prints
 * for each; as text each request in turn. One write, like printResult.
 */
export async function printDryRuns(deps: Pick<Deps, "io" | "settings">, requests: DryRunRequest[]): Promise<void> {
  const { output } = deps.settings;
  const text =
    output === "table"
      ? (await Promise.all(requests.map((r) => requestText(deps, r)))).join("")
      : renderData(output, await Promise.all(requests.map((r) => requestObject(deps, r))));
  await turn();
  deps.io.stdout.write(text);
}
