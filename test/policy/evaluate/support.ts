// What the evaluator's tables share: a request maker, a context with a small local webhook
// scheme (HMAC-SHA256 of the body, hex, in x-test-signature: the shape of GitHub's), and a
// one-rule policy maker.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createState, type EvalContext, type EvalRequest } from "../../../src/policy/evaluate/index.js";
import type { Scheme } from "../../../src/webhooks/scheme.js";

export const T0 = new Date("2026-01-01T00:00:00Z");

export function request(
  line: string,
  more: Partial<Omit<EvalRequest, "headers">> & { headers?: Record<string, string | string[]> } = {},
): EvalRequest {
  const [method, url] = line.split(" ") as [string, string];
  const headers: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(more.headers ?? {})) headers[k.toLowerCase()] = Array.isArray(v) ? v : [v];
  if (!headers.host) headers.host = [new URL(url).host];
  return {
    method,
    url,
    body: more.body ?? Buffer.alloc(0),
    clientIp: more.clientIp ?? "192.0.2.10",
    time: more.time ?? T0,
    headers,
  };
}

const sign = (secret: string, body: Buffer) => createHmac("sha256", secret).update(body).digest("hex");

export const testScheme: Scheme = {
  provider: "github",
  name: "Test (GitHub-shaped)",
  headers: ["X-Test-Signature"],
  key: "secret",
  sources: ["test/policy/evaluate/support.ts"],
  sign: ({ body, secret }) => ({ "X-Test-Signature": sign(secret ?? "", body) }),
  verify: ({ request: r, secret }) => {
    const got = r.headers["x-test-signature"];
    if (got === undefined) return { verified: false, check: "missing-header", message: "no X-Test-Signature header" };
    const want = sign(secret ?? "", r.body);
    return got.length === want.length && timingSafeEqual(Buffer.from(got), Buffer.from(want))
      ? { verified: true }
      : { verified: false, check: "signature", message: "the signature is over other bytes or another secret" };
  },
};

export const signature = sign;

export function context(more: Partial<EvalContext> = {}): EvalContext {
  return {
    protocol: "https",
    kind: "public",
    state: createState(),
    schemes: (p) => (p === "github" ? testScheme : undefined),
    ...more,
  };
}

/** A policy of one on_http_request rule holding these actions, then a forward so that it ends. */
export function oneRule(actions: unknown[], expressions?: string[]) {
  return {
    on_http_request: [
      { name: "under test", ...(expressions ? { expressions } : {}), actions },
      { name: "upstream", actions: [{ type: "forward-internal", config: { url: "https://app.internal" } }] },
    ],
  };
}
