// Id formats of the API. Checked before an id is placed in a path (edgectl) and when a
// request arrives (the emulator), so both sides agree on what is well formed.

const TAIL = "[A-Za-z0-9]{1,64}";

export const ID_RULES = {
  failover: { re: new RegExp(`^bkdfo_${TAIL}$`), rule: "must be bkdfo_ followed by 1–64 letters or digits" },
  backend: {
    re: new RegExp(`^bkd[a-z]{2}_${TAIL}$`),
    rule: "must be bkd + two lowercase letters + _ + 1–64 letters or digits (e.g. bkdhr_…, bkdtg_…)",
  },
  edge: { re: new RegExp(`^edghts_${TAIL}$`), rule: "must be edghts_ followed by 1–64 letters or digits" },
  /** An edge of any of the three kinds (what `migrate edge` takes). */
  anyEdge: {
    re: new RegExp(`^edg(?:hts|tls|tcp)_${TAIL}$`),
    rule: "must be edghts_, edgtls_ or edgtcp_ followed by 1–64 letters or digits",
  },
  route: { re: new RegExp(`^edghtsrt_${TAIL}$`), rule: "must be edghtsrt_ followed by 1–64 letters or digits" },
  endpoint: { re: new RegExp(`^ep_${TAIL}$`), rule: "must be ep_ followed by 1–64 letters or digits" },
} as const;

export type IdKind = keyof typeof ID_RULES;

/** The five backend kinds under /backends/<kind> (retired with Edges), and each one's id prefix. */
export const OTHER_BACKEND_KINDS = ["tunnel_group", "http_response", "weighted", "static"] as const;
export const BACKEND_KINDS = ["failover", ...OTHER_BACKEND_KINDS] as const;
export type BackendKind = (typeof BACKEND_KINDS)[number];
export type OtherBackendKind = (typeof OTHER_BACKEND_KINDS)[number];
export const BACKEND_PREFIX: Record<BackendKind, string> = {
  failover: "bkdfo_",
  tunnel_group: "bkdtg_",
  http_response: "bkdhr_",
  weighted: "bkdwd_",
  static: "bkdsc_",
};

/** The kind a backend id names by its prefix, or undefined for an id of no known kind. */
export function backendKindOf(id: string): BackendKind | undefined {
  return BACKEND_KINDS.find((kind) => id.startsWith(BACKEND_PREFIX[kind]));
}

export function isValidId(kind: IdKind, value: string): boolean {
  return ID_RULES[kind].re.test(value);
}

/** Byte length in UTF-8, which is what the API's limits count. */
export function utf8Length(value: string): number {
  return Buffer.byteLength(value, "utf8");
}

export const DESCRIPTION_MAX_BYTES = 255;
export const METADATA_MAX_BYTES = 4096;
