// Issue 25 item 17 (c): the validator refuses add-headers and remove-headers that name the
// user-agent header, as ngrok does: "You may not add or remove the `user-agent` header."
// (traffic-policy/actions/add-headers.mdx and traffic-policy/actions/remove-headers.mdx, behavior).
// So a plan that carried one would be an internal error (assertPlansValid), never sent.
import { describe, expect, it } from "vitest";
import { checkPolicy } from "../../src/policy/index.js";

const PUBLIC = { protocol: "https", internal: false } as const;
const policy = (...actions: unknown[]) => ({ on_http_request: [{ actions: [...actions, { type: "deny" }] }] });

describe("add-headers and remove-headers never name user-agent", () => {
  it.each([
    ["add-headers", { headers: { "User-Agent": "x" } }, "on_http_request[0].actions[0].config.headers"],
    ["add-headers", { headers: { "x-a": "1", "user-agent": "x" } }, "on_http_request[0].actions[0].config.headers"],
    ["remove-headers", { headers: ["x-a", "USER-AGENT"] }, "on_http_request[0].actions[0].config.headers"],
  ])("%s %j is a problem at its headers", (type, config, path) => {
    const problems = checkPolicy(policy({ type, config }), PUBLIC);
    expect(problems).toEqual([{ path, message: expect.stringMatching(/user-agent/), code: "ERR_NGROK_2201" }]);
  });

  it("in the response phase too", () => {
    const problems = checkPolicy(
      {
        on_http_request: [{ actions: [{ type: "deny" }] }],
        on_http_response: [{ actions: [{ type: "remove-headers", config: { headers: ["user-agent"] } }] }],
      },
      PUBLIC,
    );
    expect(problems.map((p) => p.path)).toEqual(["on_http_response[0].actions[0].config.headers"]);
  });

  it("other headers, and user-agent in a value, are fine", () => {
    expect(
      checkPolicy(
        policy(
          { type: "add-headers", config: { headers: { "x-user-agent": "user-agent" } } },
          { type: "remove-headers", config: { headers: ["x-a"] } },
        ),
        PUBLIC,
      ),
    ).toEqual([]);
  });
});
