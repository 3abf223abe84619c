// `edgectl config set`: (a) the command line → options or refusal (test/commands/parse.ts);
// (b) the keys and the checks of their values (shared by get and unset), and the verbs run with
// fake deps on a temp config folder: set, get, list and unset in one round trip. The config file
// itself (modes, locks, concurrent writers) is in test/app/config-file.test.ts and e2e/config-file.test.ts.
import { describe, expect, it } from "vitest";
import {
  setVerb as setDef,
  getVerb,
  get as configGet,
  list as configList,
  set as configSet,
  unset as configUnset,
} from "../../../src/commands/config/verbs.js";
import { parse, refusal } from "../parse.js";
import { UsageError } from "../../../src/errors.js";
import { checkValue, shownValue } from "../../../src/commands/config/keys.js";
import { fakeDeps } from "../fake-deps.js";
import { useFreshFolder } from "../../e2e/support.js";

describe("config set argv → options", () => {
  it.each([
    [["output", "json"], { key: "output", value: "json" }],
    [["timeout", "abc"], { key: "timeout", value: "abc" }],
  ])("reads %j", async (argv, options) => {
    expect((await parse(setDef, argv)).options).toEqual(options);
  });

  it.each([
    [["colour", "x"], '<key>: "colour" is not a setting; use one of api_key, base_url, output, timeout, retries'],
  ])("refuses %j", async (argv, message) => {
    expect((await refusal(setDef, argv)).message).toBe(message);
  });
});

describe("its run (fake deps)", () => {
  const KEY = "2xYzAbCdEfGhIjKlMnOp_1234";

  const tmp = useFreshFolder("edgectl-auth-test-");

  describe("config keys", () => {
    it("accepts the five keys and refuses others, listing them", () => {
      for (const k of ["api_key", "base_url", "output", "timeout", "retries"])
        expect(getVerb.parse({ key: k }).key).toBe(k);
      expect(() => getVerb.parse({ key: "color" })).toThrow(
        /^<key>: "color" is not a setting; use one of api_key, base_url, output, timeout, retries$/,
      );
    });

    it("checks values with the same rules as flags, naming the key", () => {
      expect(checkValue("base_url", "https://x.example.com/p/")).toBe("https://x.example.com/p");
      expect(() => checkValue("base_url", "http://example.com")).toThrow(/^<value> for base_url: refusing plain http/);
      expect(() => checkValue("output", "xml")).toThrow(/^<value> for output: /);
      expect(checkValue("timeout", " 10 ")).toBe("10");
      expect(() => checkValue("timeout", "0")).toThrow(/^<value> for timeout: /);
      expect(checkValue("retries", "4")).toBe("4");
      expect(() => checkValue("retries", "11")).toThrow(/^<value> for retries: /);
      expect(checkValue("api_key", ` ${KEY} `)).toBe(KEY);
      expect(() => checkValue("api_key", "a b")).toThrow(/^<value> for api_key: /);
      expect(() => checkValue("api_key", "   ")).toThrow(UsageError);
    });

    it("masks only api_key when shown", () => {
      expect(shownValue("api_key", KEY)).toBe("********1234");
      expect(shownValue("base_url", "https://x")).toBe("https://x");
    });
  });
  describe("config get/set/unset/list", () => {
    it("sets, gets, lists and unsets keys of the active profile", async () => {
      const deps = () => fakeDeps({ env: { EDGECTL_CONFIG_DIR: tmp }, settings: { profile: "ci" } });
      await configSet("output", "json", deps());
      await configSet("timeout", "10", deps());

      const got = deps();
      await configGet("output", got);
      expect(got.out.text).toBe("json\n");

      const listed = fakeDeps({ env: { EDGECTL_CONFIG_DIR: tmp }, settings: { profile: "ci", output: "json" } });
      await configList(listed);
      expect(JSON.parse(listed.out.text)).toEqual({ output: "json", timeout: "10" });

      await configUnset("output", deps());
      const missing = deps();
      await configGet("output", missing);
      expect(missing.out.text).toBe("");
      expect(missing.err.text).toBe('output is not set in profile "ci"\n');
    });

    it("warns that a key set on the command line stays in history, and shows it masked", async () => {
      const setter = fakeDeps({ env: { EDGECTL_CONFIG_DIR: tmp } });
      await configSet("api_key", KEY, setter);
      expect(setter.warnings).toEqual([expect.stringContaining("shell history")]);
      const getter = fakeDeps({ env: { EDGECTL_CONFIG_DIR: tmp } });
      await configGet("api_key", getter);
      expect(getter.out.text).toBe("********1234\n");
      const lister = fakeDeps({ env: { EDGECTL_CONFIG_DIR: tmp } });
      await configList(lister);
      expect(lister.out.text).toMatch(/api_key\s+\*{8}1234/);
      expect(lister.out.text).not.toContain(KEY);
    });
  });
});
