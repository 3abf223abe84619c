import type { Command } from "commander";
import type { Method } from "../../api/client.js";
import { maskSecretFields } from "../../api/redact.js";
import { maskSecretsIn } from "../../output/mask.js";
import { ApiError, UsageError } from "../../errors.js";
import { escapeControl } from "../../output/escape.js";
import { renderJson } from "../../output/json.js";
import type { AppContext, Deps } from "../deps.js";
import { printDryRun } from "../dry-run.js";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

export interface ApiOptions {
  method: Method;
  path: string;
  /** Parsed JSON body from --input. */
  body?: unknown;
  dryRun: boolean;
}

export function register(program: Command, app: AppContext): void {
  program
    .command("api")
    .description("Make an authenticated request to any API path and print the JSON answer (like `gh api`)")
    .argument("<method>", "GET, POST, PUT, PATCH or DELETE")
    .argument("<path>", "path below the base URL, e.g. /backends/failover?limit=5")
    .option("--input <file>", "JSON request body from a file, or - for stdin")
    .option("--dry-run", "print the request instead of sending it")
    .addHelpText(
      "after",
      `
The same settings, headers, retries and exit codes as every other command. For an error
status the API's error body is printed on stdout (as gh api does) and an error line on stderr.

Examples:
  $ edgectl api GET '/backends/failover?limit=5'
  $ edgectl api GET /backends/failover | jq -r '.backends[].id'
  $ echo '{"description":"eu"}' | edgectl api PATCH /backends/failover/bkdfo_2abc --input -`,
    )
    .action(async (method: string, path: string, opts: { input?: string; dryRun?: boolean }, cmd: Command) => {
      const deps = await app.deps(cmd);
      const upper = method.toUpperCase();
      if (!(METHODS as readonly string[]).includes(upper)) {
        throw new UsageError(`<method>: "${method}" must be one of ${METHODS.join(", ")}`);
      }
      if (/^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith("//")) {
        throw new UsageError(`<path>: give a path below the base URL (like /backends/failover), not a URL`);
      }
      if (path.trim() === "") throw new UsageError(`<path>: give a path below the base URL (like /backends/failover)`);
      // The URL parser drops tab, CR and LF (and trims other controls) before it resolves dot
      // segments: a path holding them does not mean what it reads as.
      if (/[\x00-\x1f\x7f]/.test(path)) throw new UsageError(`<path>: must not contain control characters (tab, line breaks, …)`);
      // Dot segments leave the base URL's prefix; so do their percent-encoded and backslash
      // forms, which URL parsing turns back into `..` and `/`.
      const pathPart = (path.split("?")[0] ?? "").replace(/%2e/gi, ".");
      if (pathPart.includes("\\") || /%5c/i.test(pathPart)) throw new UsageError(`<path>: must not contain backslashes`);
      if (/(^|\/|%2f)\.\.?(\/|%2f|$)/i.test(pathPart)) throw new UsageError(`<path>: must not contain . or .. segments`);
      const body = opts.input === undefined ? undefined : await readInput(opts.input, deps);
      if (body !== undefined && (upper === "GET" || upper === "DELETE")) {
        throw new UsageError(`--input: ${upper} requests carry no body`);
      }
      await run({ method: upper as Method, path: path.startsWith("/") ? path : `/${path}`, body, dryRun: Boolean(opts.dryRun) }, deps);
    });
}

async function readInput(source: string, deps: Deps): Promise<unknown> {
  let text: string;
  if (source === "-") {
    if (deps.io.stdin.isTTY) throw new UsageError("--input -: stdin is a terminal; pipe the JSON body in");
    text = await deps.readStdin();
  } else {
    try {
      text = await (await import("node:fs/promises")).readFile(source, "utf8");
    } catch (err) {
      throw new UsageError(`--input: cannot read ${source}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }
  try {
    return JSON.parse(text.replace(/^\ufeff/, "")); // a byte-order mark some editors write
  } catch (err) {
    // Not JSON.parse's own message: it quotes the input, which may hold a secret.
    const at = /position (\d+)/.exec((err as Error).message)?.[1];
    throw new UsageError(`--input: not valid JSON${at === undefined ? "" : ` (at character ${at})`}`);
  }
}

/**
 * The URL the request goes to, checked as finally parsed (not as the string reads): it must
 * stay on the base URL's origin and below its path, for the key goes with it.
 */
export function apiUrl(baseUrl: string, path: string): URL {
  const base = new URL(baseUrl);
  const url = new URL(baseUrl.replace(/\/+$/, "") + (path.startsWith("/") ? path : `/${path}`));
  const prefix = base.pathname.replace(/\/+$/, "");
  if (url.origin !== base.origin || (url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`))) {
    throw new UsageError(`<path>: leads to ${url.origin}${url.pathname}, which is not below the base URL ${base.origin}${prefix}; not sending the key there`);
  }
  return url;
}

export async function run(options: ApiOptions, deps: Deps): Promise<void> {
  const url = apiUrl(deps.settings.baseUrl, options.path);
  if (options.dryRun) return printDryRun(deps, options.method, options.path, options.body);
  const client = deps.client();
  try {
    const response = await client.request(options.method, url, { body: options.body });
    // Data as the API sent it (redacting the key would alter any value that holds its text);
    // only webhook secrets are masked, as in every other command's output.
    if (response.text.trim()) deps.io.stdout.write(await shown(response.text));
  } catch (err) {
    // An error body is the server's message, not a resource: redacted like every message.
    if (err instanceof ApiError && err.body?.trim()) deps.io.stdout.write(pretty(client.redact(err.body)));
    throw err;
  } finally {
    client.close();
  }
}

/** A success body: JSON with its webhook secrets masked (inside Traffic Policies too), pretty-printed. */
async function shown(text: string): Promise<string> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return pretty(maskSecretFields(text));
  }
  return renderJson(await maskSecretsIn(value));
}

/** JSON pretty-printed; anything else line by line with control characters escaped. */
function pretty(text: string): string {
  try {
    return renderJson(JSON.parse(text));
  } catch {
    return `${text.replace(/\r?\n$/, "").split(/\r?\n/).map(escapeControl).join("\n")}\n`;
  }
}
