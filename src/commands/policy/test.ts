// `policy test`: what a Traffic Policy does to a request, worked out locally (contract,
// "Testing a policy"). The policy is read and checked as `policy check` does (same parse, same
// validator: a policy with problems is exit 2 with them), then run through the evaluator of
// src/policy/evaluate: one request (--request) and its trace, or a cases file (--cases) with a
// PASS/FAIL line per case, as a test runner prints them.
import * as z from "zod/mini";
import { CheckFailedError, UsageError } from "../../errors.js";
import { every, turn } from "../../io/checkpoint.js";
import { renderData } from "../../output/print.js";
import type { EvalContext, EvalRequest, TraceEntry } from "../../policy/evaluate/index.js";
import type { Problem, Protocol } from "../../policy/index.js";
import { escapeControl } from "../../text/escape.js";
import { secretFlags, readSecret } from "../webhook-verification/secret-input.js";
import { defineCommand, type OptionsOf } from "../define.js";
import type { Deps } from "../deps.js";
import { readFileBytes, readFileText, readTextSource, switchValue } from "../input.js";
import { RFC3339, caseRequest, compare, evaluate, type CasesFile, type Got } from "./cases.js";
import { line } from "./check.js";
import { loadSchemes, loadSigner, type SchemeLookup } from "./schemes.js";

const PROTOCOLS = ["https", "http", "tls", "tcp"] as const;
/** The client address when none is given: 192.0.2.1, of the block kept for documentation (RFC 5737). */
export const DEFAULT_CLIENT_IP = "192.0.2.1";
const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];
const text = () => z.optional(z.string());

const args = {
  policy: {
    arg: "<policy>",
    help: "the policy (JSON or YAML), or - for stdin",
    complete: "file" as const,
    schema: () => z.string().check(z.minLength(1, "give a file, or - for stdin")),
  },
};
const flags = {
  request: {
    flag: "--request <request>",
    help: 'the request: "<METHOD> <URL>", e.g. "GET https://example.com/a?b=1"',
    schema: text,
  },
  header: {
    flag: "-H, --header <header>",
    help: 'a request header, "Name: value" (repeatable)',
    repeat: collect,
    schema: () => z.optional(z.array(z.string())),
  },
  body: { flag: "--body <text>", help: "the request's body", schema: text },
  bodyFile: {
    flag: "--body-file <file>",
    help: "the request's body, from a file",
    complete: "file" as const,
    schema: text,
  },
  clientIp: { flag: "--client-ip <ip>", help: `the client's address (default ${DEFAULT_CLIENT_IP})`, schema: text },
  time: { flag: "--time <time>", help: "the request's time, RFC 3339 (default now)", schema: text },
  sign: {
    flag: "--sign <provider>",
    help: "sign the request as that webhook provider would, with the secret given",
    schema: text,
  },
  secretStdin: secretFlags.secretStdin,
  secretFile: secretFlags.secretFile,
  secret: secretFlags.secret,
  identity: {
    flag: "--identity <key=value>",
    help: "the identity oauth/openid-connect has signed in (repeatable: --identity email=ann@example.com)",
    repeat: collect,
    schema: () => z.optional(z.array(z.string())),
  },
  upstreamStatus: {
    flag: "--upstream-status <n>",
    help: "the status the upstream answers a forwarded request with (on_http_response runs over it)",
    default: "200",
    schema: () =>
      z.pipe(
        z.string().check(z.regex(/^[1-5]\d\d$/, "must be an HTTP status from 100 to 599")),
        z.transform((v) => Number(v)),
      ),
  },
  showSecret: { flag: "--show-secret", help: "show the secrets of the policy in the trace", ...switchValue() },
  cases: {
    flag: "--cases <file>",
    help: "run a cases file (YAML or JSON) instead of one request",
    complete: "file" as const,
    schema: text,
  },
  protocol: {
    flag: "--protocol <protocol>",
    help: "the endpoint's protocol: https, http, tls or tcp",
    default: "https",
    schema: () => z.enum(PROTOCOLS, "must be https, http, tls or tcp"),
    complete: PROTOCOLS,
  },
  internal: { flag: "--internal", help: "an internal endpoint (*.internal)", ...switchValue() },
  agent: { flag: "--agent", help: "an agent endpoint: requests no rule ends go to the agent", ...switchValue() },
};
export type TestOptions = OptionsOf<typeof args, typeof flags>;

export const test = defineCommand({
  name: "test",
  description: "Work out what a Traffic Policy does to a request (nothing is sent)",
  args,
  flags,
  rules: [
    {
      ok: (o) => (o.request === undefined) !== (o.cases === undefined),
      message: "--request, --cases: give exactly one",
    },
    { ok: (o) => !(o.internal && o.agent), message: "--internal, --agent: give at most one" },
    {
      ok: (o) => !(o.body !== undefined && o.bodyFile !== undefined),
      message: "--body, --body-file: give at most one",
    },
  ],
  about: `Checks the policy as "policy check" does, then runs the request through it as ngrok would:
each phase's rules in order (a rule runs when all its expressions are true), each action's
config with its interpolations resolved, until a terminating action; on_http_response runs
over the upstream's answer (--upstream-status). Prints the trace and the outcome; an action
it cannot work out (an http-request with no answer, IP policies) makes the outcome
"unknown", never a guess. With --cases, prints PASS or FAIL per case and "N passed, M failed",
and exits 1 when any case failed. --sign <provider> (with --secret-stdin, --secret-file or
--secret) signs the request as that webhook provider would, for verify-webhook to check.`,
  examples: [
    '$ edgectl policy test policy.yml --request "GET https://example.com/admin" --client-ip 203.0.113.7',
    '$ edgectl policy test policy.yml --request "POST https://example.com/hooks" --body \'{"a":1}\' -o json | jq .outcome',
    "$ edgectl policy test path-routing-with-auth.yml --cases path-routing-with-auth.cases.yml",
  ],
  run: async (options, deps) => runTest(options, deps, await loadSchemes()),
});

export async function runTest(
  options: TestOptions,
  deps: Deps,
  schemes: SchemeLookup,
  now = () => new Date(),
): Promise<void> {
  const policy = await readPolicy(options, deps);
  const kind = options.agent ? "agent" : options.internal ? "internal" : "public";
  if (options.cases !== undefined) return runCases(policy, options, deps, schemes, kind, now);
  const req = await requestOf(options, deps, schemes, now);
  const ctx: EvalContext = {
    protocol: options.protocol,
    kind,
    state: (await import("../../policy/evaluate/index.js")).createState(),
    schemes,
    ...identityOf(options.identity),
  };
  const got = await evaluate(policy, req, ctx, { status: options.upstreamStatus });
  await turn();
  const { maskTrace } = await import("../../policy/evaluate/index.js");
  const trace = options.showSecret ? got.trace : maskTrace(got.trace);
  const { output } = deps.settings;
  if (output !== "table") {
    deps.io.stdout.write(renderData(output, { outcome: outcomeView(got), trace, vars: got.vars, units: got.units }));
    return;
  }
  deps.io.stdout.write(traceText(trace, got));
}

/** The policy, read and checked as `policy check` does; its problems (stdout) and exit 2 when it has any. */
async function readPolicy(options: TestOptions, deps: Deps): Promise<unknown> {
  const text = await readTextSource(
    options.policy,
    { label: "<policy>", atTerminal: "<policy>: stdin is a terminal; pipe the policy in, or name a file" },
    deps,
  );
  const where = options.policy === "-" ? "stdin" : options.policy;
  await turn();
  const { parsePolicyText } = await import("../../policy/parse.js");
  const { checkPolicyInterruptibly } = await import("../../policy/index.js");
  const parsed = await parsePolicyText(text, every(1000));
  await turn();
  let problems: Problem[] = parsed.ok
    ? await checkPolicyInterruptibly(
        parsed.document,
        { protocol: options.protocol as Protocol, internal: options.internal },
        every(),
      )
    : parsed.problems;
  // An agent endpoint has no terminating-action requirement (contract, "Endpoint kinds").
  if (options.agent) problems = problems.filter((p) => p.code !== "ERR_NGROK_2235");
  if (problems.length === 0 && parsed.ok) return parsed.document;
  const { output } = deps.settings;
  deps.io.stdout.write(
    output === "table"
      ? problems.map(line).join("")
      : renderData(output, { valid: false, problems: problems.map(({ path, message }) => ({ path, message })) }),
  );
  throw new UsageError(
    `${where}: the policy has ${problems.length} problem${problems.length === 1 ? "" : "s"} (for ${options.agent ? "an agent" : options.internal ? "an internal" : "a public"} ${options.protocol} endpoint)`,
  );
}

function identityOf(pairs: string[] | undefined, label = "--identity"): { identity?: Record<string, string> } {
  if (!pairs || pairs.length === 0) return {};
  const identity: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    if (at <= 0)
      throw new UsageError(`${label}: ${JSON.stringify(pair)} is not key=value (e.g. email=ann@example.com)`);
    identity[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return { identity };
}

/** The request of --request, -H, --body, --client-ip, --time and --sign. */
async function requestOf(
  options: TestOptions,
  deps: Deps,
  schemes: SchemeLookup,
  now: () => Date,
): Promise<EvalRequest> {
  const m = /^\s*([A-Za-z]+)\s+(\S+)\s*$/.exec(options.request ?? "");
  let url: URL | undefined;
  try {
    url = m ? new URL(m[2]!) : undefined;
  } catch {
    url = undefined;
  }
  if (!m || !url || !/^https?:$/.test(url.protocol))
    throw new UsageError(
      '--request: must be "<METHOD> <URL>" with a full http(s) URL, e.g. "GET https://example.com/"',
    );
  const headers: Record<string, string[]> = {};
  for (const h of options.header ?? []) {
    const at = h.indexOf(":");
    const name = at > 0 ? h.slice(0, at).trim() : "";
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      throw new UsageError(`--header: ${JSON.stringify(h)} is not "Name: value"`);
    (headers[name.toLowerCase()] ??= []).push(h.slice(at + 1).trim());
  }
  if (!Object.hasOwn(headers, "host")) headers.host = [url.host];
  const body =
    options.bodyFile !== undefined
      ? await readFileBytes(options.bodyFile, "--body-file", deps.cwd)
      : Buffer.from(options.body ?? "", "utf8");
  if (options.time !== undefined && !RFC3339.test(options.time))
    throw new UsageError(`--time: ${JSON.stringify(options.time)} is not an RFC 3339 time (e.g. 2026-01-01T12:00:00Z)`);
  const time = options.time === undefined ? now() : new Date(options.time);
  const { isIP } = await import("node:net");
  const clientIp = options.clientIp ?? DEFAULT_CLIENT_IP;
  if (isIP(clientIp) === 0)
    throw new UsageError(`--client-ip: ${JSON.stringify(clientIp)} is not an IPv4 or IPv6 address`);
  const req: EvalRequest = { method: m[1]!.toUpperCase(), url: url.href, headers, body, clientIp, time };
  if (options.sign !== undefined) {
    const provider = options.sign.toLowerCase();
    const scheme = schemes(provider);
    if (!scheme) throw new UsageError(`--sign: edgectl cannot sign for provider ${JSON.stringify(provider)}`);
    const secret = await readSecret(options, provider as never, deps, { secretAlways: true });
    signRequest(req, scheme, scheme.key === "secret" ? { secret } : { privateKey: secret }, await loadSigner());
  } else if (options.secretStdin || options.secretFile !== undefined || options.secret !== undefined)
    throw new UsageError("--secret-stdin, --secret-file, --secret: only with --sign");
  return req;
}

/**
 * Makes the request a real delivery of its body (src/webhooks' signDelivery): the scheme's
 * headers, and the URL or body it changes (Twilio JSON's bodySHA256, SNS's signed body); a
 * key-pair scheme signs with the private key given as the secret (PEM).
 */
function signRequest(
  req: EvalRequest,
  scheme: NonNullable<ReturnType<SchemeLookup>>,
  key: { secret?: string; privateKey?: string },
  deliver: Awaited<ReturnType<typeof loadSigner>>,
): void {
  let delivery;
  try {
    delivery = deliver(scheme, {
      body: req.body,
      url: req.url,
      timestamp: Math.floor(req.time.getTime() / 1000),
      contentType:
        req.headers["content-type"]?.[0] ??
        (looksJson(req.body) ? "application/json" : "application/x-www-form-urlencoded"),
      ...(key.secret !== undefined ? { secret: key.secret } : {}),
      ...(key.privateKey !== undefined ? { privateKey: key.privateKey } : {}),
    });
  } catch (err) {
    // The scheme refuses what it was given (src/webhooks' SignError: a key of the wrong kind).
    throw new UsageError(`--sign: ${scheme.provider}: ${(err as Error).message}`);
  }
  req.url = delivery.url;
  req.body = delivery.body;
  for (const [name, value] of Object.entries(delivery.headers)) req.headers[name.toLowerCase()] = [value];
}

function looksJson(body: Buffer): boolean {
  try {
    JSON.parse(body.toString("utf8"));
    return true;
  } catch {
    return false;
  }
}

/** The outcome as -o json prints it. */
function outcomeView(got: Got): Record<string, unknown> {
  const o = got.outcome;
  const view: Record<string, unknown> = { kind: o.kind };
  if (got.status !== undefined) view.status = got.status;
  if (o.kind !== "close" && o.kind !== "unknown") view.headers = got.headers;
  if (got.body !== undefined) view.body = got.body;
  if (got.url !== undefined) view.url = got.url;
  if (o.by) view.by = o.by;
  if (o.kind === "unknown") view.reason = o.reason;
  return view;
}

const json = (v: unknown) => JSON.stringify(v);

/** The trace for people: per phase, each rule and its expressions, each action's config and what it did; then the outcome. */
export function traceText(trace: readonly TraceEntry[], got: Got): string {
  const out: string[] = [];
  let phase = "";
  for (const t of trace) {
    if (t.phase !== phase) {
      phase = t.phase;
      out.push(
        t.phase === "on_http_response" ? `${phase} (the upstream answered ${got.response?.status ?? "?"})` : phase,
      );
    }
    const state = !t.reached ? "not reached (the phase had ended)" : t.ran ? "ran" : "skipped";
    out.push(`  ${t.rule === t.place ? t.place : `${t.place} ${json(t.rule)}`}: ${state}`);
    for (const e of t.expressions)
      out.push(
        `    ${e.expression} → ${e.skipped ? "(not evaluated)" : e.error !== undefined ? `error: ${e.error}` : json(e.value)}`,
      );
    for (const a of t.actions) {
      out.push(`    ${a.type} ${json(a.config)}`);
      out.push(`      ${a.did}`);
    }
  }
  const o = got.outcome;
  const by = o.by ? ` (${o.by.phase} ${json(o.by.rule)}, ${o.by.action})` : "";
  const what =
    o.kind === "forward"
      ? `forward to ${o.url ?? `the upstream (${got.url ?? ""})`}${got.status !== undefined ? `; answered ${got.status}` : ""}`
      : o.kind === "unknown"
        ? `unknown: ${o.reason}`
        : o.kind === "close"
          ? "close the connection"
          : o.kind === "redirect"
            ? `redirect ${o.status} to ${o.url}`
            : `${o.kind} ${o.status}`;
  out.push(`outcome: ${what}${by}`);
  if (o.kind === "response" && o.body !== "") out.push(`body: ${json(o.body)}`);
  out.push(`units: ${got.units}`);
  return out.map((l) => escapeControl(l)).join("\n") + "\n";
}

async function runCases(
  policy: unknown,
  options: TestOptions,
  deps: Deps,
  schemes: SchemeLookup,
  kind: EvalContext["kind"],
  now: () => Date,
): Promise<void> {
  const file = await readCases(options.cases!, deps.cwd);
  const { createState } = await import("../../policy/evaluate/index.js");
  const state = createState();
  const lines: string[] = [];
  let passed = 0;
  let failed = 0;
  for (const [i, c] of file.cases.entries()) {
    const at = `--cases: cases[${i}] (${c.name})`;
    const req = caseRequest(c, now(), DEFAULT_CLIENT_IP);
    if ("error" in req) throw new UsageError(`${at}: ${req.error}`);
    if (c.request.sign) {
      const scheme = schemes(c.request.sign.provider.toLowerCase());
      if (!scheme)
        throw new UsageError(`${at}: request.sign: edgectl cannot sign for provider ${json(c.request.sign.provider)}`);
      const secret = deps.env[c.request.sign.secret_env];
      if (secret === undefined || secret === "")
        throw new UsageError(`${at}: request.sign.secret_env: the variable ${c.request.sign.secret_env} is not set`);
      signRequest(req, scheme, scheme.key === "secret" ? { secret } : { privateKey: secret }, await loadSigner());
    }
    const jwtKeys = c.jwt_keys ?? file.jwt_keys;
    const ctx: EvalContext = {
      protocol: options.protocol,
      kind,
      state,
      schemes,
      ...(c.request.identity ? { identity: c.request.identity } : {}),
      ...(c.http_responses ? { httpResponses: c.http_responses } : {}),
      ...(jwtKeys ? { jwtKeys } : {}),
    };
    const got = await evaluate(policy, req, ctx, c.upstream ?? { status: options.upstreamStatus });
    const diffs = compare(c.expect, got);
    if (diffs.length === 0) passed++;
    else failed++;
    lines.push(diffs.length === 0 ? `PASS ${c.name}` : `FAIL ${c.name}: ${diffs.join("; ")}`);
    if (i % 50 === 49) await turn();
  }
  await turn();
  const summary = `${passed} passed, ${failed} failed`;
  const { output } = deps.settings;
  deps.io.stdout.write(
    output === "table"
      ? [...lines, summary].map((l) => escapeControl(l)).join("\n") + "\n"
      : renderData(output, {
          cases: file.cases.map((c, i) => ({
            name: c.name,
            passed: lines[i]!.startsWith("PASS"),
            ...(lines[i]!.startsWith("FAIL") ? { failures: lines[i]!.slice(lines[i]!.indexOf(": ") + 2) } : {}),
          })),
          passed,
          failed,
        }),
  );
  if (failed > 0)
    // A failing case: exit 1, as a test runner's (src/errors.ts CheckFailedError); the cases are printed.
    throw new CheckFailedError(`${failed} of ${file.cases.length} case${file.cases.length === 1 ? "" : "s"} failed`);
}

/** The cases file (YAML or JSON, read by the project's one YAML reader), checked by its schema; invalid: exit 2. */
async function readCases(path: string, cwd: string | undefined): Promise<CasesFile> {
  const text = await readFileText(path, "--cases", cwd);
  const { readYaml } = await import("../../policy/yaml.js");
  const read = readYaml(text);
  if (!read.ok) throw new UsageError(`--cases: ${escapeControl(path)} is not valid JSON or YAML: ${read.message}`);
  const { casesSchema } = await import("./cases.js");
  const result = casesSchema.safeParse(read.value);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const place = issue.path
      .map((k) => (typeof k === "number" ? `[${k}]` : `.${String(k)}`))
      .join("")
      .replace(/^\./, "");
    throw new UsageError(`--cases: ${escapeControl(path)}: ${place || "(file)"}: ${issueWords(issue)}`);
  }
  return result.data;
}

function issueWords(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "unrecognized_keys":
      return `unknown field ${issue.keys.join(", ")}`;
    case "invalid_type":
      return `must be ${issue.expected}`;
    case "invalid_value":
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    default:
      return issue.message;
  }
}
