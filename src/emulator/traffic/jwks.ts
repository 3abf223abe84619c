// The keys a jwt-validation action names, fetched by the emulator and handed to the evaluator
// (which does no I/O). ngrok reads `jws.keys[*].sources[*].additional_jkus`, "URLs which serve
// the possible signing keys in JWKS format … cached and refreshed roughly every 15 minutes"
// (ngrok-docs traffic-policy/actions/jwt-validation.mdx:145-146). The emulator reaches no network:
// it GETs a loopback http(s) URL (a test's key server) and leaves any other URL out (the
// evaluator then finds no key for it, and the token fails as it would without keys). A
// `file://` URL is not one: the validator, as ngrok, takes only http(s) URLs there.

const REFRESH_MS = 15 * 60 * 1000;
const FETCH_TIMEOUT_MS = 5000;

/** Every literal additional_jkus URL of the policy's jwt-validation actions. */
export function jkusOf(policy: unknown): string[] {
  const urls = new Set<string>();
  const visit = (v: unknown, inJwt: boolean): void => {
    if (Array.isArray(v)) for (const x of v) visit(x, inJwt);
    else if (typeof v === "object" && v !== null) {
      const o = v as Record<string, unknown>;
      const here = inJwt || o.type === "jwt-validation";
      for (const [k, x] of Object.entries(o)) {
        if (here && k === "additional_jkus" && Array.isArray(x)) {
          for (const u of x) if (typeof u === "string" && !u.includes("${")) urls.add(u);
        } else visit(x, here);
      }
    }
  };
  visit(policy, false);
  return [...urls];
}

const isLoopbackHost = (h: string) =>
  h === "localhost" || h.endsWith(".localhost") || /^127\.\d+\.\d+\.\d+$/.test(h) || h === "[::1]";

export class JwksCache {
  private readonly entries = new Map<string, { at: number; value: unknown }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** JWKS documents by URL, for the URLs given (undefined when there are none). */
  async keysFor(urls: string[]): Promise<Record<string, unknown> | undefined> {
    if (urls.length === 0) return undefined;
    const out: Record<string, unknown> = {};
    for (const url of urls) {
      const value = await this.get(url);
      if (value !== undefined) out[url] = value;
    }
    return out;
  }

  private async get(url: string): Promise<unknown> {
    const hit = this.entries.get(url);
    if (hit && this.now() - hit.at < REFRESH_MS) return hit.value;
    const value = await load(url);
    if (value !== undefined) this.entries.set(url, { at: this.now(), value });
    return value;
  }
}

async function load(url: string): Promise<unknown> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  try {
    if ((u.protocol === "http:" || u.protocol === "https:") && isLoopbackHost(u.hostname)) {
      const res = await fetch(u, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
      return res.ok ? ((await res.json()) as unknown) : undefined;
    }
  } catch {
    return undefined;
  }
  return undefined;
}
