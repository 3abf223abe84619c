// An address against CIDRs, IPv4 and IPv6 alike (node:net's BlockList): restrict-ips
// ("A connection is allowed only if its source IP matches at least one of the allowed CIDRs
// and does not match any of the denied CIDRs", snippets/traffic-policy/actions/restrict-ips/
// behavior.mdx) and the inCidrRange/inCidrRanges macros (traffic-policy/macros/index.mdx:1944,
// 1975: an invalid CIDR matches nothing).
import { BlockList, isIP } from "node:net";

const made = new Map<string, BlockList | null>();

function family(ip: string): "ipv4" | "ipv6" | undefined {
  const v = isIP(ip);
  return v === 4 ? "ipv4" : v === 6 ? "ipv6" : undefined;
}

/** The block of one CIDR (null when it is not one), made once. */
function block(cidr: string): BlockList | null {
  let list = made.get(cidr);
  if (list !== undefined) return list;
  list = null;
  const [net, bits, extra] = cidr.split("/");
  const fam = net === undefined ? undefined : family(net);
  if (fam && extra === undefined && bits !== undefined && /^\d{1,3}$/.test(bits)) {
    const prefix = Number(bits);
    if (prefix <= (fam === "ipv4" ? 32 : 128)) {
      list = new BlockList();
      list.addSubnet(net!, prefix, fam);
    }
  }
  made.set(cidr, list);
  return list;
}

/** Whether `cidr` is a valid CIDR. */
export function isCidr(cidr: string): boolean {
  return block(cidr) !== null;
}

/** Whether `ip` is in `cidr` (false for an invalid address or CIDR). */
export function inCidr(ip: string, cidr: string): boolean {
  const fam = family(ip);
  const list = block(cidr);
  if (!fam || !list) return false;
  // An IPv4 address is checked against an IPv4-mapped IPv6 block too (BlockList maps them).
  return list.check(ip, fam);
}

/** The first CIDR of `cidrs` that holds `ip`, if any. */
export function firstMatch(ip: string, cidrs: readonly string[]): string | undefined {
  return cidrs.find((c) => inCidr(ip, c));
}
