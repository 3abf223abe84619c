// What every resource of the emulator shares: its error type, reading and checking request
// bodies and path ids, list paging, and writing answers in the API's shapes.
import type http from "node:http";
import { ID_RULES, utf8Length, DESCRIPTION_MAX_BYTES, METADATA_MAX_BYTES } from "../api-data/ids.js";
import type { Collection, Store } from "./store.js";
import { randomBase62 } from "./store.js";

export const MAX_BODY_BYTES = 1024 * 1024;
const PAGE_MAX = 100;

/** What a resource handler gets: the state, its own base URL and the request. */
export interface Context {
  store: Store;
  base: string;
}

export interface Request {
  method: string;
  /** The path without query or trailing slash, split on "/" (segs[0] is the first name). */
  segs: string[];
  path: string;
  /** Path and query as received, for a list's `uri`. */
  raw: string;
  query: string;
  req: http.IncomingMessage;
}

/** A handled request: the status and body to send (undefined body: 204 with none). */
export interface Answer {
  status: number;
  body?: unknown;
}

/** An answer other than success, thrown from anywhere below and sent by the server. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const notFound = (what = "Resource not found") => new HttpError(404, undefined, what);
export const invalid = (msg: string) => new HttpError(400, "ERR_NGROK_215", msg);

const QUOTED_MAX = 64;

/** A value a message names, as a JSON string; a long one is cut, with its length (a 400 answers at once, and never carries the request back whole). */
export function quoted(value: string): string {
  if (value.length <= QUOTED_MAX) return JSON.stringify(value);
  return `${JSON.stringify(value.slice(0, QUOTED_MAX))}… (${utf8Length(value)} bytes)`;
}

export function throwIt(err: Error): never {
  throw err;
}

export function allow(method: string, allowed: string[], path: string): void {
  if (!allowed.includes(method)) {
    throw new HttpError(405, undefined, `Method ${method} is not allowed on ${path}; allowed: ${allowed.join(", ")}`, {
      Allow: allowed.join(", "),
    });
  }
}

/** An id format: a prefix and the tail every id shares. */
export interface IdFormat {
  prefix: string;
  re: RegExp;
  rule: string;
}

const TAIL_RULE = "followed by 1–64 letters or digits";
export function idFormat(prefix: string): IdFormat {
  return { prefix, re: new RegExp(`^${prefix}[A-Za-z0-9]{1,64}$`), rule: `must be ${prefix} ${TAIL_RULE}` };
}

export const FORMATS = {
  failover: { prefix: "bkdfo_", ...ID_RULES.failover },
  edge: { prefix: "edghts_", ...ID_RULES.edge },
  route: { prefix: "edghtsrt_", ...ID_RULES.route },
  endpoint: idFormat("ep_"),
} satisfies Record<string, IdFormat>;

/** A path segment, percent-decoded and checked against an id format. */
export function pathId(format: IdFormat, segment: string): string {
  let id: string;
  try {
    id = decodeURIComponent(segment);
  } catch {
    id = segment;
  }
  if (!format.re.test(id)) {
    throw new HttpError(
      400,
      "ERR_NGROK_227",
      `The ID ${JSON.stringify(id)} is invalid. Expected an ID with a prefix of ${format.prefix}: it ${format.rule}.`,
    );
  }
  return id;
}

/**
 * One page of a collection, newest first, as the API lists: `limit` (1–100, default 100)
 * and `before_id`; `next_page_uri` keeps the limit asked for.
 */
export function listPage<T extends { id: string }>(
  ctx: Context,
  r: Request,
  opts: { collection: Collection<T>; format: IdFormat; key: string; render: (record: T) => unknown },
): Answer {
  const params = new URLSearchParams(r.query);
  const seen = new Set<string>();
  for (const key of params.keys()) {
    if (key !== "limit" && key !== "before_id") {
      throw new HttpError(
        400,
        "ERR_NGROK_231",
        `The query part of the requested URI includes unknown parameters: ${key}. The supported parameters are: before_id, limit.`,
      );
    }
    if (seen.has(key)) {
      throw new HttpError(
        400,
        "ERR_NGROK_232",
        `The request must specify only a single value for the ${key} parameter but got ${params.getAll(key).length}.`,
      );
    }
    seen.add(key);
  }
  const limitText = params.get("limit") ?? "";
  let limit = PAGE_MAX;
  if (limitText !== "") {
    if (!/^\d+$/.test(limitText)) {
      throw new HttpError(
        400,
        "ERR_NGROK_244",
        `The page size limit must be a number between 1 and ${PAGE_MAX} but ${JSON.stringify(limitText)} was provided.`,
      );
    }
    limit = Number(limitText);
    if (limit < 1 || limit > PAGE_MAX) {
      throw new HttpError(
        400,
        "ERR_NGROK_233",
        `The page size limit must be between 1 and ${PAGE_MAX} but ${limitText} was provided.`,
      );
    }
  }
  const beforeText = params.get("before_id") ?? "";
  let beforeId: string | undefined;
  if (beforeText !== "") {
    if (!opts.format.re.test(beforeText)) {
      throw new HttpError(
        400,
        "ERR_NGROK_227",
        `The ID ${JSON.stringify(beforeText)} given as before_id is invalid. Expected an ID with a prefix of ${opts.format.prefix}.`,
      );
    }
    beforeId = beforeText;
  }
  const page = opts.collection.list(limit, beforeId);
  const last = page.items[page.items.length - 1];
  const next =
    page.more && last ? `${ctx.base}${r.path}?before_id=${last.id}${limitText !== "" ? `&limit=${limit}` : ""}` : null;
  return {
    status: 200,
    body: { [opts.key]: page.items.map(opts.render), uri: `${ctx.base}${r.raw}`, next_page_uri: next },
  };
}

// --- Bodies --------------------------------------------------------------------------------

export function onlyFields(body: Record<string, unknown>, allowed: readonly string[]): void {
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) {
      throw new HttpError(
        400,
        "ERR_NGROK_214",
        `The request parameter ${quoted(key)} is unknown and not expected. The supported fields are: ${allowed.join(", ")}.`,
      );
    }
  }
}

/** null counts as absent, as it does for the API's optional fields. */
export function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw invalid(`${field} must be a string`);
  return value;
}

export function optionalBoolean(value: unknown, field: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "boolean") throw invalid(`${field} must be true or false`);
  return value;
}

export function optionalObject(value: unknown, field: string): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw invalid(`${field} must be an object`);
  return value;
}

/** description and metadata as the API shows them: left out when empty. */
export function described(r: { description: string; metadata: string }) {
  return {
    ...(r.description !== "" ? { description: r.description } : {}),
    ...(r.metadata !== "" ? { metadata: r.metadata } : {}),
  };
}

export function description(value: unknown): string | undefined {
  const text = optionalString(value, "description");
  if (text !== undefined && utf8Length(text) > DESCRIPTION_MAX_BYTES) {
    throw invalid(`description is ${utf8Length(text)} bytes of UTF-8; the maximum is ${DESCRIPTION_MAX_BYTES}`);
  }
  return text;
}

export function metadata(value: unknown): string | undefined {
  const text = optionalString(value, "metadata");
  if (text !== undefined && utf8Length(text) > METADATA_MAX_BYTES) {
    throw new HttpError(
      400,
      "ERR_NGROK_100",
      `Invalid metadata length: ${utf8Length(text)} bytes. Max: ${METADATA_MAX_BYTES}`,
    );
  }
  return text;
}

/** A backend id in a body (any kind), refused with the API's code when malformed. */
export function backendId(value: unknown, field: string): string {
  if (typeof value !== "string") throw invalid(`${field} must be a string (a backend id)`);
  if (!ID_RULES.backend.re.test(value)) {
    throw new HttpError(
      400,
      "ERR_NGROK_242",
      `The ID ${quoted(value)} in ${field} is not a valid Backend ID: it ${ID_RULES.backend.rule}.`,
    );
  }
  return value;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export async function readJsonObject(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  const text = await readBody(req);
  // An empty body reads as an empty object: the field rules then say what is missing.
  if (text.trim() === "") return {};
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new HttpError(
      400,
      "ERR_NGROK_213",
      `The application/json request body could not be parsed: ${(err as Error).message}`,
    );
  }
  if (!isObject(data)) {
    throw new HttpError(
      400,
      "ERR_NGROK_213",
      "The application/json request body could not be parsed: expected a JSON object",
    );
  }
  return data;
}

const tooLarge = () =>
  new HttpError(413, "ERR_NGROK_212", `The request body is larger than the limit of ${MAX_BODY_BYTES} bytes.`, {
    Connection: "close",
  });

/** The body as UTF-8, refusing (without reading on) one over the size limit. */
function readBody(req: http.IncomingMessage): Promise<string> {
  const declared = Number(req.headers["content-length"]);
  if (declared > MAX_BODY_BYTES) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        cleanup();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks).toString("utf8"));
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
  });
}

// --- Responses -----------------------------------------------------------------------------

export function send(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  if (body === undefined) {
    res.writeHead(status);
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "Content-Type": "application/json",
    "Content-Length": String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

export function sendFailure(res: http.ServerResponse, err: unknown): void {
  const e =
    err instanceof HttpError ? err : new HttpError(500, undefined, `The emulator failed: ${persistMessage(err)}`);
  const body = {
    ...(e.code ? { error_code: e.code } : {}),
    status_code: e.status,
    msg: e.message,
    details: { operation_id: `op_${randomBase62(27)}` },
  };
  send(res, e.status, body, e.headers);
  // A refused body is not read on; the connection closes once the answer is out.
  if (e.status === 413) res.once("finish", () => res.req.socket.destroySoon());
}

function persistMessage(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code) return `could not save its state file (${code})`;
  return err instanceof Error ? err.message : String(err);
}
