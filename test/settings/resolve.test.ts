import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.js";
import type { Profile } from "../../src/settings/config-file.js";
import {
  DEFAULT_BASE_URL,
  isLoopbackHost,
  isTruthy,
  parseBaseUrl,
  parseOutput,
  parseRetries,
  parseTimeout,
  resolveProfileName,
  resolveSettings,
  type GlobalFlags,
} from "../../src/settings/resolve.js";

const resolve = (
  flags: GlobalFlags = {},
  env: Record<string, string | undefined> = {},
  profile: Profile = {},
  name = "default",
) => resolveSettings(flags, env, profile, name);

function usageError(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return err as UsageError;
  }
  throw new Error("expected a UsageError");
}

describe("defaults", () => {
  it("uses the built-in defaults when nothing is set", () => {
    expect(resolve()).toEqual({
      profile: "default",
      apiKey: undefined,
      apiKeySource: undefined,
      baseUrl: "https://api.ngrok.com",
      output: "table",
      timeoutMs: 30_000,
      retries: 3,
      debug: false,
    });
    expect(DEFAULT_BASE_URL).toBe("https://api.ngrok.com");
  });
});

describe("API key precedence", () => {
  const env = { EDGECTL_API_KEY: "env_edgectl_key", NGROK_API_KEY: "env_ngrok_key" };
  const profile = { api_key: "profile_key" };

  it("takes --api-key over everything", () => {
    const s = resolve({ apiKey: "flag_key" }, env, profile);
    expect(s.apiKey).toBe("flag_key");
    expect(s.apiKeySource).toBe("--api-key");
  });

  it("takes EDGECTL_API_KEY over NGROK_API_KEY and the profile", () => {
    const s = resolve({}, env, profile);
    expect(s.apiKey).toBe("env_edgectl_key");
    expect(s.apiKeySource).toBe("EDGECTL_API_KEY");
  });

  it("takes NGROK_API_KEY over the profile", () => {
    const s = resolve({}, { NGROK_API_KEY: "env_ngrok_key" }, profile);
    expect(s.apiKey).toBe("env_ngrok_key");
    expect(s.apiKeySource).toBe("NGROK_API_KEY");
  });

  it("falls back to the profile, naming it as the source", () => {
    const s = resolve({}, {}, profile, "staging");
    expect(s.apiKey).toBe("profile_key");
    expect(s.apiKeySource).toBe('profile "staging"');
  });

  it("skips empty values", () => {
    const s = resolve({}, { EDGECTL_API_KEY: "", NGROK_API_KEY: "env_ngrok_key" }, profile);
    expect(s.apiKeySource).toBe("NGROK_API_KEY");
  });

  it("trims whitespace around the key", () => {
    expect(resolve({}, { EDGECTL_API_KEY: "  k_with_newline\n" }).apiKey).toBe("k_with_newline");
  });
});

describe("base URL precedence", () => {
  it("takes the flag, then EDGECTL_BASE_URL, then the profile", () => {
    const env = { EDGECTL_BASE_URL: "https://env.example.com" };
    const profile = { base_url: "https://profile.example.com" };
    expect(resolve({ baseUrl: "https://flag.example.com" }, env, profile).baseUrl).toBe("https://flag.example.com");
    expect(resolve({}, env, profile).baseUrl).toBe("https://env.example.com");
    expect(resolve({}, {}, profile).baseUrl).toBe("https://profile.example.com");
    expect(resolve().baseUrl).toBe("https://api.ngrok.com");
  });

  it("names the source of a refused base URL", () => {
    expect(usageError(() => resolve({}, { EDGECTL_BASE_URL: "http://example.com" })).message).toMatch(
      /^EDGECTL_BASE_URL: /,
    );
    expect(usageError(() => resolve({}, {}, { base_url: "http://example.com" }, "p1")).message).toMatch(
      /^base_url in profile "p1" of the config file: /,
    );
    expect(usageError(() => resolve({ baseUrl: "http://example.com" })).message).toMatch(/^--base-url: /);
  });
});

describe("output precedence", () => {
  it("takes --json over everything", () => {
    const s = resolve({ json: true, output: "table" }, { EDGECTL_OUTPUT: "table" }, { output: "table" });
    expect(s.output).toBe("json");
  });

  it("takes --output, then EDGECTL_OUTPUT, then the profile", () => {
    expect(resolve({ output: "table" }, { EDGECTL_OUTPUT: "json" }, { output: "json" }).output).toBe("table");
    expect(resolve({}, { EDGECTL_OUTPUT: "json" }, { output: "table" }).output).toBe("json");
    expect(resolve({}, {}, { output: "json" }).output).toBe("json");
  });

  it("refuses an unknown format naming where it came from", () => {
    expect(usageError(() => resolve({ output: "xml" })).message).toMatch(/^--output: "xml"/);
    expect(usageError(() => resolve({}, { EDGECTL_OUTPUT: "JSON" })).message).toMatch(/^EDGECTL_OUTPUT: "JSON"/);
    expect(usageError(() => resolve({}, {}, { output: "wide" }, "ci")).message).toMatch(
      /^output in profile "ci" of the config file: "wide"/,
    );
  });
});

describe("timeout precedence", () => {
  it("takes --timeout, then EDGECTL_TIMEOUT, then the profile, in seconds", () => {
    expect(resolve({ timeout: "5" }, { EDGECTL_TIMEOUT: "6" }, { timeout: "7" }).timeoutMs).toBe(5000);
    expect(resolve({}, { EDGECTL_TIMEOUT: "6" }, { timeout: "7" }).timeoutMs).toBe(6000);
    expect(resolve({}, {}, { timeout: "7" }).timeoutMs).toBe(7000);
  });

  it("refuses a bad value naming where it came from", () => {
    expect(usageError(() => resolve({}, { EDGECTL_TIMEOUT: "abc" })).message).toMatch(/^EDGECTL_TIMEOUT: "abc"/);
    expect(usageError(() => resolve({ timeout: "0" })).message).toMatch(/^--timeout: "0"/);
  });
});

describe("retries precedence", () => {
  it("takes --retries, then EDGECTL_RETRIES, then the profile", () => {
    expect(resolve({ retries: "0" }, { EDGECTL_RETRIES: "5" }, { retries: "7" }).retries).toBe(0);
    expect(resolve({}, { EDGECTL_RETRIES: "5" }, { retries: "7" }).retries).toBe(5);
    expect(resolve({}, {}, { retries: "7" }).retries).toBe(7);
  });

  it("refuses a bad value naming where it came from", () => {
    expect(usageError(() => resolve({}, { EDGECTL_RETRIES: "-1" })).message).toMatch(/^EDGECTL_RETRIES: "-1"/);
    expect(usageError(() => resolve({}, {}, { retries: "many" }, "x")).message).toMatch(
      /^retries in profile "x" of the config file: "many"/,
    );
  });
});

describe("debug", () => {
  it("is on with --debug or EDGECTL_DEBUG=1", () => {
    expect(resolve({ debug: true }).debug).toBe(true);
    expect(resolve({}, { EDGECTL_DEBUG: "1" }).debug).toBe(true);
    expect(resolve({}, { EDGECTL_DEBUG: "true" }).debug).toBe(true);
  });

  it("is off with EDGECTL_DEBUG empty, 0 or false", () => {
    for (const v of ["", "0", "false", "FALSE"]) expect(resolve({}, { EDGECTL_DEBUG: v }).debug).toBe(false);
  });

  it("isTruthy matches the same rule", () => {
    expect(isTruthy(undefined)).toBe(false);
    expect(isTruthy("yes")).toBe(true);
    expect(isTruthy("False")).toBe(false);
  });
});

describe("profile name", () => {
  it("takes --profile, then EDGECTL_PROFILE, then default", () => {
    expect(resolveProfileName({ profile: "flag" }, { EDGECTL_PROFILE: "env" })).toBe("flag");
    expect(resolveProfileName({}, { EDGECTL_PROFILE: "env" })).toBe("env");
    expect(resolveProfileName({}, { EDGECTL_PROFILE: "" })).toBe("default");
    expect(resolveProfileName({}, {})).toBe("default");
  });

  it("carries the profile name into the settings", () => {
    expect(resolve({}, {}, {}, "staging").profile).toBe("staging");
  });

  it.each(["../etc", "a b", "x/y", "", "a".repeat(65), "__proto__", "constructor", "prototype"])(
    "refuses the profile name %j",
    (name) => {
      expect(usageError(() => resolveProfileName({ profile: name }, {})).message).toMatch(/^--profile: /);
    },
  );

  it("accepts letters, digits, _ . -", () => {
    expect(resolveProfileName({ profile: "ci_eu-1.prod" }, {})).toBe("ci_eu-1.prod");
  });
});

describe("parseBaseUrl", () => {
  it("accepts https", () => {
    expect(parseBaseUrl("https://api.ngrok.com")).toBe("https://api.ngrok.com");
    expect(parseBaseUrl("https://api.example.com:8443")).toBe("https://api.example.com:8443");
  });

  it.each([
    ["http://127.0.0.1:4040", "http://127.0.0.1:4040"],
    ["http://127.5.6.7", "http://127.5.6.7"],
    ["http://[::1]:8080", "http://[::1]:8080"],
    ["http://localhost:3000", "http://localhost:3000"],
    ["http://LOCALHOST", "http://localhost"],
  ])("accepts plain http to the loopback host %s", (input, expected) => {
    expect(parseBaseUrl(input)).toBe(expected);
  });

  it.each([
    "http://example.com",
    "http://10.0.0.1",
    "http://127.0.0.1.evil.com",
    "http://localhost.evil.com",
    "http://[::2]",
    "http://0.0.0.0",
  ])("refuses plain http to %s, before anything is sent", (input) => {
    const err = usageError(() => parseBaseUrl(input));
    expect(err.message).toMatch(/^--base-url: refusing plain http/);
    expect(err.message).toContain("https://");
  });

  it("keeps a path prefix and drops a trailing slash", () => {
    expect(parseBaseUrl("https://gw.example.com/ngrok/")).toBe("https://gw.example.com/ngrok");
    expect(parseBaseUrl("https://gw.example.com/a/b//")).toBe("https://gw.example.com/a/b");
    expect(parseBaseUrl("https://gw.example.com/")).toBe("https://gw.example.com");
    expect(parseBaseUrl("http://127.0.0.1:9/prefix/")).toBe("http://127.0.0.1:9/prefix");
  });

  it("refuses credentials in the URL without echoing them", () => {
    const err = usageError(() => parseBaseUrl("https://user:hunter2@api.example.com"));
    expect(err.message).toContain("credentials");
    expect(err.message).not.toContain("hunter2");
  });

  it.each(["ftp://me:hunter2@example.com", "https://me:hunter2@bad host", "http://me:hunter2@example.com"])(
    "a refused URL %s is quoted without its password",
    (input) => {
      const err = usageError(() => parseBaseUrl(input));
      expect(err.message).toMatch(/^--base-url: /);
      expect(err.message).not.toContain("hunter2");
    },
  );

  it("refuses a query or fragment", () => {
    expect(usageError(() => parseBaseUrl("https://api.example.com/?x=1")).message).toContain("query");
    expect(usageError(() => parseBaseUrl("https://api.example.com/#f")).message).toContain("fragment");
  });

  it("refuses other schemes and non-URLs", () => {
    expect(usageError(() => parseBaseUrl("ftp://api.example.com")).message).toContain("https://");
    expect(usageError(() => parseBaseUrl("api.ngrok.com")).message).toContain("not a valid URL");
    expect(usageError(() => parseBaseUrl("")).message).toContain("not a valid URL");
  });

  it("names the source it was given", () => {
    expect(usageError(() => parseBaseUrl("nope", "EDGECTL_BASE_URL")).message).toMatch(/^EDGECTL_BASE_URL: /);
  });
});

describe("isLoopbackHost", () => {
  it("knows 127.0.0.0/8, [::1] and localhost", () => {
    expect(isLoopbackHost("127.0.0.1")).toBe(true);
    expect(isLoopbackHost("127.255.255.254")).toBe(true);
    expect(isLoopbackHost("[::1]")).toBe(true);
    expect(isLoopbackHost("localhost")).toBe(true);
    expect(isLoopbackHost("128.0.0.1")).toBe(false);
    expect(isLoopbackHost("example.com")).toBe(false);
  });
});

describe("value parsers", () => {
  it("refuses a timeout that rounds to 0 ms", () => {
    expect(() => parseTimeout("0.0001")).toThrow(UsageError);
  });

  it("parses timeouts in seconds, fractions included", () => {
    expect(parseTimeout("30")).toBe(30_000);
    expect(parseTimeout("1.5")).toBe(1500);
    expect(parseTimeout("3600")).toBe(3_600_000);
  });

  it.each(["0", "-1", "abc", "", "3601", "1e3", "Infinity", "1.5s"])("refuses the timeout %j", (v) => {
    expect(usageError(() => parseTimeout(v)).message).toMatch(/^--timeout: .*greater than 0/);
  });

  it("parses retries from 0 to 10", () => {
    expect(parseRetries("0")).toBe(0);
    expect(parseRetries("10")).toBe(10);
  });

  it.each(["11", "-1", "1.5", "", "abc", "100"])("refuses the retries %j", (v) => {
    expect(usageError(() => parseRetries(v)).message).toMatch(/^--retries: .*0 to 10/);
  });

  it("parses the three output formats only", () => {
    expect(parseOutput("table")).toBe("table");
    expect(parseOutput("json")).toBe("json");
    expect(parseOutput("yaml")).toBe("yaml");
    expect(usageError(() => parseOutput("xml")).message).toMatch(/^--output: "xml".*table, json or yaml/);
  });
});
