// user_agent_filter → a deny (403) rule for the user agents the edge refused.
import { describe } from "vitest";
import { translateUserAgentFilter } from "../../../src/migrate/modules/user-agent-filter.js";
import { DENY_403 } from "../../../src/migrate/modules/translator.js";
import { action, edgeModule, refusal, table, type Case } from "./table.js";

const rule = (expression: string) => ({
  steps: [{ rule: "user-agent-filter", expressions: [expression], actions: [DENY_403] }],
});

const CASES: Case[] = [
  {
    name: "deny patterns: those agents, and an empty one, are denied",
    doc: edgeModule("edgerouteuseragentfiltermodule"),
    module: { enabled: true, allow: [], deny: ["(?i)curl/.*"] },
    out: rule('(req.user_agent.matches("(?i)curl/.*") || req.user_agent == "")'),
  },
  {
    name: "allow patterns: an agent matching none is denied, whatever deny says",
    doc: "traffic-policy/examples/user-agent-filtering.mdx",
    module: { allow: ["^Mozilla"], deny: ["bot"] },
    out: rule('!(req.user_agent.matches("^Mozilla")) && (req.user_agent.matches("bot") || req.user_agent == "")'),
  },
  {
    name: "no patterns: only an empty agent is denied",
    module: { allow: null, deny: null },
    out: rule('req.user_agent == ""'),
  },
  {
    name: "a pattern is a CEL string literal, never CEL",
    doc: action("deny"),
    module: { deny: ['a") || true || ("'] },
    out: rule('(req.user_agent.matches("a\\") || true || (\\"") || req.user_agent == "")'),
  },
  {
    name: "patterns not a list",
    module: { allow: "^Mozilla" },
    out: refusal("user_agent_filter", "allow and deny must be lists of patterns"),
  },
];

describe("user_agent_filter", () => table(CASES, translateUserAgentFilter));
