// restrict-ips (traffic-policy/actions/restrict-ips.mdx).
import * as z from "zod/mini";
import type { ActionSpec } from "../actions.js";
import { bool, cidr } from "./fields.js";

export const spec: ActionSpec = {
  phases: ["on_tcp_connect", "on_http_request", "on_http_response"], // :33
  schema: () =>
    z
      .strictObject({
        // :41-43 says required and "Default true" at once; ngrok's Kubernetes operator writes
        // restrict-ips without it (ngrok-operator internal/trafficpolicy/policy.go,
        // NewRestricIPsActionFromIPPolicies): optional.
        enforce: z.optional(bool()),
        allow: z.optional(z.array(cidr())), // :45-47 CIDRs
        deny: z.optional(z.array(cidr())), // :49-51 CIDRs
        // :53-55 IP Policy ids (ipp_…).
        ip_policies: z.optional(
          z.array(
            z
              .string()
              .check(z.regex(/^ipp_[A-Za-z0-9]{1,64}$/, "must be an IP policy id: ipp_ + 1–64 letters or digits")),
          ),
        ),
      })
      .check(
        // :73-77 the CIDR sets come from these three: with none, nothing is restricted.
        z.refine(
          (c) => [c.allow, c.deny, c.ip_policies].some((list) => list !== undefined && list.length > 0),
          "give at least one of allow, deny or ip_policies",
        ),
      ),
  celFields: ["allow[]", "deny[]"], // :45, :49 cel={true}
};
