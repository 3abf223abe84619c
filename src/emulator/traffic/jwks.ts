// The keys a jwt-validation action names, fetched by the emulator and handed to the evaluator
// (which does no I/O). ngrok reads `jws.keys[*].sources[*].additional_jkus`, "URLs which serve
// the possible signing keys in JWKS format … cached and refreshed roughly every 15 minutes"
// (ngrok-docs snippets/traffic-policy/actions/jwt-validation/config.mdx:114-115). The emulator
// reaches no network. A jku URL given with `--jwks <url>=<file>` serves the JWKS of that local
// file (a policy names its real issuer's URL, which ngrok would fetch, and runs unchanged); any
// other loopback http(s) URL (a test's key server) is fetched; any other URL is left out (the
// evaluator then finds no key for it, and the token fails as it would without keys). A
// `file://` jku is no way round: the validator, as ngrok, takes only http(s) URLs there.
//
// Only JWKS documents ({"keys": [...]}, RFC 7517 §5): the jku URLs ngrok reads serve "the
// possible signing keys in JWKS format" (config.mdx:115), and its docs name no PEM source.
import { readFile, stat } from "node:fs/promises";
import { StartError } from "../start-error.js";

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

/** The problem with a JWKS file's text, or the key set it holds. */
export function readJwks(text: string): { jwks: { keys: unknown[] } } | { problem: string } {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    const pem = text.trimStart().startsWith("-----BEGIN");
    return {
      problem: pem
        ? 'is a PEM file, not a JWKS: jku URLs serve JSON Web Key Sets ({"keys": [...]})'
        : `is not JSON (${(err as Error).message})`,
    };
  }
  const o = typeof doc === "object" && doc !== null && !Array.isArray(doc) ? (doc as Record<string, unknown>) : {};
  if (!Array.isArray(o.keys))
    return {
      problem:
        typeof o.kty === "string"
          ? 'is one JWK, not a JWKS: put it in {"keys": [ … ]}'
          : 'is not a JWKS: {"keys": [...]} expected',
    };
  // RFC 7517 §4.1: "kty" is every JWK's one required member.
  const bad = o.keys.findIndex((k) => typeof (k as { kty?: unknown } | null)?.kty !== "string");
  if (bad >= 0) return { problem: `is not a JWKS: keys[${bad}] is not a JWK (no "kty")` };
  return { jwks: { keys: o.keys } };
}

const normal = (url: string): string | undefined => {
  try {
    return new URL(url).href;
  } catch {
    return undefined;
  }
};

interface KeyFile {
  file: string;
  /** The file's mtime, size and inode when last read; its key set then (undefined: unusable). */
  seen?: string;
  value?: unknown;
}

export class JwksCache {
  private readonly entries = new Map<string, { at: number; value: unknown }>();
  /** --jwks: by the jku URL, normalised (new URL().href). */
  private readonly files = new Map<string, KeyFile>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * With --jwks <url>=<file>: each file is read now, and one that is missing or not a JWKS stops
   * the start (StartError, exit 2) naming it, so a typo is seen before any request. After that
   * a file is read again whenever its mtime (or size, or inode: an editor's rename) changes, not
   * on ngrok's ~15 minutes: a developer rotating keys in a test expects the next request to use
   * the new ones; a stat per request that names the URL is all it costs. A file that has become
   * unusable serves no keys (the token cannot be checked) until it is fixed: the old keys are not
   * kept, so a test never passes on keys its file no longer holds.
   */
  static async open(files: Record<string, string> = {}, now?: () => number): Promise<JwksCache> {
    const cache = new JwksCache(now);
    for (const [url, file] of Object.entries(files)) {
      const key = normal(url);
      if (key === undefined) throw new StartError(`--jwks ${url}: not a URL`);
      const entry: KeyFile = { file };
      const problem = await cache.readFile(entry);
      if (problem !== undefined) throw new StartError(`--jwks ${url}: ${file} ${problem}`);
      cache.files.set(key, entry);
    }
    return cache;
  }

  /** JWKS documents by URL, for the URLs given (undefined when there are none). */
  async keysFor(urls: string[]): Promise<Record<string, unknown> | undefined> {
    if (urls.length === 0) return undefined;
    const out: Record<string, unknown> = {};
    for (const url of urls) {
      const file = this.files.size ? this.files.get(normal(url) ?? "") : undefined;
      const value = file ? (await this.readFile(file), file.value) : await this.get(url);
      if (value !== undefined) out[url] = value;
    }
    return out;
  }

  /** Reads the file again if it changed; its problem, if it has one. */
  private async readFile(entry: KeyFile): Promise<string | undefined> {
    try {
      const s = await stat(entry.file, { bigint: true });
      const seen = `${s.mtimeNs}:${s.size}:${s.ino}`;
      if (seen === entry.seen) return undefined;
      const read = readJwks(await readFile(entry.file, "utf8"));
      entry.seen = seen;
      entry.value = "jwks" in read ? read.jwks : undefined;
      return "problem" in read ? read.problem : undefined;
    } catch (err) {
      entry.seen = undefined;
      entry.value = undefined;
      return `cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`;
    }
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
