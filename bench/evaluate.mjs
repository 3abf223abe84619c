// The evaluator's row (issue 29 item 6): requests evaluated per second for a 20-rule policy
// (19 rules whose two expressions a request meets and fails, then a forward), against
// @bufbuild/cel evaluating the same expressions alone in one loop, each planned once, over
// an activation made per request as the evaluator makes one. The goal: the evaluator's
// overhead over raw CEL is at most 2×. The evaluator is bundled from src/ with esbuild (the
// build's bundler), @bufbuild/cel left to node_modules, so both sides run the same CEL.
//
// Alone: `node bench/evaluate.mjs` prints the row.
import { build } from "esbuild";
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const REQUESTS = Number(process.env.EDGECTL_BENCH_EVAL_REQUESTS ?? 10_000);
const ROUNDS = Number(process.env.EDGECTL_BENCH_EVAL_ROUNDS ?? 5);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** The 20-rule policy: rule i matches /r<i>/ POSTs with a header; the last forwards. */
function policy20() {
  const rules = [];
  for (let i = 0; i < 19; i++)
    rules.push({
      name: `route ${i}`,
      expressions: [
        `req.url.path.startsWith('/r${i}/') || req.headers['x-route'][0] == 'r${i}'`,
        `req.method == 'POST'`,
      ],
      actions: [{ type: "forward-internal", config: { url: `https://r${i}.internal` } }],
    });
  rules.push({ name: "default", actions: [{ type: "forward-internal", config: { url: "https://app.internal" } }] });
  return { on_http_request: rules };
}

export async function evaluateRow() {
  // Inside node_modules, so that the bundle's import of @bufbuild/cel resolves as the source's does.
  const dir = mkdtempSync(join(ROOT, "node_modules", ".edgectl-bench-evaluate-"));
  try {
    const out = join(dir, "evaluate.mjs");
    await build({
      entryPoints: [join(ROOT, "src/policy/evaluate/index.ts")],
      bundle: true,
      format: "esm",
      platform: "node",
      outfile: out,
      external: ["@bufbuild/cel", "@bufbuild/cel/*"],
      logLevel: "silent",
      absWorkingDir: ROOT,
      nodePaths: [join(ROOT, "node_modules")],
    });
    const { evaluateRequest, createState } = await import(pathToFileURL(out).href);
    const { celEnv, parse, plan } = await import("@bufbuild/cel");
    const { strings } = await import("@bufbuild/cel/ext");
    const policy = policy20();
    const expressions = policy.on_http_request.flatMap((r) => r.expressions ?? []);
    const env = celEnv({ funcs: strings });
    const programs = expressions.map((e) => plan(env, parse(e)));
    const ctx = { protocol: "https", kind: "public", state: createState(), schemes: () => undefined };
    const time = new Date("2026-01-01T00:00:00Z");
    const req = (i) => ({
      method: "GET",
      url: `https://shop.example.com/items/${i}?q=1`,
      headers: { host: ["shop.example.com"], "x-route": ["none"], "user-agent": ["bench"] },
      body: Buffer.alloc(0),
      clientIp: "192.0.2.1",
      time,
    });
    const evaluator = () => {
      let forwards = 0;
      for (let i = 0; i < REQUESTS; i++)
        if (evaluateRequest(policy, req(i), ctx).outcome.kind === "forward") forwards++;
      if (forwards !== REQUESTS) throw new Error(`the policy forwarded ${forwards} of ${REQUESTS}`);
    };
    const raw = () => {
      let falses = 0;
      for (let i = 0; i < REQUESTS; i++) {
        const r = req(i);
        const activation = {
          req: { method: r.method, url: { path: new URL(r.url).pathname }, headers: r.headers },
        };
        // As the evaluator: a rule's second expression only when its first is true.
        for (let k = 0; k < programs.length; k += 2)
          if (programs[k](activation) !== true || programs[k + 1](activation) !== true) falses++;
      }
      if (falses !== REQUESTS * 19) throw new Error(`raw CEL: ${falses} false rules, expected ${REQUESTS * 19}`);
    };
    const time1 = (f) => {
      const t0 = process.hrtime.bigint();
      f();
      return Number(process.hrtime.bigint() - t0) / 1e6;
    };
    evaluator();
    raw(); // warm both
    const ratios = [];
    const evalMs = [];
    const rawMs = [];
    for (let round = 0; round < ROUNDS; round++) {
      const e = time1(evaluator);
      const r = time1(raw);
      evalMs.push(e);
      rawMs.push(r);
      ratios.push(e / r);
    }
    return {
      requests: REQUESTS,
      evaluatorPerSecond: (REQUESTS / median(evalMs)) * 1000,
      rawPerSecond: (REQUESTS / median(rawMs)) * 1000,
      ratio: median(ratios),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function evaluateNote(r) {
  return `${Math.round(r.evaluatorPerSecond)} req/s through the evaluator vs ${Math.round(r.rawPerSecond)} req/s of @bufbuild/cel alone (the same expressions: each rule's first, 19 a request): ${r.ratio.toFixed(2)}× (median of ${ROUNDS} paired rounds of ${r.requests})`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const r = await evaluateRow();
  process.stdout.write(`policy test evaluator, a 20-rule policy:\n  ${evaluateNote(r)}\n`);
}
