// `edgectl emulator`: serves the API locally for tests, demos and CI. The server module is
// imported only when this command runs, so no other command pays for loading it.
import type { Command } from "commander";
import * as z from "zod/mini";
import { defineCommand, type OptionsOf } from "../define.js";
import type { Deps } from "../deps.js";
import { UsageError } from "../../errors.js";
import { unquoted, wholeNumber } from "../input.js";

export const DEFAULT_PORT = 8040;

const rateLimitRule = "must be <n>/<seconds>, e.g. 100/60 (n from 1 to 1000000, seconds above 0)";
const rateLimit = (text: string) => {
  const match = /^(\d+)\/(\d+(?:\.\d+)?)$/.exec(text.trim());
  return match ? { requests: Number(match[1]), windowSeconds: Number(match[2]) } : undefined;
};

const upstreamRule =
  "must be <url>=<local-url>, e.g. https://app.internal=http://127.0.0.1:3000 (an http, https, tls or tcp URL = an http:// server)";
/** `<url>=<local-url>`: the agent endpoint's URL and the local server it forwards to; undefined when malformed. */
const upstream = (text: string): [string, string] | undefined => {
  const eq = text.indexOf("=");
  if (eq < 1) return undefined;
  const [url, local] = [text.slice(0, eq).trim(), text.slice(eq + 1).trim()];
  try {
    const u = new URL(url);
    const l = new URL(local);
    if (!["http:", "https:", "tls:", "tcp:"].includes(u.protocol) || u.hostname === "") return undefined;
    if (l.protocol !== "http:" || l.hostname === "" || l.search !== "" || l.hash !== "") return undefined;
  } catch {
    return undefined;
  }
  return [url, local.replace(/\/$/, "")];
};

const jwksRule =
  "must be <url>=<file>, e.g. https://issuer.example/.well-known/jwks.json=./jwks.json (an http or https URL = a JWKS file)";
/**
 * `<url>=<file>`: a jku URL a policy names and the local JWKS file that serves it; undefined when
 * malformed. Split at the last `=`: a jku URL may have a query (…/keys?appid=…), a file name rarely has one.
 */
const jwksFile = (text: string): [string, string] | undefined => {
  const eq = text.lastIndexOf("=");
  if (eq < 1) return undefined;
  const [url, file] = [text.slice(0, eq).trim(), text.slice(eq + 1).trim()];
  try {
    // As the validator takes a jku (src/policy/actions/fields.ts httpUrl): http(s) only.
    const u = new URL(url);
    if (!["http:", "https:"].includes(u.protocol) || u.hostname === "" || file === "") return undefined;
  } catch {
    return undefined;
  }
  return [url, file];
};

/** What --edges takes (any case). */
const EDGES_MODES = ["retired", "read-only"] as const;

const flags = {
  host: {
    flag: "--host <host>",
    help: "address to listen on",
    default: "127.0.0.1",
    schema: () =>
      z.pipe(
        z.string().check(z.refine((v) => v.trim() !== "", unquoted("must not be empty"))),
        z.transform((v) => v.trim()),
      ),
  },
  port: {
    flag: "--port <n>",
    help: `port to listen on; 0 picks a free one (default ${DEFAULT_PORT})`,
    schema: () => z._default(wholeNumber(0, 65535, { trim: true }), DEFAULT_PORT),
  },
  stateFile: {
    flag: "--state <file>",
    help: "keep state in this file across restarts (default: in memory)",
    complete: "file" as const,
    schema: () => z.optional(z.string().check(z.refine((v) => v.trim() !== "", unquoted("must name a file")))),
  },
  rateLimit: {
    flag: "--rate-limit <n>/<seconds>",
    help: "answer 429 past <n> requests in any <seconds>-long window",
    schema: () =>
      z.optional(
        z.pipe(
          z.string().check(
            z.refine((v) => {
              const limit = rateLimit(v);
              return (
                limit !== undefined && limit.requests >= 1 && limit.requests <= 1_000_000 && limit.windowSeconds > 0
              );
            }, rateLimitRule),
          ),
          z.transform((v) => rateLimit(v)!),
        ),
      ),
  },
  edges: {
    flag: "--edges <retired|read-only>",
    help: "answer as an account after the Edges sunset: no access (ERR_NGROK_7008) or reads only (ERR_NGROK_7196)",
    schema: () =>
      z.optional(
        z.pipe(
          z
            .string()
            .check(
              z.refine(
                (v) => (EDGES_MODES as readonly string[]).includes(v.trim().toLowerCase()),
                "must be retired or read-only",
              ),
            ),
          z.transform((v) => v.trim().toLowerCase() as (typeof EDGES_MODES)[number]),
        ),
      ),
    complete: EDGES_MODES,
  },
  trafficPort: {
    flag: "--traffic-port <n>",
    help: "also serve the stored endpoints (their Traffic Policies run) on this port; 0 picks a free one. Its URL is the second stdout line",
    schema: () => z.optional(wholeNumber(0, 65535, { trim: true })),
  },
  upstreams: {
    flag: "--upstream <url>=<local-url>",
    help: "with --traffic-port: an agent endpoint at <url> forwarding to a local http server; repeatable",
    schema: () =>
      z.optional(
        z.pipe(
          z.array(z.string().check(z.refine((v) => upstream(v) !== undefined, upstreamRule))),
          z.transform((list) => Object.fromEntries(list.map((v) => upstream(v)!))),
        ),
      ),
    repeat: (value: string, previous: string[] = []) => [...previous, value],
  },
  jwks: {
    flag: "--jwks <url>=<file>",
    help: "with --traffic-port: a jwt-validation jku URL answered with the JWKS in a local file (checked at start, read again when it changes); repeatable",
    schema: () =>
      z.optional(
        z.pipe(
          z.array(z.string().check(z.refine((v) => jwksFile(v) !== undefined, jwksRule))),
          z.transform((list) => Object.fromEntries(list.map((v) => jwksFile(v)!))),
        ),
      ),
    repeat: (value: string, previous: string[] = []) => [...previous, value],
  },
  logRequests: {
    flag: "--log-requests <file>",
    help: "with --traffic-port: append each request to this file as a JSON line",
    complete: "file" as const,
    schema: () => z.optional(z.string().check(z.refine((v) => v.trim() !== "", unquoted("must name a file")))),
  },
};

export const emulator = defineCommand({
  name: "emulator",
  description: "Serve a local stand-in for the API (edges, routes, backends, Cloud Endpoints)",
  flags,
  about: `The first line on stdout, once it accepts connections, is its base URL; stderr names the
address it is bound to. One emulator per --state file: a second one refuses to start.
Without the global --api-key it accepts any Bearer key; with it, only that key. An edge and its routes exist
once created through the API (POST /edges/https, then POST /edges/https/<edge-id>/routes;
POST /edges/tls and /edges/tcp for TLS and TCP edges).
With --edges, everything under /edges and /backends answers as for an account after the
Edges sunset; /endpoints works as always. Stop it with Ctrl-C (or SIGTERM): it then says on
stderr how many requests it received.
With --traffic-port it also serves the Cloud Endpoints it stores, as ngrok's edge would: a
request goes to the public endpoint its Host names (X-Forwarded-Proto: http for an http://
one), its Traffic Policy runs, forward-internal goes to the internal endpoint of that URL or
to an --upstream mapping, which proxies to your local server. From loopback, X-Forwarded-For
sets the client address the policy sees. OAuth and OpenID Connect sign in on the emulator's
own page (/__edgectl/signin?email=…). A jwt-validation's jku URL named with --jwks
<url>=<file> serves the JWKS ({"keys": [...]}) in that file: read at start (a missing or bad
file stops it, exit 2), and again whenever the file changes, so rotated keys count on the
next request; other loopback jku URLs are fetched, any other is left out (no keys from it).
Each request is one line on stderr.`,
  examples: [
    "$ edgectl emulator --port 0",
    "$ edgectl emulator --port 8040 --state ./emulator-state.json --api-key test-key",
    "$ edgectl emulator --port 0 --edges read-only",
    "# serve the endpoints too: a request with Host: app.example.com runs that endpoint's policy",
    "$ edgectl emulator --port 0 --traffic-port 0 --upstream https://app.internal=http://127.0.0.1:3000",
    "# a policy's jwt-validation checks tokens against keys from a local file instead of its issuer's URL",
    "$ edgectl emulator --port 0 --traffic-port 0 --jwks https://issuer.example/.well-known/jwks.json=./jwks.json",
    "# in CI: start it, point edgectl at it, stop it",
    "$ edgectl emulator --port 0 > emu.url &",
    "$ until [ -s emu.url ]; do sleep 0.1; done",
    "$ EDGECTL_BASE_URL=$(head -n1 emu.url) EDGECTL_API_KEY=any edgectl failover list",
    "$ kill %1",
  ],
  rules: [
    {
      ok: (o) =>
        o.trafficPort !== undefined ||
        (o.upstreams === undefined && o.jwks === undefined && o.logRequests === undefined),
      message: (o) =>
        `${o.upstreams !== undefined ? "--upstream" : o.jwks !== undefined ? "--jwks" : "--log-requests"}: needs --traffic-port`,
    },
  ],
  run,
});

async function run(options: OptionsOf<object, typeof flags>, deps: Deps, command: Command): Promise<void> {
  // The emulator's key comes only from the flag: an EDGECTL_API_KEY meant for the real
  // API must not silently lock the emulator.
  const apiKey = (command.optsWithGlobals() as { apiKey?: string }).apiKey;
  const { startEmulator } = await import("../../emulator/server.js");
  const { trafficPort, upstreams, jwks, logRequests, ...apiOptions } = options;
  // verify-webhook's schemes: the one place that loads them (src/commands/policy/schemes.ts),
  // as `policy test` and `migrate --verify` do; the emulator itself imports nothing of the CLI.
  const schemes = trafficPort === undefined ? undefined : await (await import("../policy/schemes.js")).loadSchemes();
  const emu = await startEmulator({
    ...apiOptions,
    apiKey,
    ...(trafficPort === undefined
      ? {}
      : {
          trafficPort,
          upstreams,
          jwks,
          logRequests,
          schemes,
          trafficLog: (line: string) => deps.io.stderr.write(line),
        }),
  }).catch((err: unknown) => {
    throw ownUsageError(err);
  });
  const stopped = new Promise<void>((resolve) => {
    deps.onInterrupt(async () => {
      await emu.close();
      resolve();
    });
  });
  deps.io.stdout.write(`${emu.url}\n`);
  if (emu.trafficUrl !== undefined) deps.io.stdout.write(`${emu.trafficUrl}\n`);
  const where = `${options.stateFile ? `state in ${options.stateFile}` : "state in memory"}${options.edges ? `, edges ${options.edges}` : ""}`;
  // The real bind address (0.0.0.0:…), which the URL on stdout (one a client can use) does not show.
  deps.io.stderr.write(
    `emulator: listening on ${emu.address}, at ${emu.url} (${where}${apiKey === undefined ? ", any API key" : ""}); Ctrl-C to stop\n`,
  );
  // Now, not with the command's other warnings at exit: the emulator runs until stopped.
  if (emu.trafficUrl !== undefined)
    deps.io.stderr.write(
      `emulator: serving endpoints at ${emu.trafficUrl}${Object.entries(upstreams ?? {})
        .map(([url, local]) => `, ${url} → ${local}`)
        .join("")}${Object.entries(jwks ?? {})
        .map(([url, file]) => `, keys of ${url} from ${file}`)
        .join("")}\n`,
    );
  if (!emu.loopbackOnly)
    deps.io.stderr.write(`warning: listening on ${emu.address}: plain http, reachable beyond this machine\n`);
  await stopped;
  // A count a bench or a CI script can check (e.g. how many requests a migration took).
  deps.io.stderr.write(`emulator: stopped after ${emu.requests()} requests\n`);
}

/**
 * The server stands apart from the CLI (src/emulator/start-error.ts): what stops it starting (a
 * bad port, a state file it cannot use or another emulator holds) has kind "usage", and
 * becomes the CLI's UsageError, exit 2.
 */
function ownUsageError(err: unknown): unknown {
  if (err instanceof UsageError || !(err instanceof Error) || (err as { kind?: unknown }).kind !== "usage") return err;
  return new UsageError(err.message, { cause: err });
}
