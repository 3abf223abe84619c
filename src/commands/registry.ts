// The command tree, as data: one entry per full command path, in help order, like wrangler's
// `registry.define([{ command: "wrangler d1 list", definition }])`. A group (`failover`,
// `endpoint policy`) has its help; a command names the module that declares it
// (src/commands/<module>.ts, its export `export`) and what the README's command table says
// of it. Everything else is derived from this list: the commander tree (src/commands/root.ts,
// groups at any depth, only the modules a command line names loaded), completion (made from
// that tree), the per-word bundles (scripts/build.mjs imports this module and generates, for
// each first word, the module src/commands/tree.ts stands for) and the README's table
// (`npm run readme`; test/commands/registry.test.ts holds it). A new command is one entry here
// and its module; a new group, one entry more. This module imports nothing at run time: the
// build loads it on its own.

/** A command that only groups others: `edgectl failover`, `edgectl endpoint policy`. */
export interface GroupEntry {
  command: string;
  description: string;
  /** Example lines, `$ edgectl …`. */
  examples: readonly string[];
}

/** A command that runs: its module declares it with defineCommand. */
export interface CommandEntry {
  command: string;
  /** The module that declares it, from src/commands/ without the extension: `failover/create`. */
  module: string;
  /** The module's export that holds its definition. */
  export: string;
  /** It reads the whole tree (completion scripts are made from it): no bundle of its own. */
  wholeTree?: true;
  /** What follows the command's words in the README's table: its arguments and flags. */
  usage: string;
  /** The README's one-line summary (Markdown). */
  summary: string;
}

export type Entry = GroupEntry | CommandEntry;

export const isGroup = (entry: { command: string }): entry is GroupEntry => !("module" in entry);

export const REGISTRY: readonly Entry[] = [
  {
    command: "failover",
    description: "Manage Failover backends (an ordered list of child backends)",
    examples: [
      `$ edgectl failover create --backends bkdhr_primary,bkdhr_standby --description "eu pair"`,
      "$ edgectl failover list --all -o json | jq -r '.[].id'",
      "$ edgectl failover delete bkdfo_2abc --yes",
    ],
  },
  {
    command: "failover create",
    module: "failover/create",
    export: "create",
    usage: "--backends <id>[,<id>…] [--backends <id> …] [--description <text>] [--metadata <text>] [--dry-run]",
    summary:
      "`POST /backends/failover` with only the fields given; backends in the order given (comma lists and repeated flags concatenate)",
  },
  {
    command: "failover get",
    module: "failover/get",
    export: "get",
    usage: "<id>… \\| -",
    summary: "`GET /backends/failover/{id}` for each id (or ids from stdin, one per line)",
  },
  {
    command: "failover list",
    module: "failover/list",
    export: "list",
    usage: "[--limit <n>] [--all]",
    summary: "newest first; `--all` follows `next_page_uri` to the end",
  },
  {
    command: "failover update",
    module: "failover/update",
    export: "update",
    usage: "<id> [--backends …] [--description …] [--metadata …] [--dry-run]",
    summary: "`PATCH` with only the fields given (at least one)",
  },
  {
    command: "failover delete",
    module: "failover/delete",
    export: "del",
    usage: "<id>… \\| - [-y] [--dry-run]",
    summary: "`DELETE /backends/failover/{id}` for each id",
  },
  {
    command: "webhook-verification",
    description: "Manage the webhook verification module of HTTPS edge routes",
    examples: [
      "$ edgectl webhook-verification replace edghts_1 edghtsrt_1 --provider github --secret-file ./gh.secret",
      "$ edgectl webhook-verification get edghts_1 edghtsrt_1 -o json | jq -r .provider",
      "$ edgectl webhook-verification delete edghts_1 edghtsrt_1 --yes",
    ],
  },
  {
    command: "webhook-verification replace",
    module: "webhook-verification/replace",
    export: "replace",
    usage:
      "<edge-id> <route-id> --provider <name> [--secret-stdin \\| --secret-file <path> \\| --secret <value>] [--disabled] [--show-secret] [--dry-run]",
    summary: '`PUT …/webhook_verification` with `{"enabled","provider","secret"}` (no `secret` for `sns`)',
  },
  {
    command: "webhook-verification get",
    module: "webhook-verification/get",
    export: "get",
    usage: "<edge-id> <route-id> [--show-secret]",
    summary: "`GET …/webhook_verification`",
  },
  {
    command: "webhook-verification delete",
    module: "webhook-verification/delete",
    export: "del",
    usage: "<edge-id> <route-id> [-y] [--dry-run]",
    summary: "`DELETE …/webhook_verification`",
  },
  {
    command: "webhook",
    description: "Sign and verify webhook deliveries as each provider does (nothing is sent to ngrok)",
    examples: [
      "$ edgectl webhook providers",
      `$ edgectl webhook sign --provider github --secret s3cret --body '{"a":1}'`,
      "$ edgectl webhook verify --provider stripe --request-file delivery.http --secret whsec_test --now 1700000010",
    ],
  },
  {
    command: "webhook providers",
    module: "webhook/providers",
    export: "providers",
    usage: "",
    summary: "every provider of ngrok's list: whether edgectl signs and verifies it, its headers, tolerance and source",
  },
  {
    command: "webhook sign",
    module: "webhook/sign",
    export: "sign",
    usage:
      "--provider <p> (--body <text> \\| --body-file <f> \\| -) [--secret-stdin \\| --secret-file <f> \\| --secret <v> \\| --private-key-file <f>] [--url <url>] [--timestamp <unix>] [--content-type <t>] [--id <id>] [--send] [--show-secret]",
    summary:
      "the headers a real delivery of the body carries (`Name: value` lines; `-o json` `{method, url, headers, body}`); `--send` POSTs it to `--url`: exit 0 on 2xx, 1 otherwise",
  },
  {
    command: "webhook verify",
    module: "webhook/verify",
    export: "verify",
    usage:
      "--provider <p> --request-file <f>\\|- [--secret-stdin \\| --secret-file <f> \\| --secret <v> \\| --public-key-file <f>] [--url <url>] [--now <unix>]",
    summary:
      "a raw HTTP/1.1 request → `verified` (exit 0) or `not verified: <check>: <why>` (exit 1): missing header, other bytes signed, stale timestamp, URL, kind of secret",
  },
  {
    command: "endpoint",
    description: "Manage Cloud Endpoints and their Traffic Policy",
    examples: [
      "$ edgectl endpoint create --url https://shop.example.com --traffic-policy-file policy.yml",
      "$ edgectl endpoint list --all -o json | jq -r '.[].url'",
      "$ edgectl endpoint get ep_2abc",
      "$ edgectl endpoint delete ep_2abc --yes",
    ],
  },
  {
    command: "endpoint create",
    module: "endpoint/create",
    export: "create",
    usage:
      "--url <url> --traffic-policy-file <file>\\|- [--description …] [--metadata …] [--binding public\\|internal] [--pooling] [--dry-run]",
    summary:
      '`POST /endpoints` `{"type":"cloud","url","traffic_policy":<the file\'s text>,…}` once the URL and policy pass the validator',
  },
  {
    command: "endpoint get",
    module: "endpoint/get",
    export: "get",
    usage: "<ep-id>… \\| - [--show-secret]",
    summary: "`GET /endpoints/{id}` for each id; the table shows the Traffic Policy as YAML",
  },
  {
    command: "endpoint list",
    module: "endpoint/list",
    export: "list",
    usage: "[--limit <n>] [--all] [--show-secret]",
    summary: "`GET /endpoints`, newest first (table: id, url, type, description; JSON: one array)",
  },
  {
    command: "endpoint update",
    module: "endpoint/update",
    export: "update",
    usage: "<ep-id> [--url …] [--traffic-policy-file …] [--description …] [--metadata …] [--dry-run]",
    summary: "`PATCH /endpoints/{id}` with only the fields given (at least one)",
  },
  {
    command: "endpoint delete",
    module: "endpoint/delete",
    export: "del",
    usage: "<ep-id>… \\| - [-y] [--dry-run]",
    summary: "`DELETE /endpoints/{id}` for each id, confirmed like `failover delete`",
  },
  {
    command: "endpoint webhook-verification",
    description: "Set the verify-webhook action of an endpoint's Traffic Policy",
    examples: ["$ edgectl endpoint webhook-verification replace ep_2abc --provider github --secret-file ./gh.secret"],
  },
  {
    command: "endpoint webhook-verification replace",
    module: "endpoint/webhook-verification",
    export: "replace",
    usage:
      "<ep-id> --provider <name> [--secret-stdin \\| --secret-file <path> \\| --secret <value>] [--rule <name>] [--dry-run]",
    summary: "sets `provider` and `secret` of the policy's `verify-webhook` action and `PATCH`es `traffic_policy`",
  },
  {
    command: "endpoint policy",
    description: "Read an endpoint's Traffic Policy",
    examples: ["$ edgectl endpoint policy get ep_2abc > policy.yml"],
  },
  {
    command: "endpoint policy get",
    module: "endpoint/policy/get",
    export: "get",
    usage: "<ep-id> [--show-secret]",
    summary:
      '`GET /endpoints/{id}`: the Traffic Policy text alone, as stored, secrets masked; JSON: `{"id","traffic_policy"}`',
  },
  {
    command: "export",
    module: "export/export",
    export: "exportCommand",
    usage: "[--show-secret]",
    summary:
      "every HTTPS, TLS and TCP edge (routes and modules included) and every backend of the five kinds, all pages, as one JSON document; webhook secrets, OAuth/OIDC client secrets and policy secrets masked (see [Leaving Edges](#leaving-edges))",
  },
  {
    command: "migrate",
    description: "Move retired ngrok resources to their replacements (an HTTPS edge to Cloud Endpoints)",
    examples: [
      "$ edgectl export > edges-backup.json",
      "$ edgectl migrate edge edghts_2abc",
      "$ edgectl migrate edge edghts_2abc --apply",
    ],
  },
  {
    command: "migrate edge",
    module: "migrate/edge",
    export: "edge",
    usage:
      "<edge-id>… \\| --all [--map <backend-id>=<url>]… [--show-secret] [--apply [--allow-partial]] [--dry-run] [--verify]",
    summary:
      "plans the Cloud Endpoints (one per hostport, with a Traffic Policy) that replace HTTPS, TLS and TCP edges, reading with GETs only; `--apply` creates them with `POST /endpoints`; `--verify` sends generated requests through a model of each edge and through its plan (exit 1 when the plan lets through or reroutes what the edge did not)",
  },
  {
    command: "policy",
    description:
      "Check and test a Traffic Policy locally, with the same rules as the endpoint commands and the emulator",
    examples: [
      "$ edgectl policy check policy.yml",
      "$ edgectl policy check tcp-policy.json --protocol tcp",
      "$ edgectl migrate edge edghts_2abc | edgectl policy check -",
      '$ edgectl policy test policy.yml --request "GET https://example.com/admin"',
    ],
  },
  {
    command: "policy check",
    module: "policy/check",
    export: "check",
    usage: "<file>\\|- [--protocol https\\|http\\|tls\\|tcp] [--internal \\| --agent] [--strict]",
    summary:
      "checks a Traffic Policy (JSON or YAML) and its CEL for a public (or internal, or agent) endpoint of that protocol, default `https`; sends nothing, needs no key; `ok` and exit 0, or every problem and exit 2; warnings on stderr, problems with `--strict` (see [Traffic Policy checks](#traffic-policy-checks))",
  },
  {
    command: "policy test",
    module: "policy/test",
    export: "test",
    usage:
      '<policy>\\|- (--request "<METHOD> <URL>" [-H "Name: value"]… [--body <text>\\|--body-file <file>] [--client-ip <ip>] [--time <RFC 3339>] [--sign <provider> --secret-stdin\\|--secret-file\\|--secret] [--identity <key>=<value>]… [--upstream-status <n>] [--show-secret] \\| --cases <file>) [--protocol …] [--internal\\|--agent]',
    summary:
      "works out what the policy does to a request, locally: the trace (each rule, each expression's value, each action's resolved config, secrets masked), the outcome and its cost in Traffic Policy units; `--cases` runs a cases file, `PASS`/`FAIL` per case, exit 1 when one fails (see [Traffic Policy](#traffic-policy))",
  },
  {
    command: "auth",
    description: "Log in, check and log out (the API key of a profile)",
    examples: [
      "$ edgectl auth login",
      "$ printenv NGROK_API_KEY | edgectl auth login --with-token --profile ci",
      "$ edgectl auth status -o json | jq -r .api_key_source",
    ],
  },
  {
    command: "auth login",
    module: "auth/login",
    export: "login",
    usage: "[--with-token] [--no-verify]",
    summary:
      "store the API key of the active profile (from stdin, or asked for without echo on a terminal) once one read (`GET /endpoints?limit=1`) shows the API takes it: refused, exit 4; no answer, exit 3; nothing stored either way (`--no-verify` skips the read); creates the profile",
  },
  {
    command: "auth status",
    module: "auth/status",
    export: "status",
    usage: "",
    summary: "show the active profile's API key (masked) and where it came from",
  },
  {
    command: "auth logout",
    module: "auth/logout",
    export: "logout",
    usage: "",
    summary: "remove the API key of the active profile",
  },
  {
    command: "config",
    description: "Read and change settings of the active profile (api_key, base_url, output, timeout, retries)",
    examples: [
      "$ edgectl config set base_url http://127.0.0.1:4040",
      "$ edgectl config set output json --profile ci",
      "$ edgectl config list",
      `$ cat "$(edgectl config path)"`,
    ],
  },
  {
    command: "config get",
    module: "config/verbs",
    export: "getVerb",
    usage: "<key>",
    summary: "a setting of the active profile",
  },
  {
    command: "config set",
    module: "config/verbs",
    export: "setVerb",
    usage: "<key> <value>",
    summary: "change a setting of the active profile (creating the profile if the config file does not hold it)",
  },
  {
    command: "config unset",
    module: "config/verbs",
    export: "unsetVerb",
    usage: "<key>",
    summary: "remove a setting of the active profile",
  },
  {
    command: "config list",
    module: "config/verbs",
    export: "listVerb",
    usage: "",
    summary: "the settings of the active profile",
  },
  {
    command: "config path",
    module: "config/verbs",
    export: "pathVerb",
    usage: "",
    summary: "the config file's path",
  },
  {
    command: "api",
    module: "api/api",
    export: "api",
    usage: "<METHOD> <path> [--input <file>\\|-] [--dry-run] [--show-secret]",
    summary: "a raw authenticated request, like `gh api`; secrets in the answer masked unless `--show-secret`",
  },
  {
    command: "emulator",
    module: "emulator/emulator",
    export: "emulator",
    usage:
      "[--host 127.0.0.1] [--port <n>] [--state <file>] [--api-key <key>] [--rate-limit <n>/<seconds>] [--edges retired\\|read-only] [--traffic-port <n> [--upstream <url>=<local-url>]… [--jwks <url>=<file>]… [--log-requests <file>]]",
    summary: "the local API stand-in; with `--traffic-port`, its Cloud Endpoints serve traffic, policies and all",
  },
  {
    command: "completion",
    module: "completion/completion",
    export: "completion",
    wholeTree: true,
    usage: "bash\\|zsh\\|fish",
    summary: "a shell completion script on stdout",
  },
  {
    command: "help",
    module: "help/help",
    export: "help",
    wholeTree: true,
    usage: "[<command>…] \\| environment",
    summary:
      "a command's help as `<command> --help` prints it, at any depth (`help endpoint policy get`); `help environment`: every environment variable edgectl reads",
  },
];

/** The command table of README.md ("Command reference"): one row per command that runs, in help order. */
export function commandTable(registry: readonly Entry[] = REGISTRY): string {
  const rows = registry
    .filter((e): e is CommandEntry => !isGroup(e))
    .map((e) => `| \`edgectl ${e.command}${e.usage ? ` ${e.usage}` : ""}\` | ${e.summary} |`);
  return ["| command | what it does |", "|---|---|", ...rows].join("\n") + "\n";
}
