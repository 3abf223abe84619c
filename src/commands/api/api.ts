import * as z from "zod/mini";
import type { Method } from "../../api/client.js";
import { maskSecretFields } from "../../api/redact.js";
import { maskSecretsIn } from "../../output/mask.js";
import { ApiError, UsageError } from "../../errors.js";
import { escapeControl } from "../../text/escape.js";
import { renderJson } from "../../output/json.js";
import { defineCommand } from "../define.js";
import type { Deps } from "../deps.js";
import { printDryRun } from "../dry-run.js";
import { readTextSource, switchValue, unquoted } from "../input.js";
import { turn } from "../../io/checkpoint.js";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

export interface ApiOptions {
  method: Method;
  path: string;
  /** Parsed JSON body from --input. */
  body?: unknown;
  dryRun: boolean;
  /** Print secrets (webhook, OAuth/OIDC client, policy) instead of ********. */
  showSecret?: boolean;
}

const notUrl = (path: string) => !(/^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith("//"));
// Dot segments leave the base URL's prefix; so do their percent-encoded and backslash forms,
// which URL parsing turns back into `..` and `/`.
const pathPart = (path: string) => (path.split("?")[0] ?? "").replace(/%2e/gi, ".");

const args = {
  method: {
    arg: "<method>",
    help: "GET, POST, PUT, PATCH or DELETE",
    schema: () =>
      z.pipe(
        z
          .string()
          .check(
            z.refine(
              (v) => (METHODS as readonly string[]).includes(v.toUpperCase()),
              `must be one of ${METHODS.join(", ")}`,
            ),
          ),
        z.transform((v) => v.toUpperCase() as Method),
      ),
  },
  path: {
    arg: "<path>",
    help: "path below the base URL, e.g. /backends/failover?limit=5",
    // Not quoted back in messages: a path may hold a token in its query.
    schema: () =>
      z.pipe(
        z.string().check(
          z.refine(notUrl, unquoted("give a path below the base URL (like /backends/failover), not a URL")),
          z.refine((v) => v.trim() !== "", unquoted("give a path below the base URL (like /backends/failover)")),
          // The URL parser drops tab, CR and LF (and trims other controls) before it resolves dot
          // segments: a path holding them does not mean what it reads as.
          z.refine(
            (v) => !/[\x00-\x1f\x7f]/.test(v),
            unquoted("must not contain control characters (tab, line breaks, …)"),
          ),
          z.refine(
            (v) => !pathPart(v).includes("\\") && !/%5c/i.test(pathPart(v)),
            unquoted("must not contain backslashes"),
          ),
          z.refine(
            (v) => !/(^|\/|%2f)\.\.?(\/|%2f|$)/i.test(pathPart(v)),
            unquoted("must not contain . or .. segments"),
          ),
        ),
        z.transform((v) => (v.startsWith("/") ? v : `/${v}`)),
      ),
  },
};

export const api = defineCommand({
  name: "api",
  description: "Make an authenticated request to any API path and print the JSON answer (like `gh api`)",
  args,
  flags: {
    input: {
      flag: "--input <file>",
      help: "JSON request body from a file, or - for stdin",
      schema: () => z.optional(z.string()),
      complete: "file",
    },
    dryRun: { flag: "--dry-run", help: "print the request instead of sending it", ...switchValue() },
    showSecret: {
      flag: "--show-secret",
      help: "print secrets in the answer (webhook, OAuth/OIDC client, policy) instead of ********",
      ...switchValue(),
    },
  },
  rules: [
    {
      ok: (o) => o.input === undefined || (o.method !== "GET" && o.method !== "DELETE"),
      message: (o) => `--input: ${o.method} requests carry no body`,
    },
  ],
  about: `The same settings, headers, retries and exit codes as every other command. For an error
status the API's error body is printed on stdout (as gh api does) and an error line on stderr.`,
  examples: [
    "$ edgectl api GET '/backends/failover?limit=5'",
    "$ edgectl api GET /backends/failover | jq -r '.backends[].id'",
    `$ echo '{"description":"eu"}' | edgectl api PATCH /backends/failover/bkdfo_2abc --input -`,
  ],
  run: async ({ input, ...options }, deps) =>
    run({ ...options, body: input === undefined ? undefined : await readInput(input, deps) }, deps),
});

async function readInput(source: string, deps: Deps): Promise<unknown> {
  const text = await readTextSource(
    source,
    { label: "--input", atTerminal: "--input -: stdin is a terminal; pipe the JSON body in" },
    deps,
  );
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
    throw new UsageError(
      `<path>: leads to ${url.origin}${url.pathname}, which is not below the base URL ${base.origin}${prefix}; not sending the key there`,
    );
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
    // only secrets are masked (by structure), as in every other command's output.
    if (response.text.trim())
      deps.io.stdout.write(options.showSecret ? pretty(response.text) : await shown(response.text, options.path));
  } catch (err) {
    // An error body is the server's message, not a resource: redacted like every message.
    if (err instanceof ApiError && err.body?.trim()) deps.io.stdout.write(pretty(client.redact(err.body)));
    throw err;
  } finally {
    client.close();
  }
}

/**
 * A success body: JSON with its secrets masked by structure (webhook and OAuth/OIDC client
 * secrets, and every secret place of a Traffic Policy it carries: an endpoint's, a route's or
 * an edge's module, the module itself when `path` names it), pretty-printed.
 */
async function shown(text: string, path: string): Promise<string> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return pretty(maskSecretFields(text));
  }
  const masked = await maskSecretsIn(value, path);
  await turn(); // masking a big policy takes a while: a signal meanwhile is heard first (src/io/checkpoint.ts)
  return renderJson(masked);
}

/** JSON pretty-printed; anything else line by line with control characters escaped. */
function pretty(text: string): string {
  try {
    return renderJson(JSON.parse(text));
  } catch {
    return `${text
      .replace(/\r?\n$/, "")
      .split(/\r?\n/)
      .map(escapeControl)
      .join("\n")}\n`;
  }
}
