// ip_restriction → restrict-ips, or why not.
import { describe } from "vitest";
import { translateIpRestriction } from "../../../src/migrate/modules/ip-restriction.js";
import { action, edgeModule, refusal, table, type Case } from "./table.js";

const CASES: Case[] = [
  {
    name: "the edge's IP policies, enforced",
    doc: action("restrict-ips"),
    module: {
      enabled: true,
      ip_policies: [{ id: "ipp_1", uri: "https://api.ngrok.com/ip_policies/ipp_1" }, { id: "ipp_2" }],
    },
    out: {
      steps: [{ actions: [{ type: "restrict-ips", config: { enforce: true, ip_policies: ["ipp_1", "ipp_2"] } }] }],
    },
  },
  {
    name: "no IP policies: refused (the edge let nothing through that an empty list would)",
    doc: edgeModule("edgerouteiprestrictionmodule"),
    module: { enabled: true, ip_policies: [] },
    out: refusal("ip_restriction", "ip_restriction is enabled with no IP policies"),
  },
  {
    name: "ip_policies not a list of references",
    module: { ip_policies: ["ipp_1"] },
    out: refusal("ip_restriction", "ip_restriction.ip_policies is not a list of IP policies"),
  },
  {
    name: "ip_policies absent",
    module: { enabled: true },
    out: refusal("ip_restriction", "ip_restriction.ip_policies is not a list of IP policies"),
  },
];

describe("ip_restriction", () => table(CASES, translateIpRestriction));
