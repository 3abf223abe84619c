// The emulator's state: Failover backends and the webhook verification modules of HTTPS
// edge routes. Kept in memory; with a state file, every change is on disk (written to a
// temp file, fsynced, renamed over the old one) before the request that made it is
// answered, so `kill -9` at any moment leaves the last good state readable. Changes that
// arrive while a write is in flight share the next write (group commit), which keeps
// throughput high without one rename per request.
import { randomFillSync } from "node:crypto";
import { constants as fsConstants } from "node:fs";
import { access, open, readFile, readdir, rename, stat, unlink } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { DESCRIPTION_MAX_BYTES, ID_RULES, METADATA_MAX_BYTES, utf8Length } from "../api/ids.js";
import { isProvider } from "../api/providers.js";
import { UsageError } from "../errors.js";

export interface FailoverRecord {
  id: string;
  created_at: string;
  description: string;
  metadata: string;
  backends: string[];
}

export interface WebhookModule {
  enabled: boolean;
  provider: string;
  secret: string;
}

export interface FailoverPatch {
  description?: string;
  metadata?: string;
  backends?: string[];
}

const STATE_VERSION = 1;

interface StateFile {
  version: number;
  failover_backends: FailoverRecord[];
  webhook_verifications: ({ edge_id: string; route_id: string } & WebhookModule)[];
}

export class Store {
  /** Failover backends by id. */
  private readonly failover = new Map<string, FailoverRecord>();
  /** Their ids, ascending; ids grow with creation time, so the end is the newest. */
  private readonly order: string[] = [];
  private readonly webhooks = new Map<string, WebhookModule>();
  private readonly ids = new IdGenerator();
  private writing: Promise<void> | null = null;
  private pending: Deferred | null = null;
  private tmpSeq = 0;

  /** How many times the state file has been written (changes share writes). */
  get writeCount(): number {
    return this.tmpSeq;
  }

  private constructor(readonly file: string | undefined) {}

  /** An empty in-memory store, or the one saved in `file` (which need not exist yet). */
  static async open(file?: string): Promise<Store> {
    if (file === undefined) return new Store(undefined);
    const path = resolve(file);
    const store = new Store(path);
    const text = await readState(path);
    // Only a missing file means "start empty": writes are atomic, so the emulator never
    // leaves an empty or blank file behind, and one that is must be damage (parseState refuses it).
    if (text !== undefined) store.load(parseState(path, text));
    else await checkWritableDir(path);
    await removeStaleTemps(path);
    return store;
  }

  // --- Failover backends ---------------------------------------------------------------

  getFailover(id: string): FailoverRecord | undefined {
    return this.failover.get(id);
  }

  /** Newest first: up to `limit` backends older than `beforeId` (any id, present or not). */
  listFailover(limit: number, beforeId?: string): { items: FailoverRecord[]; more: boolean } {
    let end = this.order.length;
    if (beforeId !== undefined) end = lowerBound(this.order, beforeId);
    const start = Math.max(0, end - limit);
    const items: FailoverRecord[] = [];
    for (let i = end - 1; i >= start; i--) items.push(this.failover.get(this.order[i]!)!);
    return { items, more: start > 0 };
  }

  async createFailover(input: { backends: string[]; description: string; metadata: string }): Promise<FailoverRecord> {
    const record: FailoverRecord = {
      id: `bkdfo_${this.ids.next()}`,
      created_at: rfc3339(new Date()),
      description: input.description,
      metadata: input.metadata,
      backends: [...input.backends],
    };
    this.insert(record);
    await this.persist();
    return record;
  }

  /** The updated backend, or undefined if there is none with that id. */
  async updateFailover(id: string, patch: FailoverPatch): Promise<FailoverRecord | undefined> {
    const current = this.failover.get(id);
    if (!current) return undefined;
    // Replaced, not mutated: a list being serialized elsewhere never sees half an update.
    const next: FailoverRecord = {
      ...current,
      ...(patch.description !== undefined ? { description: patch.description } : {}),
      ...(patch.metadata !== undefined ? { metadata: patch.metadata } : {}),
      ...(patch.backends !== undefined ? { backends: [...patch.backends] } : {}),
    };
    this.failover.set(id, next);
    await this.persist();
    return next;
  }

  /** False if there was none with that id. */
  async deleteFailover(id: string): Promise<boolean> {
    if (!this.failover.delete(id)) return false;
    const i = lowerBound(this.order, id);
    if (this.order[i] === id) this.order.splice(i, 1);
    await this.persist();
    return true;
  }

  // --- Webhook verification modules ---------------------------------------------------

  getWebhook(edgeId: string, routeId: string): WebhookModule | undefined {
    return this.webhooks.get(routeKey(edgeId, routeId));
  }

  async replaceWebhook(edgeId: string, routeId: string, module: WebhookModule): Promise<WebhookModule> {
    const copy = { enabled: module.enabled, provider: module.provider, secret: module.secret };
    this.webhooks.set(routeKey(edgeId, routeId), copy);
    await this.persist();
    return copy;
  }

  /** False if the route had no module. */
  async deleteWebhook(edgeId: string, routeId: string): Promise<boolean> {
    if (!this.webhooks.delete(routeKey(edgeId, routeId))) return false;
    await this.persist();
    return true;
  }

  // --- Persistence -----------------------------------------------------------------------

  /** Resolves once every change made so far is on disk. */
  async flush(): Promise<void> {
    // A pending batch always has a write in flight ahead of it, so waiting on writes suffices.
    while (this.writing) await this.writing;
  }

  private insert(record: FailoverRecord): void {
    this.failover.set(record.id, record);
    const i = lowerBound(this.order, record.id);
    this.order.splice(i, 0, record.id);
  }

  private load(state: StateFile): void {
    for (const record of state.failover_backends) this.insert(record);
    for (const w of state.webhook_verifications) {
      this.webhooks.set(routeKey(w.edge_id, w.route_id), { enabled: w.enabled, provider: w.provider, secret: w.secret });
    }
    // New ids must sort after the saved ones, even if the clock has gone back since.
    for (const id of this.order) this.ids.observe(id.slice("bkdfo_".length));
  }

  /** Joins the next write; the first change after an idle spell starts it at once. */
  private persist(): Promise<void> {
    if (this.file === undefined) return Promise.resolve();
    this.pending ??= deferred();
    const joined = this.pending.promise;
    if (!this.writing) this.startWrite();
    return joined;
  }

  private startWrite(): void {
    const batch = this.pending;
    if (!batch || this.file === undefined) return;
    this.pending = null;
    // The snapshot is taken now, so it holds every change whose request joined this batch.
    const text = this.serialize();
    this.writing = writeAtomically(this.file, text, ++this.tmpSeq).then(batch.resolve, batch.reject);
    void this.writing.finally(() => {
      this.writing = null;
      if (this.pending) this.startWrite();
    });
  }

  /** One record a line: compact to write, still readable and diffable by a person. */
  private serialize(): string {
    const backends = this.order.map((id) => JSON.stringify(this.failover.get(id)!));
    const webhooks = [...this.webhooks].map(([key, m]) => {
      const [edge_id, route_id] = key.split("/") as [string, string];
      return JSON.stringify({ edge_id, route_id, enabled: m.enabled, provider: m.provider, secret: m.secret });
    });
    const list = (lines: string[]) => (lines.length ? `[\n${lines.join(",\n")}\n]` : "[]");
    return `{"version":${STATE_VERSION},\n"failover_backends":${list(backends)},\n"webhook_verifications":${list(webhooks)}}\n`;
  }
}

function routeKey(edgeId: string, routeId: string): string {
  return `${edgeId}/${routeId}`;
}

/** RFC 3339 in UTC, whole seconds, as the API writes it (2026-01-02T03:04:05Z). */
export function rfc3339(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

/** First index whose id is >= `id` (ids of one length sort like their creation times). */
function lowerBound(sorted: string[], id: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// --- Ids ---------------------------------------------------------------------------------

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const KSUID_EPOCH = 1_400_000_000;
const KSUID_LENGTH = 27;
const KSUID_MAX = (1n << 160n) - 1n;

/**
 * KSUIDs, like the API's ids: 27 base62 characters encoding a 32-bit timestamp and 128
 * random bits. Each one is made greater than the last, so ids sort in creation order
 * (newest-first listing and `before_id` paging rely on that) and never repeat.
 */
class IdGenerator {
  private last = 0n;

  next(): string {
    const seconds = BigInt(Math.max(0, Math.floor(Date.now() / 1000) - KSUID_EPOCH));
    let value = (seconds << 128n) | randomBigInt128();
    if (value <= this.last) value = this.last + 1n;
    if (value > KSUID_MAX) value = KSUID_MAX; // unreachable before the year 2150
    this.last = value;
    return encodeBase62(value);
  }

  /** Ids from a state file; foreign ones (not 27 base62 characters) are ignored. */
  observe(tail: string): void {
    if (tail.length !== KSUID_LENGTH) return;
    const value = decodeBase62(tail);
    if (value !== undefined && value > this.last && value <= KSUID_MAX) this.last = value;
  }
}

function encodeBase62(value: bigint): string {
  let out = "";
  for (let i = 0; i < KSUID_LENGTH; i++) {
    out = BASE62[Number(value % 62n)]! + out;
    value /= 62n;
  }
  return out;
}

function decodeBase62(text: string): bigint | undefined {
  let value = 0n;
  for (const ch of text) {
    const digit = BASE62.indexOf(ch);
    if (digit < 0) return undefined;
    value = value * 62n + BigInt(digit);
  }
  return value;
}

// Random bytes come from a refilled pool: one syscall per 256 ids, not one each.
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function randomBytes(n: number): Buffer {
  if (poolOffset + n > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const out = pool.subarray(poolOffset, poolOffset + n);
  poolOffset += n;
  return out;
}

function randomBigInt128(): bigint {
  const b = randomBytes(16);
  return (b.readBigUInt64BE(0) << 64n) | b.readBigUInt64BE(8);
}

/** `length` random base62 characters (operation ids; a tiny modulo bias does not matter). */
export function randomBase62(length: number): string {
  const b = randomBytes(length);
  let out = "";
  for (let i = 0; i < length; i++) out += BASE62[b[i]! % 62];
  return out;
}

// --- The state file ----------------------------------------------------------------------

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
  reject: (err: unknown) => void;
}

function deferred(): Deferred {
  let resolveFn!: () => void;
  let rejectFn!: (err: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolveFn = res;
    rejectFn = rej;
  });
  // A batch nobody awaits any more must not become an unhandled rejection.
  promise.catch(() => undefined);
  return { promise, resolve: resolveFn, reject: rejectFn };
}

async function readState(path: string): Promise<string | undefined> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new UsageError(`state file ${path}: not a regular file`);
    return await readFile(path, "utf8");
  } catch (err) {
    if (err instanceof UsageError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    throw new UsageError(`state file ${path}: cannot be read (${code ?? (err as Error).message})`);
  }
}

/** Fails at start-up, not on the first change, when the state could never be saved. */
async function checkWritableDir(path: string): Promise<void> {
  const dir = dirname(path);
  try {
    await access(dir, fsConstants.W_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "its folder does not exist" : `its folder is not writable (${code ?? "error"})`;
    throw new UsageError(`state file ${path}: ${why}`);
  }
}

const tempName = (path: string, pid: number, seq: number) => `.${basename(path)}.${pid}.${seq}.tmp`;

/** Temp files of writes cut short by a crash (`kill -9`); those of live processes are left alone. */
async function removeStaleTemps(path: string): Promise<void> {
  const prefix = `.${basename(path)}.`;
  let names: string[];
  try {
    names = await readdir(dirname(path));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith(".tmp")) continue;
    const pid = Number(name.slice(prefix.length).split(".")[0]);
    if (!Number.isInteger(pid) || pid <= 0 || isAlive(pid)) continue;
    await unlink(join(dirname(path), name)).catch(() => undefined);
  }
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Temp file in the same folder (so rename is atomic), fsync, rename, fsync the folder. */
async function writeAtomically(path: string, text: string, seq: number): Promise<void> {
  const dir = dirname(path);
  const tmp = join(dir, tempName(path, process.pid, seq));
  try {
    // 0600: the state holds webhook secrets.
    const fh = await open(tmp, "wx", 0o600);
    try {
      await fh.writeFile(text, "utf8");
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  // Makes the rename itself durable; not possible on every platform (Windows), so best effort.
  try {
    const dh = await open(dir, "r");
    try {
      await dh.sync();
    } finally {
      await dh.close();
    }
  } catch {
    // the data is already safely in place; only the rename's durability is left to the OS
  }
}

/** Checks a saved state thoroughly: a file edited by hand or damaged is refused, never guessed at. */
function parseState(path: string, text: string): StateFile {
  const fail = (what: string): never => {
    throw new UsageError(`state file ${path} is corrupt: ${what}; fix it, or move it aside to start empty`);
  };
  if (text.trim() === "") return fail(text === "" ? "the file is empty" : "the file holds only whitespace");
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return fail(`not valid JSON (${(err as Error).message})`);
  }
  if (!isObject(data)) return fail("expected a JSON object");
  if (data.version !== STATE_VERSION) return fail(`unsupported version ${JSON.stringify(data.version)} (expected ${STATE_VERSION})`);
  const list = (key: string): unknown[] => {
    const v = data[key];
    if (v === undefined) return [];
    if (!Array.isArray(v)) return fail(`${key} must be an array`);
    return v;
  };
  const str = (obj: Record<string, unknown>, key: string, where: string): string => {
    const v = obj[key];
    if (typeof v !== "string") return fail(`${where}.${key} must be a string`);
    return v;
  };

  const failover: FailoverRecord[] = [];
  const seen = new Set<string>();
  list("failover_backends").forEach((item, i) => {
    const where = `failover_backends[${i}]`;
    if (!isObject(item)) return fail(`${where} must be an object`);
    const id = str(item, "id", where);
    if (!ID_RULES.failover.re.test(id)) fail(`${where}.id "${id}" ${ID_RULES.failover.rule}`);
    if (seen.has(id)) fail(`${where}.id "${id}" appears twice`);
    seen.add(id);
    const created_at = str(item, "created_at", where);
    if (Number.isNaN(Date.parse(created_at))) fail(`${where}.created_at is not an RFC 3339 time`);
    const description = str(item, "description", where);
    if (utf8Length(description) > DESCRIPTION_MAX_BYTES) fail(`${where}.description is over ${DESCRIPTION_MAX_BYTES} bytes`);
    const metadata = str(item, "metadata", where);
    if (utf8Length(metadata) > METADATA_MAX_BYTES) fail(`${where}.metadata is over ${METADATA_MAX_BYTES} bytes`);
    const backends = item.backends;
    if (!Array.isArray(backends) || backends.length === 0) return fail(`${where}.backends must be a non-empty array`);
    backends.forEach((b, j) => {
      if (typeof b !== "string" || !ID_RULES.backend.re.test(b)) fail(`${where}.backends[${j}] is not a valid backend id`);
    });
    failover.push({ id, created_at, description, metadata, backends: backends as string[] });
  });

  const webhooks: StateFile["webhook_verifications"] = [];
  list("webhook_verifications").forEach((item, i) => {
    const where = `webhook_verifications[${i}]`;
    if (!isObject(item)) return fail(`${where} must be an object`);
    const edge_id = str(item, "edge_id", where);
    if (!ID_RULES.edge.re.test(edge_id)) fail(`${where}.edge_id "${edge_id}" ${ID_RULES.edge.rule}`);
    const route_id = str(item, "route_id", where);
    if (!ID_RULES.route.re.test(route_id)) fail(`${where}.route_id "${route_id}" ${ID_RULES.route.rule}`);
    if (typeof item.enabled !== "boolean") fail(`${where}.enabled must be true or false`);
    const provider = str(item, "provider", where);
    if (!isProvider(provider)) fail(`${where}.provider "${provider}" is not a supported provider`);
    const secret = str(item, "secret", where);
    webhooks.push({ edge_id, route_id, enabled: item.enabled as boolean, provider, secret });
  });

  return { version: STATE_VERSION, failover_backends: failover, webhook_verifications: webhooks };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
