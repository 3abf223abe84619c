// ip_restriction (an HTTPS route's, or a TLS or TCP edge's) → restrict-ips, enforced, with the
// same IP policies.
import { actions, isObj, refused, type Obj, type Translation } from "./translator.js";

export function translateIpRestriction(module: Obj): Translation {
  const policies = module.ip_policies;
  if (!Array.isArray(policies) || !policies.every((p) => isObj(p) && typeof p.id === "string"))
    return refused("ip_restriction", "ip_restriction.ip_policies is not a list of IP policies");
  if (policies.length === 0) return refused("ip_restriction", "ip_restriction is enabled with no IP policies");
  return actions({ type: "restrict-ips", config: { enforce: true, ip_policies: policies.map((p) => (p as Obj).id) } });
}
