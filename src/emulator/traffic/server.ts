// The traffic port: the endpoints the emulator stores, served as ngrok's edge would (contract,
// "The emulator's traffic port"). A second plain-HTTP listener: a request is matched to a
// public endpoint by Host (match.ts), its policy runs through the injected engine (engine.ts)
// on the real clock with per-endpoint state, forward-internal follows to the internal endpoint
// of that URL (whose policy runs too) or to an --upstream mapping (an agent endpoint: no policy),
// which is proxied to its local server (proxy.ts); on_http_response runs over the answer, from
// the innermost endpoint out. Errors are ngrok's (errors.ts); each request is logged (log.ts).
import http from "node:http";
import { open } from "node:fs/promises";
import { isIP, type AddressInfo } from "node:net";
import type { Readable } from "node:stream";
import { StartError } from "../start-error.js";
import type { EndpointRecord, Store } from "../store.js";
import { parsePolicyText } from "../../policy/parse.js";
import type { EvalContext, EvalRequest, EvalResponse, EvalState, Outcome, PolicyEngine, TraceEntry } from "./engine.js";
import { endpointOffline, sendEdgeError, ERR_WEBHOOK, type EdgeError } from "./errors.js";
import { JwksCache, jkusOf } from "./jwks.js";
import { RequestLog, type RequestRecord } from "./log.js";
import { EndpointIndex, addressOf, hostOf, isInternal } from "./match.js";
import { flat, headerLists, isEdgeError, lists, sendUpstream, upstreamAgent, upstreamHeaders } from "./proxy.js";
import { Sessions, signinLocation, withoutSessionCookie } from "./signin.js";

export interface TrafficOptions {
  host: string;
  port: number;
  store: Store;
  engine: PolicyEngine;
  /** Agent endpoints: URL (https://app.internal, https://app.example.com) → local server (http://127.0.0.1:3000). */
  upstreams?: Record<string, string>;
  /** jku URLs (https://issuer.example/.well-known/jwks.json) → a local JWKS file that serves them (jwks.ts). */
  jwks?: Record<string, string>;
  /** The requests' lines (each with its newline; those finished in one turn of the event loop in one call), e.g. to stderr. */
  log?: (line: string) => void;
  /** --log-requests: JSON lines appended to this file. */
  logFile?: string;
  /** The clock policies run on (rate limits, timestamps); the real one by default. */
  clock?: () => Date;
  /** How long an upstream may take to send its answer's headers; default 30 s (ngrok documents none). */
  upstreamTimeoutMs?: number;
  /** How long a line may wait for the requests in flight (log.ts MAX_WAIT_MS by default). */
  logWaitMs?: number;
}

export interface TrafficServer {
  /** http://127.0.0.1:<port> */
  url: string;
  close(): Promise<void>;
}

const MAX_HOPS = 16;
const EMPTY = Buffer.alloc(0);
/** Actions that read the request body (the evaluator is handed it only then; otherwise it streams). */
const BODY_ACTIONS = new Set(["verify-webhook", "jwt-validation", "owasp-crs-request"]);

interface Policy {
  document: unknown;
  request: boolean;
  response: boolean;
  needsBody: boolean;
  jkus: string[];
}

interface Hop {
  endpoint: EndpointRecord;
  policy: Policy;
  ctx: EvalContext;
}

export async function startTraffic(opts: TrafficOptions): Promise<TrafficServer> {
  const { store, engine } = opts;
  const clock = opts.clock ?? (() => new Date());
  const timeoutMs = opts.upstreamTimeoutMs ?? 30_000;
  const upstreams = new Map<string, string>();
  for (const [url, local] of Object.entries(opts.upstreams ?? {})) {
    const address = addressOf(url);
    if (address === undefined) throw new StartError(`--upstream ${url}: not a URL`);
    upstreams.set(address, local);
  }
  const jwks = await JwksCache.open(opts.jwks);
  if (opts.logFile !== undefined)
    try {
      await (await open(opts.logFile, "a")).close();
    } catch (err) {
      throw new StartError(`--log-requests ${opts.logFile}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
  /** Requests begun and neither logged nor answering yet: the lines of others wait for theirs (log.ts). */
  let inFlight = 0;
  const log = new RequestLog(opts.log, opts.logFile, () => inFlight > 0, opts.logWaitMs);
  const index = new EndpointIndex(store.endpoints);
  const sessions = new Sessions();
  const states = new Map<string, EvalState>();
  const policies = new Map<string, Promise<Policy>>();
  /** The parsed policies by text, once parsed: the hot path takes them without an await. */
  const parsed = new Map<string, Policy>();
  const agentPool = upstreamAgent();

  const policyOf = (e: EndpointRecord): Promise<Policy> => {
    let p = policies.get(e.traffic_policy);
    if (!p) {
      if (policies.size > 1000) {
        policies.clear();
        parsed.clear();
      }
      const text = e.traffic_policy;
      p = parsePolicyText(text).then((r) => {
        const policy = describePolicy(r.ok ? r.document : {});
        parsed.set(text, policy);
        return policy;
      });
      policies.set(text, p);
    }
    return p;
  };
  const stateOf = (id: string) => {
    let s = states.get(id);
    if (s === undefined) states.set(id, (s = engine.createState()));
    return s;
  };

  /** What a request gets when handling it threw: a 500 naming the error, or the connection closed once the answer began. */
  const broken = (res: http.ServerResponse, err: unknown) => {
    if (!res.headersSent) {
      res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
      res.end(`edgectl emulator: ${err instanceof Error ? err.message : String(err)}\n`);
    } else res.destroy();
  };
  const server = http.createServer((req, res) => {
    const open: Open = {};
    handle(req, res, open).catch((err: unknown) => {
      open.crashed?.();
      broken(res, err);
    });
  });

  /** `crashed`: logs the request as failed, once its record is made (handle sets it). */
  interface Open {
    crashed?: () => void;
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, open: Open): Promise<void> {
    const t0 = performance.now();
    let raw = req.url ?? "/";
    const q = raw.indexOf("?");
    const pathname = q < 0 ? raw : raw.slice(0, q);
    if (
      pathname.startsWith("/__edgectl/") &&
      sessions.serve(req, res, pathname, new URLSearchParams(q < 0 ? "" : raw.slice(q + 1)))
    )
      return;
    // A client that cannot set Host (a webhook sender given only a URL) names the endpoint's
    // host in the path instead: /__edgectl/endpoint/<host>/<path> is <path> on that host.
    let via = "";
    let named: string | undefined;
    const m = pathname.startsWith("/__edgectl/") ? /^\/__edgectl\/endpoint\/([A-Za-z0-9.-]+)(.*)$/.exec(raw) : null;
    if (m) {
      named = m[1]!.toLowerCase();
      via = `/__edgectl/endpoint/${m[1]!}`;
      raw = m[2]!.startsWith("/") ? m[2]! : `/${m[2]!}`;
    }

    // From rawHeaders in one pass (req.headers and req.headersDistinct are each another).
    const headers = headerLists(req.rawHeaders);
    // Host: node keeps the first of several (as req.headers.host); Cookie: all, joined by "; ".
    const hostHeader = headers.host?.[0];
    // The connection: its address, or on a loopback connection the last X-Forwarded-For value
    // (contract: every test connects from loopback); its scheme from X-Forwarded-Proto, default
    // https. The value read is the connection's, not the client's header: it is taken out, and
    // ngrok's own append (proxy.ts) puts it back.
    const remote = req.socket.remoteAddress ?? "";
    const peer = remote.startsWith("::ffff:") ? remote.replace(/^::ffff:(?=\d+\.)/, "") : remote;
    let clientIp = peer;
    if (isLoopback(peer)) {
      const given = takeLast(headers, "x-forwarded-for");
      if (given !== undefined && isIP(given)) clientIp = given;
    }
    const proto = takeLast(headers, "x-forwarded-proto")?.toLowerCase() === "http" ? "http" : "https";
    const host = named ?? hostOf(hostHeader) ?? "";
    if (named !== undefined) headers.host = [named];
    const now = clock();
    const record: RequestRecord = {
      time: now,
      method: req.method ?? "GET",
      url: `${proto}://${host}${raw}`,
      client_ip: clientIp,
      endpoints: [],
      rules: [],
      outcome: "",
      status: 0,
      ms: 0,
    };
    inFlight++;
    let counted = true;
    /** Its answer has begun (or it is logged): no longer in flight for the log. */
    const answering = () => {
      if (counted) {
        counted = false;
        inFlight--;
      }
    };
    let logged = false;
    const finish = (status: number, outcome: string, extra?: Partial<RequestRecord>) => {
      if (logged) return;
      logged = true;
      answering();
      record.status = status;
      record.outcome = outcome;
      if (extra) Object.assign(record, extra);
      record.ms = performance.now() - t0;
      log.write(record);
    };
    // What threw is then answered by broken(): a 500 naming it, or the connection closed once the answer began.
    open.crashed = () => finish(res.headersSent ? 0 : 500, "error");
    const fail = (e: EdgeError) => {
      sendEdgeError(req, res, e);
      finish(e.status, "error", { error_code: e.code });
    };

    const identity = headers.cookie && sessions.identityOf(headers.cookie.join("; "));
    const cookie = withoutSessionCookie(headers.cookie);
    if (cookie) headers.cookie = cookie;
    else if (headers.cookie) delete headers.cookie;
    let evalReq: EvalRequest = {
      method: record.method,
      url: record.url,
      headers,
      body: EMPTY,
      clientIp,
      time: now,
    };
    let bodyRead: Promise<Buffer> | undefined;
    const readBody = () => (bodyRead ??= collect(req));

    const hops: Hop[] = [];
    let current: EndpointRecord | undefined = index.publicFor(proto, host);
    let agent: string | undefined;
    if (!current) {
      // An agent endpoint at a public URL; an internal one (*.internal) is reached only by forward-internal.
      if (!host.endsWith(".internal")) agent = upstreams.get(`${proto}://${host}:${proto === "https" ? 443 : 80}`);
      if (agent === undefined) return fail(endpointOffline(`${proto}://${host}`));
      record.endpoints.push(`${proto}://${host}`);
    }
    let outcome: Outcome = { kind: "forward" };
    while (current) {
      if (hops.length >= MAX_HOPS)
        return fail({
          ...endpointOffline(current.url),
          message: `forward-internal went through ${MAX_HOPS} endpoints: a loop?`,
        });
      const endpoint: EndpointRecord = current;
      current = undefined;
      record.endpoints.push(endpoint.url);
      const policy = parsed.get(endpoint.traffic_policy) ?? (await policyOf(endpoint));
      const ctx: EvalContext = {
        protocol: /^http:/i.test(endpoint.url) ? "http" : "https",
        kind: isInternal(endpoint) ? "internal" : "public",
        state: stateOf(endpoint.id),
        schemes: engine.schemes,
      };
      if (identity) ctx.identity = identity;
      hops.push({ endpoint, policy, ctx });
      if (!policy.request) {
        outcome = { kind: "forward" };
      } else {
        if (policy.needsBody) evalReq.body = await readBody();
        if (policy.jkus.length) ctx.jwtKeys = await jwks.keysFor(policy.jkus);
        const pending = engine.evaluateRequest(policy.document, evalReq, ctx);
        // The evaluator answers synchronously: no await (a turn of the microtask queue) then.
        const r = pending instanceof Promise ? await pending : pending;
        record.rules.push(...rulesThatRan(r.trace));
        evalReq = r.request;
        outcome = r.outcome;
      }
      if (outcome.kind !== "forward") break;
      if (outcome.url === undefined) {
        // The policy let the request through without forwarding it anywhere: an agent endpoint
        // at the same URL (--upstream) serves it, else nothing does.
        agent = upstreams.get(addressOf(endpoint.url) ?? "");
        if (agent === undefined) return fail(endpointOffline(endpoint.url));
        break;
      }
      // forward-internal: a stored endpoint of that URL first, then an --upstream mapping.
      const next = index.at(outcome.url);
      if (next && isInternal(next)) current = next;
      else {
        agent = upstreams.get(addressOf(outcome.url) ?? "");
        if (agent === undefined) return fail(endpointOffline(outcome.url));
        record.endpoints.push(outcome.url);
      }
    }

    const respondWith = async (answer: EvalResponse, phaseOutcome: Outcome) => {
      let response = answer;
      let final = phaseOutcome;
      for (const hop of [...hops].reverse()) {
        if (!hop.policy.response) continue;
        const r = await engine.evaluateResponse(hop.policy.document, evalReq, response, hop.ctx);
        record.rules.push(...rulesThatRan(r.trace));
        response = r.response;
        if (r.outcome && r.outcome.kind !== "forward") {
          final = r.outcome;
          if (final.kind === "close") return closeConnection(final);
          if (final.kind === "deny") return deny(final);
          if (final.kind === "unknown") return unknown(final);
        }
      }
      const out = { ...response.headers };
      delete out["content-length"];
      delete out["transfer-encoding"];
      res.writeHead(response.status, { ...flat(out), "content-length": String(response.body.length) });
      res.end(response.body);
      finish(response.status, final.kind, final.by ? { by: final.by } : {});
    };
    const closeConnection = (o: Outcome) => {
      req.socket.destroy();
      finish(0, "close", o.by ? { by: o.by } : {});
    };
    const deny = (o: Extract<Outcome, { kind: "deny" }>) => {
      // restrict-ips and verify-webhook answer with ngrok's error page (ERR_NGROK_3205 "Request blocked by
      // Endpoints IP Restriction", errors/err_ngrok_3205.mdx; ERR_NGROK_3204 "Request failed webhook
      // verification", err_ngrok_3204.mdx); deny itself "will not send back a response body" (actions/deny.mdx).
      const code =
        o.by.action === "restrict-ips" ? "ERR_NGROK_3205" : o.by.action === "verify-webhook" ? ERR_WEBHOOK : undefined;
      if (code !== undefined) {
        const message =
          code === ERR_WEBHOOK ? "Request failed webhook verification" : "Request blocked by Endpoints IP Restriction";
        sendEdgeError(req, res, { status: o.status, code, message });
        return finish(o.status, "deny", { by: o.by, error_code: code });
      }
      // Its headers go with it (basic-auth's WWW-Authenticate, rate-limit's Retry-After).
      res.writeHead(o.status, { ...flat(o.headers ?? {}), "content-length": "0" });
      res.end();
      finish(o.status, "deny", { by: o.by });
    };
    const unknown = (o: Extract<Outcome, { kind: "unknown" }>) => {
      const body = `edgectl emulator: this request's outcome cannot be worked out: ${o.reason}\n`;
      res.writeHead(500, { "content-type": "text/plain; charset=utf-8", "content-length": Buffer.byteLength(body) });
      res.end(body);
      finish(500, "unknown", o.by ? { by: o.by } : {});
    };

    switch (outcome.kind) {
      case "close":
        return closeConnection(outcome);
      case "deny":
        return deny(outcome);
      case "unknown":
        return unknown(outcome);
      case "redirect": {
        const provider = outcome.by.action === "oauth" || outcome.by.action === "openid-connect";
        const location = provider ? signinLocation(via + pathAndQuery(evalReq.url), outcome.by.action) : outcome.url;
        res.writeHead(provider ? 302 : outcome.status, { ...flat(outcome.headers), location, "content-length": "0" });
        res.end();
        return finish(provider ? 302 : outcome.status, provider ? "sign-in" : "redirect", { by: outcome.by });
      }
      case "response":
        // custom-response in on_http_request: on_http_response still runs (actions/custom-response.mdx:54).
        return respondWith(
          { status: outcome.status, headers: outcome.headers, body: Buffer.from(outcome.body) },
          outcome,
        );
      case "forward":
        break;
    }

    // To the agent endpoint's local server.
    const target = agent!;
    record.upstream = target;
    const sent = upstreamHeaders(evalReq.headers, clientIp, proto, named ?? hostHeader ?? host);
    // The path and query as received, unless a policy rewrote the URL.
    const path = evalReq.url === record.url ? raw : pathAndQuery(evalReq.url);
    const forward = (body: Buffer | Readable | undefined) =>
      sendUpstream(
        target,
        { method: evalReq.method, pathAndQuery: path, headers: sent, body },
        timeoutMs,
        agentPool,
        (answer) => {
          // Called from the upstream request's events: what throws here is this request's 500, as in handle.
          try {
            if (isEdgeError(answer)) return fail(answer);
            if (response) {
              collect(answer.body)
                .then((body) => respondWith({ status: answer.status, headers: lists(answer.headers), body }, outcome))
                .catch((err: unknown) => {
                  open.crashed?.();
                  broken(res, err);
                });
              return;
            }
            res.writeHead(answer.status, answer.headers);
            answering();
            answer.body.pipe(res);
            answer.body.once("error", () => res.destroy());
            const by = outcome.by;
            const done = () => finish(answer.status, "forward", by ? { by } : undefined);
            // A client gone before the answer came has had its close already.
            if (res.closed) done();
            else res.once("close", done);
          } catch (err) {
            open.crashed?.();
            broken(res, err);
          }
        },
      );
    const response = hops.some((h) => h.policy.response);
    if (bodyRead) forward(await bodyRead);
    // A request with neither Content-Length nor Transfer-Encoding has no body (RFC 9112 §6.3):
    // the upstream request ends now, not a turn later when the empty stream would end.
    else forward(hasBody(headers) ? req : undefined);
  }

  await new Promise<void>((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) =>
      reject(
        new StartError(
          `--traffic-port ${opts.port}: cannot listen: ${err.code === "EADDRINUSE" ? "the address is already in use (try --traffic-port 0)" : (err.code ?? err.message)}`,
        ),
      );
    server.once("error", onError);
    server.listen(opts.port, opts.host, () => {
      server.off("error", onError);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const h = opts.host === "0.0.0.0" || opts.host === "" ? "127.0.0.1" : opts.host === "::" ? "[::1]" : opts.host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${h.includes(":") && !h.startsWith("[") ? `[${h}]` : h}:${address.port}`,
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        agentPool.destroy();
        await closed;
        await log.close();
      })();
      return closing;
    },
  };
}

function describePolicy(document: unknown): Policy {
  const phase = (name: string): unknown[] => {
    const list = (document as Record<string, unknown> | null)?.[name];
    return Array.isArray(list) ? list : [];
  };
  const request = phase("on_http_request");
  const needsBody = request.some((rule) => {
    const actions = (rule as { actions?: unknown } | null)?.actions;
    return (
      Array.isArray(actions) && actions.some((a) => BODY_ACTIONS.has(String((a as { type?: unknown } | null)?.type)))
    );
  });
  return {
    document,
    request: request.length > 0,
    response: phase("on_http_response").length > 0,
    needsBody,
    jkus: jkusOf(document),
  };
}

/** The rules that ran, by name or place, from the evaluator's trace. */
function rulesThatRan(trace: readonly TraceEntry[]): string[] {
  const out: string[] = [];
  for (const t of trace) if (typeof t.rule === "string" && t.ran !== false && !out.includes(t.rule)) out.push(t.rule);
  return out;
}

/** Removes the last value of a (comma-separated, maybe repeated) header and returns it. */
function takeLast(headers: Record<string, string[]>, name: string): string | undefined {
  const given = headers[name];
  if (given === undefined) return undefined;
  const values = given
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter((v) => v !== "");
  const last = values.pop();
  if (last === undefined) return undefined;
  if (values.length) headers[name] = [values.join(", ")];
  else delete headers[name];
  return last;
}

/** Whether the client's message has a body to stream: a Transfer-Encoding, or a Content-Length other than 0. */
function hasBody(headers: Record<string, string[]>): boolean {
  if (headers["transfer-encoding"] !== undefined) return true;
  const length = headers["content-length"];
  return length !== undefined && !(length.length === 1 && length[0]!.trim() === "0");
}

function pathAndQuery(url: string): string {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
}

const isLoopback = (a: string) => a === "127.0.0.1" || a === "::1" || /^127\.\d+\.\d+\.\d+$/.test(a);

function collect(stream: Readable): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.once("end", () => resolve(Buffer.concat(chunks)));
    stream.once("error", reject);
  });
}
