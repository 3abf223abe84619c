// user_agent_filter → a rule of its own that denies (403) a user agent the edge refused: one
// matching no allow pattern, or matching a deny pattern, or empty. The edge let an agent
// through when an allow pattern matched it, whatever the deny patterns said.
import { celString } from "../policy.js";
import { DENY_403, isStrings, refused, translation, type Obj, type Translation } from "./translator.js";

export function userAgentExpression(allow: string[], deny: string[]): string {
  const matches = (p: string) => `req.user_agent.matches(${celString(p)})`;
  const empty = 'req.user_agent == ""';
  const after = deny.length === 0 ? empty : `(${[...deny.map(matches), empty].join(" || ")})`;
  return allow.length === 0 ? after : `!(${allow.map(matches).join(" || ")}) && ${after}`;
}

export function translateUserAgentFilter(module: Obj): Translation {
  const allow = module.allow ?? [];
  const deny = module.deny ?? [];
  if (!isStrings(allow) || !isStrings(deny))
    return refused("user_agent_filter", "allow and deny must be lists of patterns");
  const out = translation();
  out.steps.push({ rule: "user-agent-filter", expressions: [userAgentExpression(allow, deny)], actions: [DENY_403] });
  return out;
}
