import { describe, expect, it } from "vitest";
import { api } from "../../src/commands/api/api.js";
import { parse, refusal } from "./parse.js";

describe("api argv → options", () => {
  it("upper-cases the method and roots the path", async () => {
    expect((await parse(api, ["patch", "backends/failover/bkdfo_1", "--input", "-"])).options).toEqual({
      method: "PATCH",
      path: "/backends/failover/bkdfo_1",
      input: "-",
      dryRun: false,
      showSecret: false,
    });
  });

  it.each([
    [["FETCH", "/x"], '<method>: "FETCH" must be one of GET, POST, PUT, PATCH, DELETE'],
    [
      ["GET", "https://evil.test/x?key=1"],
      "<path>: give a path below the base URL (like /backends/failover), not a URL",
    ],
    [["GET", "/a/%2E%2E/b"], "<path>: must not contain . or .. segments"],
    [["GET", "/a\tb"], "<path>: must not contain control characters (tab, line breaks, …)"],
    [["GET", "/x", "--input", "body.json"], "--input: GET requests carry no body"],
  ])("refuses %j", async (argv, message) => {
    expect((await refusal(api, argv)).message).toBe(message);
  });
});
