// The functions of ngrok's CEL environment, each once: its signatures (for the checker) and,
// where @bufbuild/cel's standard library and its strings extension do not already have it, its
// implementation (for evaluateExpression). Sources: cel-spec langdef.md "List of Standard
// Definitions" (the standard ones) and ngrok-docs traffic-policy/macros/index.mdx (the line of
// each entry's heading is given: ngrok-docs 56a5f9960f4e7c7e134fbc0412f74b51b2df5eca).
import { createHash } from "node:crypto";
import { isIP } from "node:net";
import { crc32 } from "node:zlib";
import {
  celFunc,
  celList,
  celMap,
  celMethod,
  CelScalar,
  isCelList,
  isCelMap,
  listType,
  mapType,
  type CelFunc,
  type CelList,
  type CelMap,
  type CelValue,
} from "@bufbuild/cel";
import { readType, type Ty } from "./types.js";

export interface Overload {
  /** The receiver's type (a method), none for a global function. */
  target?: Ty;
  args: Ty[];
  result: Ty;
  /** Where it is documented. */
  source: string;
}

const STD = "cel-spec langdef.md, List of Standard Definitions";
const MACROS = "traffic-policy/macros/index.mdx";

// [signature, source]: `recv.name(args): result` for a method, `name(args): result` else.
const SIGNATURES: readonly (readonly [string, string])[] = [
  // cel-spec standard definitions
  ["size(string): int", STD],
  ["size(bytes): int", STD],
  ["size(list(T)): int", STD],
  ["size(map(K, V)): int", STD],
  ["string.size(): int", `${MACROS}:1176`],
  ["bytes.size(): int", `${MACROS}:79`],
  ["list(T).size(): int", `${MACROS}:693`],
  ["map(K, V).size(): int", `${MACROS}:897`],
  ["string.contains(string): bool", `${MACROS}:1142`],
  ["string.startsWith(string): bool", `${MACROS}:1108`],
  ["string.endsWith(string): bool", `${MACROS}:1125`],
  ["string.matches(string): bool", `${MACROS}:1085`],
  ["matches(string, string): bool", `${MACROS}:1092`],
  ["int(int): int", STD],
  ["int(uint): int", STD],
  ["int(double): int", STD],
  ["int(string): int", STD],
  ["int(timestamp): int", STD],
  ["uint(int): uint", STD],
  ["uint(uint): uint", STD],
  ["uint(double): uint", STD],
  ["uint(string): uint", STD],
  ["double(int): double", STD],
  ["double(uint): double", STD],
  ["double(double): double", STD],
  ["double(string): double", STD],
  ["string(string): string", STD],
  ["string(int): string", STD],
  ["string(uint): string", STD],
  ["string(double): string", STD],
  ["string(bool): string", STD],
  ["string(bytes): string", STD],
  ["string(timestamp): string", STD],
  ["string(duration): string", STD],
  ["bytes(string): bytes", STD],
  ["bytes(bytes): bytes", STD],
  ["bool(bool): bool", STD],
  ["bool(string): bool", STD],
  ["dyn(T): dyn", STD],
  ["type(T): type", STD],
  ["timestamp(string): timestamp", STD],
  ["timestamp(timestamp): timestamp", STD],
  ["timestamp(int): timestamp", STD],
  ["duration(string): duration", STD],
  ["duration(duration): duration", STD],
  ...["getDate", "getDayOfMonth", "getDayOfWeek", "getDayOfYear", "getFullYear", "getMonth"].flatMap(
    (name) =>
      [
        [`timestamp.${name}(): int`, `${MACROS} ts.${name}`],
        [`timestamp.${name}(string): int`, `${MACROS} ts.${name}`],
      ] as const,
  ),
  ...["getHours", "getMinutes", "getSeconds", "getMilliseconds"].flatMap(
    (name) =>
      [
        [`timestamp.${name}(): int`, `${MACROS} ts.${name}`],
        [`timestamp.${name}(string): int`, `${MACROS} ts.${name}`],
        [`duration.${name}(): int`, `${MACROS} ts.${name}`],
      ] as const,
  ),
  // the strings extension (ngrok documents each)
  ["string.charAt(int): string", `${MACROS}:1159`],
  ["string.indexOf(string): int", `${MACROS}:1192`],
  ["string.indexOf(string, int): int", `${MACROS}:1192`],
  ["string.lastIndexOf(string): int", `${MACROS}:1231`],
  ["string.lastIndexOf(string, int): int", `${MACROS}:1231`],
  ["string.format(list(dyn)): string", `${MACROS}:1211`],
  ["string.split(string): list(string)", `${MACROS}:1255`],
  ["string.split(string, int): list(string)", `${MACROS}:1255`],
  ["string.replace(string, string): string", `${MACROS}:1273`],
  ["string.replace(string, string, int): string", `${MACROS}:1273`],
  ["string.lowerAscii(): string", `${MACROS}:1574`],
  ["string.upperAscii(): string", `${MACROS}:1591`],
  ["string.substring(int): string", `${MACROS}:1608`],
  ["string.substring(int, int): string", `${MACROS}:1608`],
  ["string.trim(): string", `${MACROS}:1630`],
  ["strings.quote(string): string", `${MACROS}:1660`],
  ["list(string).join(): string", `${MACROS}:655`],
  ["list(string).join(string): string", `${MACROS}:655`],
  // ngrok's own
  ["base64.decode(string): bytes", `${MACROS}:14`],
  ["base64.encode(bytes): string", `${MACROS}:31`],
  ["basic_auth.encode(string, string): string", `${MACROS}:47`],
  // The cookie's fields differ by phase, and the page's own example reads `.secure` of a
  // request cookie (which req.cookies does not have): dyn.
  ["getReqCookie(string): dyn", `${MACROS}:99`],
  ["getReqHeader(string): list(string)", `${MACROS}:129`],
  ["getQueryParam(string): list(string)", `${MACROS}:160`],
  ["hasQueryParam(string): bool", `${MACROS}:190`],
  ["hasReqCookie(string): bool", `${MACROS}:219`],
  ["hasReqHeader(string): bool", `${MACROS}:248`],
  ["getResCookie(string): dyn", `${MACROS}:282`],
  ["getResHeader(string): list(string)", `${MACROS}:312`],
  ["hasResCookie(string): bool", `${MACROS}:342`],
  ["hasResHeader(string): bool", `${MACROS}:371`],
  ...["crc32", "crc64", "md5", "sha1", "sha256", "sha512", "xxhash64"].flatMap(
    (h) =>
      [
        [`hash.${h}(string): string`, `${MACROS} hash.${h}`],
        [`hash.${h}(string, string): string`, `${MACROS} hash.${h}`],
        [`string.${h}(): string`, `${MACROS} string.${h}`],
        [`string.${h}(string): string`, `${MACROS} string.${h}`],
      ] as const,
  ),
  ["json.decode(string): dyn", `${MACROS}:543`],
  ["json.encode(dyn): string", `${MACROS}:573`],
  ["list(T).encodeJson(): string", `${MACROS}:615`],
  ["list(T).slice(int, int): list(T)", `${MACROS}:709`],
  ["list(T).flatten(): list(dyn)", `${MACROS}:724`],
  ["list(T).flatten(int): list(dyn)", `${MACROS}:724`],
  ["list(T).sort(): list(T)", `${MACROS}:745`],
  ["list(T).distinct(): list(T)", `${MACROS}:785`],
  ["lists.range(int): list(int)", `${MACROS}:801`],
  ["map(K, V).encodeJson(): string", `${MACROS}:827`],
  ["map(K, V).encodeQueryString(): string", `${MACROS}:837`],
  ["queryString.decode(string): map(string, list(string))", `${MACROS}:915`],
  ["queryString.encode(map(K, V)): string", `${MACROS}:944`],
  ["rand.double(): double", `${MACROS}:975`],
  ["rand.int(): int", `${MACROS}:1004`],
  ["rand.int(int, int): int", `${MACROS}:1004`],
  ["secrets.get(string, string): string", `${MACROS}:1059`],
  ["string.decodeBase64(): string", `${MACROS}:1290`],
  ["string.decodeJson(): dyn", `${MACROS}:1300`],
  ["string.decodeQueryString(): map(string, list(string))", `${MACROS}:1310`],
  ["string.encodeBase64(): string", `${MACROS}:1320`],
  ["string.escapeUrl(): string", `${MACROS}:1330`],
  ["string.isJson(): bool", `${MACROS}:1341`],
  ["string.isPrivateIp(): bool", `${MACROS}:1352`],
  ["string.isQueryString(): bool", `${MACROS}:1371`],
  ["string.isURL(): bool", `${MACROS}:1382`],
  ["string.lower(): string", `${MACROS}:1393`],
  ["string.upper(): string", `${MACROS}:1404`],
  ["string.parseUrl(): map(string, dyn)", `${MACROS}:1415`],
  ["string.unescapeUrl(): string", `${MACROS}:1426`],
  ["string.reverse(): string", `${MACROS}:1645`],
  ["url.escape(string): string", `${MACROS}:1842`],
  ["url.parse(string): map(string, dyn)", `${MACROS}:1872`],
  ["url.unescape(string): string", `${MACROS}:1902`],
  ["inCidrRange(string, string): bool", `${MACROS}:1944`],
  ["inCidrRanges(string, list(string)): bool", `${MACROS}:1975`],
];

/** The macros ngrok documents beyond cel-spec's: `sortBy(x, key)` binds its first argument. */
export const BINDING_MACROS: ReadonlyMap<string, string> = new Map([["sortBy", `${MACROS}:765`]]);

const SIG =
  /^(?:(?<recv>string|bytes|timestamp|duration|list\(\w+\)|map\(\w+, ?\w+\))\.)?(?<name>[\w.]+)\((?<args>.*)\): (?<result>.+)$/;

function splitArgs(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "(") depth++;
    else if (text[i] === ")") depth--;
    else if (text[i] === "," && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (text.trim() !== "") out.push(text.slice(start));
  return out.map((s) => s.trim());
}

function buildOverloads(): Map<string, Overload[]> {
  const table = new Map<string, Overload[]>();
  for (const [sig, source] of SIGNATURES) {
    const m = SIG.exec(sig);
    if (!m?.groups) throw new Error(`bad signature ${sig}`);
    const { recv, name, args, result } = m.groups as { recv?: string; name: string; args: string; result: string };
    const overload: Overload = {
      ...(recv ? { target: readType(recv) } : {}),
      args: splitArgs(args).map(readType),
      result: readType(result),
      source,
    };
    const list = table.get(name!) ?? [];
    list.push(overload);
    table.set(name!, list);
  }
  return table;
}

/** Every function's overloads, by name (`startsWith`, `base64.encode`). */
export const OVERLOADS: ReadonlyMap<string, readonly Overload[]> = buildOverloads();
/** The global functions' qualified names' first segments (`base64`, `hash`, …). */
export const FUNCTION_NAMESPACES: ReadonlySet<string> = new Set(
  [...OVERLOADS.keys()].filter((n) => n.includes(".")).map((n) => n.split(".")[0]!),
);

// ---- the implementations edgectl adds to @bufbuild/cel's ----

const { STRING, BYTES, INT, BOOL, DYN, DOUBLE } = CelScalar;

/** A timestamp as RFC 3339 text, a duration as seconds (`1.5s`), as cel-go's string() writes them. */
function wellKnown(v: object): string | undefined {
  const m = (v as { message?: { $typeName?: string; seconds?: bigint; nanos?: number } }).message;
  if (!m || m.seconds === undefined) return undefined;
  const ms = Number(m.seconds) * 1000 + Math.floor((m.nanos ?? 0) / 1e6);
  if (m.$typeName === "google.protobuf.Timestamp") return new Date(ms).toISOString().replace(".000Z", "Z");
  if (m.$typeName === "google.protobuf.Duration") return `${ms / 1000}s`;
  return undefined;
}

/** A CEL value as plain JSON-able data (json.encode, encodeJson, a result). */
export function toPlain(v: CelValue | undefined): unknown {
  if (typeof v === "bigint") return Number(v);
  if (v !== null && typeof v === "object") {
    const text = wellKnown(v);
    if (text !== undefined) return text;
  }
  if (v instanceof Uint8Array) return Buffer.from(v).toString("base64");
  if (isCelList(v)) return [...v].map(toPlain);
  if (isCelMap(v)) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of v) o[String(typeof k === "object" ? k.value : k)] = toPlain(x);
    return o;
  }
  if (v !== null && typeof v === "object" && "value" in v) return toPlain((v as { value: CelValue }).value);
  return v;
}

/** Plain data (JSON) as a CEL value: numbers are doubles, as JSON's are. */
export function fromPlain(v: unknown): CelValue {
  if (Array.isArray(v)) return celList(v.map(fromPlain));
  if (v !== null && typeof v === "object")
    return celMap(new Map(Object.entries(v).map(([k, x]) => [k, fromPlain(x)] as const)));
  if (typeof v === "bigint") return v;
  return v as CelValue;
}

const hex = (s: string, algorithm: string, format?: string) =>
  createHash(algorithm)
    .update(s)
    .digest(format === "base64" ? "base64" : "hex");
const crc = (s: string, format?: string) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(crc32(s));
  return format === "base64" ? b.toString("base64") : b.toString("hex");
};
const notLocal = (name: string) => () => {
  throw new Error(`${name} is not worked out locally (ngrok's docs do not say which variant)`);
};

function parseUrl(s: string): CelMap {
  const u = new URL(s);
  return fromPlain({
    scheme: u.protocol.replace(/:$/, ""),
    host: u.host,
    path: u.pathname,
    raw_query: u.search.replace(/^\?/, ""),
    fragment: u.hash.replace(/^#/, ""),
    user: u.username,
  }) as CelMap;
}

function ipv4(ip: string): number | undefined {
  if (isIP(ip) !== 4) return undefined;
  return ip.split(".").reduce((n, o) => n * 256 + Number(o), 0);
}
function ipBits(ip: string): bigint | undefined {
  const v4 = ipv4(ip);
  if (v4 !== undefined) return BigInt(v4);
  if (isIP(ip) !== 6) return undefined;
  const [head, tail = ""] = ip.split("::");
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const groups = ip.includes("::") ? [...h, ...Array<string>(8 - h.length - t.length).fill("0"), ...t] : h;
  return groups.reduce((n, g) => (n << 16n) + BigInt(parseInt(g || "0", 16)), 0n);
}
/** inCidrRange: false for an invalid CIDR (traffic-policy/macros/index.mdx:1948). */
export function inCidr(ip: string, cidr: string): boolean {
  const [base, bits] = cidr.split("/");
  if (base === undefined || bits === undefined || !/^\d+$/.test(bits)) return false;
  const width = isIP(base) === 4 ? 32 : isIP(base) === 6 ? 128 : 0;
  if (width === 0 || isIP(ip) !== isIP(base) || Number(bits) > width) return false;
  const a = ipBits(ip)!;
  const b = ipBits(base)!;
  const shift = BigInt(width - Number(bits));
  return a >> shift === b >> shift;
}

const queryOf = (s: string): CelMap => {
  const m = new Map<string, string[]>();
  for (const [k, v] of new URLSearchParams(s)) m.set(k, [...(m.get(k) ?? []), v]);
  return celMap(new Map([...m].map(([k, v]) => [k, celList(v)] as const)));
};
const queryString = (v: CelValue): string => {
  const p = new URLSearchParams();
  for (const [k, x] of Object.entries(toPlain(v) as Record<string, unknown>))
    for (const one of Array.isArray(x) ? x : [x]) p.append(k, String(one));
  return p.toString();
};

const LIST = listType(DYN);
const MAP = mapType(STRING, DYN);

/** What a function reads of the request or response (getReqHeader…): the activation's values. */
export interface Lookups {
  value(name: string): unknown;
}

function listOf(v: unknown): CelList {
  if (isCelList(v)) return v;
  return celList(Array.isArray(v) ? (v as CelValue[]) : []);
}
function entry(map: unknown, key: string): unknown {
  if (map instanceof Map) return map.get(key);
  if (isCelMap(map)) return map.get(key);
  if (map !== null && typeof map === "object") return (map as Record<string, unknown>)[key];
  return undefined;
}

/** The functions @bufbuild/cel lacks, bound to one activation (getReqHeader reads its req.headers). */
export function runtimeFunctions(look: Lookups): CelFunc[] {
  const header = (where: "req" | "res", name: string) =>
    listOf(entry(look.value(`${where}.headers`), name.toLowerCase()));
  const cookie = (where: "req" | "res", name: string) => {
    const all = entry(look.value(`${where}.cookies`), name);
    const first = isCelList(all) ? all.get(0) : Array.isArray(all) ? (all[0] as CelValue) : undefined;
    if (first === undefined) throw new Error(`no cookie named ${name}`);
    return first;
  };
  const hashes: CelFunc[] = [];
  for (const [h, algo] of [
    ["md5", "md5"],
    ["sha1", "sha1"],
    ["sha256", "sha256"],
    ["sha512", "sha512"],
  ] as const) {
    hashes.push(
      celFunc(`hash.${h}`, [STRING], STRING, (s) => hex(s, algo)),
      celFunc(`hash.${h}`, [STRING, STRING], STRING, (s, f) => hex(s, algo, f)),
      celMethod(h, STRING, [], STRING, function (this: string) {
        return hex(this, algo);
      }),
      celMethod(h, STRING, [STRING], STRING, function (this: string, f: string) {
        return hex(this, algo, f);
      }),
    );
  }
  for (const h of ["crc64", "xxhash64"]) {
    hashes.push(
      celFunc(`hash.${h}`, [STRING], STRING, notLocal(`hash.${h}`)),
      celFunc(`hash.${h}`, [STRING, STRING], STRING, notLocal(`hash.${h}`)),
      celMethod(h, STRING, [], STRING, notLocal(h)),
      celMethod(h, STRING, [STRING], STRING, notLocal(h)),
    );
  }
  return [
    ...hashes,
    celFunc("hash.crc32", [STRING], STRING, (s) => crc(s)),
    celFunc("hash.crc32", [STRING, STRING], STRING, (s, f) => crc(s, f)),
    celMethod("crc32", STRING, [], STRING, function (this: string) {
      return crc(this);
    }),
    celMethod("crc32", STRING, [STRING], STRING, function (this: string, f: string) {
      return crc(this, f);
    }),
    celFunc("base64.decode", [STRING], BYTES, (s) => {
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.length % 4 !== 0) throw new Error("not base64");
      return new Uint8Array(Buffer.from(s, "base64"));
    }),
    celFunc("base64.encode", [BYTES], STRING, (b) => Buffer.from(b).toString("base64")),
    celFunc(
      "basic_auth.encode",
      [STRING, STRING],
      STRING,
      (u, p) => `Basic ${Buffer.from(`${u}:${p}`).toString("base64")}`,
    ),
    celFunc("getReqHeader", [STRING], LIST, (n) => header("req", n)),
    celFunc("hasReqHeader", [STRING], BOOL, (n) => header("req", n).size > 0),
    celFunc("getResHeader", [STRING], LIST, (n) => header("res", n)),
    celFunc("hasResHeader", [STRING], BOOL, (n) => header("res", n).size > 0),
    celFunc("getQueryParam", [STRING], LIST, (n) => listOf(entry(look.value("req.url.query_params"), n))),
    celFunc("hasQueryParam", [STRING], BOOL, (n) => listOf(entry(look.value("req.url.query_params"), n)).size > 0),
    celFunc("getReqCookie", [STRING], DYN, (n) => cookie("req", n)),
    celFunc("hasReqCookie", [STRING], BOOL, (n) => listOf(entry(look.value("req.cookies"), n)).size > 0),
    celFunc("getResCookie", [STRING], DYN, (n) => cookie("res", n)),
    celFunc("hasResCookie", [STRING], BOOL, (n) => listOf(entry(look.value("res.cookies"), n)).size > 0),
    celFunc("json.decode", [STRING], DYN, (s) => fromPlain(JSON.parse(s))),
    celFunc("json.encode", [DYN], STRING, (v) => JSON.stringify(toPlain(v))),
    celMethod("encodeJson", LIST, [], STRING, function (this: CelValue) {
      return JSON.stringify(toPlain(this));
    }),
    celMethod("encodeJson", MAP, [], STRING, function (this: CelValue) {
      return JSON.stringify(toPlain(this));
    }),
    celMethod("slice", LIST, [INT, INT], LIST, function (this: CelValue, a: bigint, b: bigint) {
      return celList([...listOf(this)].slice(Number(a), Number(b)));
    }),
    celMethod("flatten", LIST, [], LIST, function (this: CelValue) {
      return celList([...listOf(this)].flatMap((x) => (isCelList(x) ? [...x] : [x])));
    }),
    celMethod("sort", LIST, [], LIST, function (this: CelValue) {
      return celList([...listOf(this)].sort((a, b) => (a! < b! ? -1 : a! > b! ? 1 : 0)));
    }),
    celMethod("distinct", LIST, [], LIST, function (this: CelValue) {
      const seen = new Set<string>();
      return celList(
        [...listOf(this)].filter((x) => {
          const key = JSON.stringify(toPlain(x));
          return seen.has(key) ? false : (seen.add(key), true);
        }),
      );
    }),
    celFunc("lists.range", [INT], LIST, (n) => celList(Array.from({ length: Number(n) }, (_, i) => BigInt(i)))),
    celMethod("encodeQueryString", MAP, [], STRING, function (this: CelValue) {
      return queryString(this);
    }),
    celFunc("queryString.decode", [STRING], MAP, queryOf),
    celFunc("queryString.encode", [MAP], STRING, queryString),
    celFunc("rand.double", [], DOUBLE, () => Math.random()),
    celFunc("rand.int", [], INT, () => BigInt(Math.round(Math.random()))),
    celFunc("rand.int", [INT, INT], INT, (a, b) => a + BigInt(Math.floor(Math.random() * Number(b - a + 1n)))),
    celFunc("secrets.get", [STRING, STRING], STRING, (v, n) => {
      throw new Error(`secrets.get("${v}", "${n}"): the vault is ngrok's, not read locally`);
    }),
    celMethod("decodeBase64", STRING, [], STRING, function (this: string) {
      return Buffer.from(this, "base64").toString("utf8");
    }),
    celMethod("decodeJson", STRING, [], DYN, function (this: string) {
      return fromPlain(JSON.parse(this));
    }),
    celMethod("decodeQueryString", STRING, [], MAP, function (this: string) {
      return queryOf(this);
    }),
    celMethod("encodeBase64", STRING, [], STRING, function (this: string) {
      return Buffer.from(this).toString("base64");
    }),
    celMethod("escapeUrl", STRING, [], STRING, function (this: string) {
      return encodeURIComponent(this);
    }),
    celMethod("isJson", STRING, [], BOOL, function (this: string) {
      try {
        JSON.parse(this);
        return true;
      } catch {
        return false;
      }
    }),
    celMethod("isPrivateIp", STRING, [], BOOL, function (this: string) {
      // RFC 1918's three ranges (traffic-policy/macros/index.mdx:1354).
      return ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"].some((c) => inCidr(this, c));
    }),
    celMethod("isQueryString", STRING, [], BOOL, function (this: string) {
      return /^([^=&]+(=[^&]*)?)(&[^=&]+(=[^&]*)?)*$/.test(this);
    }),
    celMethod("isURL", STRING, [], BOOL, function (this: string) {
      return URL.canParse(this);
    }),
    celMethod("lower", STRING, [], STRING, function (this: string) {
      return this.toLowerCase();
    }),
    celMethod("upper", STRING, [], STRING, function (this: string) {
      return this.toUpperCase();
    }),
    celMethod("parseUrl", STRING, [], MAP, function (this: string) {
      return parseUrl(this);
    }),
    celMethod("unescapeUrl", STRING, [], STRING, function (this: string) {
      return decodeURIComponent(this);
    }),
    celMethod("reverse", STRING, [], STRING, function (this: string) {
      return [...this].reverse().join("");
    }),
    celFunc("url.escape", [STRING], STRING, (s) => encodeURIComponent(s)),
    celFunc("url.parse", [STRING], MAP, parseUrl),
    celFunc("url.unescape", [STRING], STRING, (s) => decodeURIComponent(s)),
    celFunc("inCidrRange", [STRING, STRING], BOOL, inCidr),
    celFunc("inCidrRanges", [STRING, LIST], BOOL, (ip, cidrs) => [...listOf(cidrs)].some((c) => inCidr(ip, String(c)))),
  ];
}
