// --dry-run: show the request a command would send (secrets redacted) and send nothing.
import type { Method } from "../api/client.js";
import { redactText } from "../api/redact.js";
import { renderJson } from "../output/json.js";
import type { Deps } from "./deps.js";

export function printDryRun(deps: Pick<Deps, "io" | "settings">, method: Method, path: string, body?: unknown, secrets: string[] = []): void {
  const url = deps.settings.baseUrl + path;
  const request = { method, url, ...(body === undefined ? {} : { body }) };
  const text =
    deps.settings.output === "json"
      ? renderJson({ dry_run: true, request })
      : `${method} ${url}\n${body === undefined ? "" : renderJson(body)}`;
  deps.io.stdout.write(redactText(text, secrets));
}
