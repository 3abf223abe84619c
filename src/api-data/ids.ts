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

export function isValidId(kind: IdKind, value: string): boolean {
  return ID_RULES[kind].re.test(value);
}

/** Byte length in UTF-8, which is what the API's limits count. */
export function utf8Length(value: string): number {
  return Buffer.byteLength(value, "utf8");
}

export const DESCRIPTION_MAX_BYTES = 255;
export const METADATA_MAX_BYTES = 4096;
