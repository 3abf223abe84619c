// The emulator's state: backends of every kind, HTTPS edges with their routes, and Cloud
// Endpoints. Kept in memory; with a state file, every change is on disk (written to a
// temp file, fsynced, renamed over the old one) before the request that made it is
// answered, so `kill -9` at any moment leaves the last good state readable. Changes that
// arrive while a write is in flight share the next write (group commit), which keeps
// throughput high without one rename per request.
import { randomFillSync } from "node:crypto";
import { constants as fsConstants } from "node:fs";
import { access, link, readFile, readdir, readlink, realpath, rename, stat, unlink, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { OTHER_BACKEND_KINDS, type OtherBackendKind } from "../api-data/ids.js";
import { writeDurable } from "../files/durable.js";
import { StartError } from "./start-error.js";
import { parseState, recordProblem, serializeState, type RecordKind, type StateFile } from "./state-file.js";

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

/** The backend kinds other than failover, by the name in their path. */
export { OTHER_BACKEND_KINDS, type OtherBackendKind };

/** A tunnel group, HTTP response, weighted or static backend: the common fields and its own. */
export interface BackendRecord {
  id: string;
  created_at: string;
  description: string;
  metadata: string;
  fields: Record<string, unknown>;
}

export interface RouteRecord {
  id: string;
  created_at: string;
  match_type: "exact_path" | "path_prefix";
  match: string;
  description: string;
  metadata: string;
  backend: { enabled: boolean; backend_id: string } | null;
  webhook_verification: WebhookModule | null;
  /** The other modules by name; a missing name is a module that is not set. */
  modules: Record<string, Record<string, unknown>>;
}

export interface EdgeRecord {
  id: string;
  created_at: string;
  description: string;
  metadata: string;
  hostports: string[];
  mutual_tls: Record<string, unknown> | null;
  tls_termination: Record<string, unknown> | null;
  routes: RouteRecord[];
}

/**
 * A TLS or TCP edge: hostports (null when none, as the API shows a TCP edge without a
 * reserved address) and its modules by name, kept as sent (backend_id, ip_policy_ids…);
 * a missing name is a module that is not set.
 */
export interface TcpTlsEdgeRecord {
  id: string;
  created_at: string;
  description: string;
  metadata: string;
  hostports: string[] | null;
  modules: Record<string, Record<string, unknown>>;
}

export interface EndpointRecord {
  id: string;
  created_at: string;
  updated_at: string;
  type: string;
  url: string;
  traffic_policy: string;
  description: string;
  metadata: string;
  bindings: string[];
  pooling_enabled: boolean;
}

/**
 * Records of one kind by id, with their ids kept ascending: ids grow with creation time,
 * so the end is the newest.
 */
export class Collection<T extends { id: string }> {
  private readonly byId = new Map<string, T>();
  private readonly order: string[] = [];
  private changes = 0;

  /** `kind`: where its records go in the state file, whose loader checks each one saved. */
  constructor(readonly kind: RecordKind) {}

  get size(): number {
    return this.order.length;
  }

  /** Grows with every put and delete: an index of these records (the traffic port's) is current while it stays. */
  get version(): number {
    return this.changes;
  }

  get(id: string): T | undefined {
    return this.byId.get(id);
  }

  /** Oldest first. */
  all(): T[] {
    return this.order.map((id) => this.byId.get(id)!);
  }

  /** Newest first: up to `limit` records older than `beforeId` (any id, present or not). */
  list(limit: number, beforeId?: string): { items: T[]; more: boolean } {
    let end = this.order.length;
    if (beforeId !== undefined) end = lowerBound(this.order, beforeId);
    const start = Math.max(0, end - limit);
    const items: T[] = [];
    for (let i = end - 1; i >= start; i--) items.push(this.byId.get(this.order[i]!)!);
    return { items, more: start > 0 };
  }

  /** Adds a record, or replaces the one with its id. */
  put(record: T): void {
    this.changes++;
    if (!this.byId.has(record.id)) this.order.splice(lowerBound(this.order, record.id), 0, record.id);
    this.byId.set(record.id, record);
  }

  delete(id: string): boolean {
    if (!this.byId.delete(id)) return false;
    this.changes++;
    const i = lowerBound(this.order, id);
    if (this.order[i] === id) this.order.splice(i, 1);
    return true;
  }
}

export class Store {
  readonly failover = new Collection<FailoverRecord>("failover_backends");
  readonly backends: Record<OtherBackendKind, Collection<BackendRecord>> = {
    tunnel_group: new Collection("backends.tunnel_group"),
    http_response: new Collection("backends.http_response"),
    weighted: new Collection("backends.weighted"),
    static: new Collection("backends.static"),
  };
  readonly edges = new Collection<EdgeRecord>("https_edges");
  readonly tlsEdges = new Collection<TcpTlsEdgeRecord>("tls_edges");
  readonly tcpEdges = new Collection<TcpTlsEdgeRecord>("tcp_edges");
  /** Requests received since start (every one, answered or refused): `--debug`-free bench counts. */
  requestCount = 0;
  readonly endpoints = new Collection<EndpointRecord>("endpoints");
  private readonly ids = new IdGenerator();
  private writing: Promise<void> | null = null;
  private pending: Deferred | null = null;
  private tmpSeq = 0;

  /** How many times the state file has been written (changes share writes). */
  get writeCount(): number {
    return this.tmpSeq;
  }

  private constructor(readonly file: string | undefined) {}

  /**
   * An empty in-memory store, or the one saved in `file` (which need not exist yet), locked
   * for this process until `close`: two emulators on one file would each overwrite the
   * other's acknowledged writes.
   */
  static async open(file?: string): Promise<Store> {
    if (file === undefined) return new Store(undefined);
    const path = await realStatePath(file);
    const store = new Store(path);
    await checkWritableDir(path);
    await lockState(path);
    try {
      const text = await readState(path);
      // Only a missing file means "start empty": writes are atomic, so the emulator never
      // leaves an empty or blank file behind, and one that is must be damage (parseState refuses it).
      if (text !== undefined) store.load(parseState(path, text));
      await removeStaleTemps(path);
    } catch (err) {
      await unlockState(path);
      throw err;
    }
    return store;
  }

  /** Waits for pending writes, then lets another emulator open the state file. */
  async close(): Promise<void> {
    if (this.file === undefined) return;
    try {
      await this.flush();
    } finally {
      await unlockState(this.file);
    }
  }

  /** A new id with this prefix, greater than every id made or loaded before. */
  newId(prefix: string): string {
    return `${prefix}${this.ids.next()}`;
  }

  /**
   * Puts a record (new or replacing) in its collection and resolves once that is on disk.
   * Records are replaced, never mutated: a list being serialized never sees half an update.
   * A record the state file's loader would refuse is refused here, before anything changes
   * (in memory too): the emulator never writes a state it cannot start from again.
   */
  async save<T extends { id: string }>(collection: Collection<T>, record: T): Promise<T> {
    const problem = recordProblem(collection.kind, record);
    if (problem !== undefined) throw new Error(`it would save a record it could not load again: ${problem}`);
    collection.put(record);
    await this.persist();
    return record;
  }

  /** False if there was none with that id. */
  async remove<T extends { id: string }>(collection: Collection<T>, id: string): Promise<boolean> {
    if (!collection.delete(id)) return false;
    await this.persist();
    return true;
  }

  // --- Failover backends (kept for callers of the first emulator) ----------------------

  getFailover(id: string): FailoverRecord | undefined {
    return this.failover.get(id);
  }

  async createFailover(input: { backends: string[]; description: string; metadata: string }): Promise<FailoverRecord> {
    return this.save(this.failover, {
      id: this.newId("bkdfo_"),
      created_at: rfc3339(new Date()),
      description: input.description,
      metadata: input.metadata,
      backends: [...input.backends],
    });
  }

  /** The updated backend, or undefined if there is none with that id. */
  async updateFailover(id: string, patch: FailoverPatch): Promise<FailoverRecord | undefined> {
    const current = this.failover.get(id);
    if (!current) return undefined;
    return this.save(this.failover, {
      ...current,
      ...(patch.description !== undefined ? { description: patch.description } : {}),
      ...(patch.metadata !== undefined ? { metadata: patch.metadata } : {}),
      ...(patch.backends !== undefined ? { backends: [...patch.backends] } : {}),
    });
  }

  async deleteFailover(id: string): Promise<boolean> {
    return this.remove(this.failover, id);
  }

  // --- Persistence -----------------------------------------------------------------------

  /** Resolves once every change made so far is on disk. */
  async flush(): Promise<void> {
    // A pending batch always has a write in flight ahead of it, so waiting on writes suffices.
    while (this.writing) await this.writing;
  }

  private load(state: StateFile): void {
    for (const record of state.failover_backends) this.failover.put(record);
    for (const kind of OTHER_BACKEND_KINDS) for (const record of state.backends[kind]) this.backends[kind].put(record);
    for (const record of state.https_edges) this.edges.put(record);
    for (const record of state.endpoints) this.endpoints.put(record);
    for (const record of state.tls_edges ?? []) this.tlsEdges.put(record);
    for (const record of state.tcp_edges ?? []) this.tcpEdges.put(record);
    // New ids must sort after the saved ones, even if the clock has gone back since.
    const observe = (id: string) => this.ids.observe(id.slice(id.lastIndexOf("_") + 1));
    for (const c of [
      this.failover,
      ...Object.values(this.backends),
      this.edges,
      this.endpoints,
      this.tlsEdges,
      this.tcpEdges,
    ])
      for (const r of c.all()) observe(r.id);
    for (const edge of this.edges.all()) for (const route of edge.routes) observe(route.id);
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
    const text = serializeState({
      failover_backends: this.failover.all(),
      backends: Object.fromEntries(
        OTHER_BACKEND_KINDS.map((k) => [k, this.backends[k].all()]),
      ) as StateFile["backends"],
      https_edges: this.edges.all(),
      endpoints: this.endpoints.all(),
      tls_edges: this.tlsEdges.all(),
      tcp_edges: this.tcpEdges.all(),
    });
    this.writing = writeAtomically(this.file, text, ++this.tmpSeq).then(batch.resolve, batch.reject);
    void this.writing.finally(() => {
      this.writing = null;
      if (this.pending) this.startWrite();
    });
  }
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

/**
 * The file a state path names: a symbolic link (dangling too, the file not made yet) is
 * followed, and so is every link among its folders. The state is read, written and locked
 * there, so `--state link.json` writes the link's target (the link stays), and emulators on
 * two names of one file are one file's emulators: the second refuses to start.
 */
async function realStatePath(file: string): Promise<string> {
  let path = resolve(file);
  for (let hops = 0; hops < 40; hops++) {
    try {
      return await realpath(path);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== "ENOENT") throw new StartError(`state file ${file}: cannot be resolved (${code ?? "error"})`);
    }
    let target: string;
    try {
      target = await readlink(path);
    } catch {
      // Not a link, and not there yet: the name in its folder's real place (a missing folder is reported later).
      try {
        return join(await realpath(dirname(path)), basename(path));
      } catch {
        return path;
      }
    }
    path = resolve(dirname(path), target);
  }
  throw new StartError(`state file ${file}: too many levels of symbolic links`);
}

async function readState(path: string): Promise<string | undefined> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new StartError(`state file ${path}: not a regular file`);
    return await readFile(path, "utf8");
  } catch (err) {
    if (err instanceof StartError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    throw new StartError(`state file ${path}: cannot be read (${code ?? (err as Error).message})`);
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
    throw new StartError(`state file ${path}: ${why}`);
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

// --- The state file's lock ----------------------------------------------------------------
// `<state>.lock` holds the pid of the emulator using the state file. It is made whole (written
// to a file of our own, then hard-linked into place, which fails if one is there), so a reader
// never sees it empty. A lock whose process is gone (`kill -9`) is taken over: it is renamed
// aside first, so that of two emulators taking over the same stale lock, one wins.

const lockName = (path: string) => `${path}.lock`;

/** The state files this process holds: a lock with our pid and not among them is a previous
 * process's (a container's emulator restarted as pid 1 again). */
const held = new Set<string>();

async function lockState(path: string): Promise<void> {
  const lock = lockName(path);
  const mine = join(dirname(path), `.${basename(path)}.lock.${process.pid}`);
  await writeFile(mine, `${process.pid}\n`, { mode: 0o600 });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await placeLock(mine, lock);
        held.add(path);
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST" || attempt >= 5) throw lockError(path, err);
      }
      const holder = await lockHolder(lock);
      const ours = holder === process.pid && !held.has(path);
      if (holder !== undefined && !ours && isAlive(holder)) {
        throw new StartError(
          `state file ${path} is in use by another emulator (process ${holder}, lock ${lock}); stop it, or use another --state file`,
        );
      }
      await takeOver(lock, holder);
    }
  } finally {
    await unlink(mine).catch(() => undefined);
  }
}

/** Puts our lock in place, failing with EEXIST if one is there. */
async function placeLock(mine: string, lock: string): Promise<void> {
  try {
    await link(mine, lock);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP") throw err;
    // A file system without hard links: exclusive create (a reader may see it empty for an instant).
    await writeFile(lock, `${process.pid}\n`, { flag: "wx", mode: 0o600 });
  }
}

/** The pid in a lock file; undefined if it is gone or holds no pid. */
async function lockHolder(lock: string): Promise<number | undefined> {
  try {
    const pid = Number((await readFile(lock, "utf8")).trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Removes the stale lock of `dead`, unless another emulator took it over in the meantime. */
async function takeOver(lock: string, dead: number | undefined): Promise<void> {
  const aside = `${lock}.stale.${process.pid}`;
  try {
    await rename(lock, aside);
  } catch {
    return; // gone already: try again
  }
  const moved = await lockHolder(aside);
  // A fresh lock, made between our read and our rename, goes back (unless a third one is there).
  if (moved !== dead) await link(aside, lock).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
}

async function unlockState(path: string): Promise<void> {
  const lock = lockName(path);
  if (!held.delete(path)) return;
  if ((await lockHolder(lock)) === process.pid) await unlink(lock).catch(() => undefined);
}

function lockError(path: string, err: unknown): StartError {
  const code = (err as NodeJS.ErrnoException).code;
  return new StartError(`state file ${path}: cannot lock it (${code ?? (err as Error).message})`);
}

/** Temp file in the same folder (so rename is atomic), fsync, rename, fsync the folder. */
function writeAtomically(path: string, text: string, seq: number): Promise<void> {
  // 0600: the state holds webhook secrets.
  return writeDurable(path, text, {
    mode: 0o600,
    temp: (file) => join(dirname(file), tempName(file, process.pid, seq)),
    exclusive: true,
    syncData: true,
    syncFolder: true,
  });
}
