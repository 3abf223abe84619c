// --dry-run: show the request a command would send (secrets redacted) and send nothing.
import type { Method } from "../api/client.js";
import { redactText } from "../api/redact.js";
import { renderJson } from "../output/json.js";
import type { Deps } from "./deps.js";

export interface DryRunRequest {
  method: Method;
  path: string;
  body?: unknown;
}

function requestObject(deps: Pick<Deps, "settings">, { method, path, body }: DryRunRequest) {
  const url = deps.settings.baseUrl + path;
  return { dry_run: true, request: { method, url, ...(body === undefined ? {} : { body }) } };
}

function requestText(deps: Pick<Deps, "settings">, { method, path, body }: DryRunRequest): string {
  return `${method} ${deps.settings.baseUrl + path}\n${body === undefined ? "" : renderJson(body)}`;
}

export function printDryRun(
  deps: Pick<Deps, "io" | "settings">,
  method: Method,
  path: string,
  body?: unknown,
  secrets: string[] = [],
): void {
  const request = { method, path, body };
  const text = deps.settings.output === "json" ? renderJson(requestObject(deps, request)) : requestText(deps, request);
  deps.io.stdout.write(redactText(text, secrets));
}

/**
 * Several requests (a batch): with -o json ONE document, an array of what printDryRun prints
 * for each; as text each request in turn. One write, like printResult.
 */
export function printDryRuns(
  deps: Pick<Deps, "io" | "settings">,
  requests: DryRunRequest[],
  secrets: string[] = [],
): void {
  const text =
    deps.settings.output === "json"
      ? renderJson(requests.map((r) => requestObject(deps, r)))
      : requests.map((r) => requestText(deps, r)).join("");
  deps.io.stdout.write(redactText(text, secrets));
}
