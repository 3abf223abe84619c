// Property-based tests of the settings value checks: --timeout, --retries, -o/--output and
// --base-url. Valid values are always accepted (and normalised); anything else is refused
// as a usage error whose message starts with the flag (or other source) it came from.
import fc from "fast-check";
import { binary } from "../helpers/binary-unit.js";
import { describe, expect, it } from "vitest";
import { checkValue } from "../../src/commands/config/keys.js";
import { UsageError } from "../../src/errors.js";
import { refusal } from "../helpers/refusal.js";
import {
  parseBaseUrl,
  parseOutput,
  parseRetries,
  parseTimeout,
  resolveSettings,
  type GlobalFlags,
} from "../../src/settings/resolve.js";

const settings = (flags: GlobalFlags) => resolveSettings(flags, {}, {}, "default");

/** Where a value can come from, as the message must name it. */
const source = fc.constantFrom("--timeout", "EDGECTL_TIMEOUT", 'profile "ci"', "<value> for timeout");

/** JavaScript's whitespace (what trim() drops), as a script's quoting might leave around a value. */
const blank = fc.string({ unit: fc.constantFrom(" ", "\t", "\n", "\r", "\u00a0", "\u3000", "\ufeff"), maxLength: 3 });

const digit = fc.constantFrom(..."0123456789");
const digits = (min: number, max: number) => fc.string({ unit: digit, minLength: min, maxLength: max });

/** A character that cannot continue a decimal number (nor be trimmed away). */
const junkChar = fc
  .string({ unit: binary, minLength: 1, maxLength: 1 })
  .filter((c) => !/[0-9.]/.test(c) && c.trim() !== "");

// --- --timeout -------------------------------------------------------------------------------

describe("--timeout properties", () => {
  /** Seconds from 1 ms to an hour, written the way a person writes a decimal number. */
  const validSeconds = fc.double({ min: 0.001, max: 3600, noNaN: true, noDefaultInfinity: true });

  it("accepts every decimal number of seconds from 0.001 to 3600, in milliseconds", () => {
    fc.assert(
      fc.property(validSeconds, blank, blank, (s, before, after) => {
        const text = String(s);
        fc.pre(!/e/i.test(text)); // String() of a double this size is plain decimal anyway
        const ms = parseTimeout(`${before}${text}${after}`);
        expect(ms).toBe(Math.round(s * 1000));
        expect(ms).toBeGreaterThanOrEqual(1);
        expect(ms).toBeLessThanOrEqual(3_600_000);
      }),
    );
  });

  it("accepts whole seconds with leading zeros or a zero fraction", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3600 }),
        digits(0, 3),
        fc.option(digits(1, 4), { nil: undefined }),
        (n, zeros, frac) => {
          const text = `${"0".repeat(zeros.length)}${n}${frac === undefined ? "" : `.${"0".repeat(frac.length)}`}`;
          expect(parseTimeout(text)).toBe(n * 1000);
        },
      ),
    );
  });

  it("refuses negative numbers, zero and anything over an hour, naming the source", () => {
    const bad = fc.oneof(
      validSeconds.map((s) => `-${String(s)}`),
      fc.integer({ min: 1, max: 10_000 }).map((n) => `-${n}`),
      digits(0, 4).map((zeros) => `0${zeros.length ? `.${zeros.replace(/./g, "0")}` : ""}`),
      fc.integer({ min: 3601, max: Number.MAX_SAFE_INTEGER }).map(String),
      fc.double({ min: 3600.001, max: 1e15, noNaN: true, noDefaultInfinity: true }).map(String),
      digits(400, 420).map((d) => `1${d}`), // Infinity to Number()
    );
    fc.assert(
      fc.property(bad, source, (value, src) => {
        expect(refusal(() => parseTimeout(value, src))).toMatch(
          new RegExp(`^${escapeRe(src)}: .*greater than 0 and at most 3600`, "s"),
        );
      }),
    );
  });

  it("refuses a number with a unit or any other junk after it", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3600 }), junkChar, fc.string({ maxLength: 4 }), (n, junk, rest) => {
        expect(refusal(() => parseTimeout(`${n}${junk}${rest}`))).toMatch(/^--timeout: /);
      }),
    );
    for (const v of [
      "5s",
      "5ms",
      "1m",
      "1h",
      "5 s",
      "1e3",
      "1E2",
      "0x10",
      "1_000",
      "1,5",
      "5.",
      "1.2.3",
      "+5",
      "--5",
    ]) {
      expect(
        refusal(() => parseTimeout(v)),
        v,
      ).toMatch(/^--timeout: /);
    }
  });

  it("refuses NaN, infinities and words", () => {
    for (const v of [
      "NaN",
      "nan",
      "Infinity",
      "+Infinity",
      "-Infinity",
      "inf",
      "null",
      "undefined",
      "true",
      "thirty",
    ]) {
      expect(
        refusal(() => parseTimeout(v)),
        v,
      ).toMatch(/^--timeout: /);
    }
  });

  it("accepts nothing but a plain decimal number of seconds in range (any string)", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string({ unit: binary }),
          fc.string({ unit: fc.constantFrom(..."0123456789.-+eE xs") }),
        ),
        (value) => {
          let ms: number;
          try {
            ms = parseTimeout(value);
          } catch (err) {
            expect(err).toBeInstanceOf(UsageError);
            expect((err as Error).message).toMatch(/^--timeout: /);
            return;
          }
          expect(value.trim()).toMatch(/^[0-9]+(\.[0-9]+)?$/);
          expect(ms).toBe(Math.round(Number(value.trim()) * 1000));
          expect(ms).toBeGreaterThanOrEqual(1);
          expect(ms).toBeLessThanOrEqual(3_600_000);
        },
      ),
    );
  });

  it("refuses an empty or blank --timeout flag, naming it", () => {
    fc.assert(
      fc.property(blank, (value) => {
        expect(refusal(() => settings({ timeout: value }))).toMatch(/^--timeout: /);
      }),
    );
  });

  it("gives the same answer for the flag, and for `config set timeout` (naming the value)", () => {
    fc.assert(
      fc.property(fc.oneof(validSeconds.map(String), fc.string()), (value) => {
        fc.pre(value.trim() !== "");
        let expected: number | undefined;
        try {
          expected = parseTimeout(value);
        } catch {
          expected = undefined;
        }
        if (expected === undefined) {
          expect(refusal(() => settings({ timeout: value }))).toMatch(/^--timeout: /);
          expect(refusal(() => checkValue("timeout", value))).toMatch(/^<value> for timeout: /);
        } else {
          expect(settings({ timeout: value }).timeoutMs).toBe(expected);
          expect(parseTimeout(checkValue("timeout", value))).toBe(expected);
        }
      }),
    );
  });
});

// --- --retries -------------------------------------------------------------------------------

describe("--retries properties", () => {
  it("accepts every whole number from 0 to 10", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 }), blank, blank, (n, before, after) => {
        expect(parseRetries(`${before}${n}${after}`)).toBe(n);
        expect(settings({ retries: String(n) }).retries).toBe(n);
      }),
    );
  });

  it("refuses numbers out of range, fractions, signs and junk, naming the source", () => {
    const bad = fc.oneof(
      fc.integer({ min: 11, max: Number.MAX_SAFE_INTEGER }).map(String),
      fc.integer({ min: 1, max: 1000 }).map((n) => `-${n}`),
      fc.tuple(fc.integer({ min: 0, max: 10 }), digits(1, 3)).map(([n, f]) => `${n}.${f}`),
      fc
        .tuple(fc.integer({ min: 0, max: 10 }), junkChar, fc.string({ maxLength: 3 }))
        .map(([n, j, rest]) => `${n}${j}${rest}`),
      fc.integer({ min: 0, max: 10 }).map((n) => `+${n}`),
      fc.constantFrom("NaN", "Infinity", "1e1", "0x1", "three", "", " ", "\t"),
    );
    fc.assert(
      fc.property(bad, fc.constantFrom("--retries", "EDGECTL_RETRIES", 'profile "ci"'), (value, src) => {
        expect(refusal(() => parseRetries(value, src))).toMatch(new RegExp(`^${escapeRe(src)}: .*0 to 10`, "s"));
      }),
    );
  });

  it("accepts nothing but a whole number from 0 to 10 (any string), and names --retries otherwise", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: fc.constantFrom(..."0123456789.-+ e") })), (value) => {
        fc.pre(value.trim() !== "");
        let n: number;
        try {
          n = settings({ retries: value }).retries;
        } catch (err) {
          expect(err).toBeInstanceOf(UsageError);
          expect((err as Error).message).toMatch(/^--retries: /);
          return;
        }
        expect(value.trim()).toMatch(/^[0-9]+$/);
        expect(Number.isInteger(n)).toBe(true);
        expect(n).toBe(Number(value.trim()));
        expect(n).toBeGreaterThanOrEqual(0);
        expect(n).toBeLessThanOrEqual(10);
      }),
    );
  });
});

// --- -o / --output -----------------------------------------------------------------------------

describe("-o/--output properties", () => {
  it("accepts table and json from any source", () => {
    fc.assert(
      fc.property(fc.constantFrom("table", "json"), (format) => {
        expect(parseOutput(format)).toBe(format);
        expect(settings({ output: format }).output).toBe(format);
      }),
    );
  });

  it("refuses every other string, naming --output and both formats", () => {
    const other = fc
      .oneof(
        fc.string(),
        fc.mixedCase(fc.constantFrom("table", "json", "yaml")),
        fc.tuple(blank, fc.constantFrom("table", "json", "yaml"), blank).map((p) => p.join("")),
        fc.constantFrom("yml", "wide", "jsonpath", "tbl", "JSON", "Table", "YAML"),
      )
      .filter((v) => v !== "table" && v !== "json" && v !== "yaml" && v.trim() !== "");
    fc.assert(
      fc.property(other, (value) => {
        expect(refusal(() => parseOutput(value))).toMatch(/^--output: .*table, json or yaml\)$/s);
        expect(refusal(() => settings({ output: value }))).toMatch(/^--output: /);
      }),
    );
  });

  it("lets --json win over any -o value", () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        fc.pre(value.trim() !== ""); // an empty flag value is refused as a mistake, --json or not
        expect(settings({ output: value, json: true }).output).toBe("json");
      }),
    );
  });
});

// --- --base-url --------------------------------------------------------------------------------

describe("--base-url properties", () => {
  // A path as fc.webPath draws one: segments of RFC 3986 pchars (unreserved, sub-delims, ":", "@")
  // and percent-encoded characters. fast-check's own path and URL arbitraries build a reverse
  // map of every percent-encoded code point when first made: 0.7–1.4 s of CPU, more than all
  // of this file's properties.
  const pchar = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@"),
    },
    { weight: 1, arbitrary: binary.map((c) => encodeURIComponent(c)) },
  );
  const webPath = fc
    .array(fc.string({ unit: pchar, maxLength: 10 }), { maxLength: 5 })
    .map((segments) => segments.map((segment) => `/${segment}`).join(""));
  // As fc.webUrl({ validSchemes: ["https"], authoritySettings: { withIPv4, withIPv6, withIPv4Extended, withPort } }) draws one.
  const httpsUrl = fc
    .tuple(
      fc.oneof(
        fc.domain().filter((d) => !/xn--/i.test(d)), // random "xn--" labels are invalid punycode, not a URL at all
        fc.ipV4(),
        fc.ipV4Extended(),
        fc.ipV6().map((ip) => `[${ip}]`),
      ),
      fc.option(
        fc.integer({ min: 0, max: 65535 }).map((p) => `:${p}`),
        { nil: "" },
      ),
      webPath,
    )
    .map(([host, p, path]) => `https://${host}${p}${path}`);

  it("accepts https to any host, keeping host, port and path, dropping trailing slashes", () => {
    fc.assert(
      fc.property(httpsUrl, fc.mixedCase(fc.constant("https")), (url, scheme) => {
        const input = `${scheme}${url.slice("https".length)}`;
        const out = parseBaseUrl(input);
        const parsedIn = new URL(input);
        const parsedOut = new URL(out);
        expect(parsedOut.protocol).toBe("https:");
        expect(parsedOut.host).toBe(parsedIn.host);
        expect(parsedOut.pathname).toBe(parsedIn.pathname.replace(/\/+$/, "") || "/");
        expect(out).not.toMatch(/\/$/);
        expect(out).not.toMatch(/[?#]/);
        expect(parseBaseUrl(out)).toBe(out); // normalised: a second pass changes nothing
      }),
    );
  });

  const octet = fc.integer({ min: 0, max: 255 });
  const port = fc.option(
    fc.integer({ min: 1, max: 65535 }).map((p) => `:${p}`),
    { nil: "" },
  );
  const path = fc.option(webPath, { nil: "" });
  const loopbackHost = fc.oneof(
    fc.tuple(octet, octet, octet).map(([a, b, c]) => `127.${a}.${b}.${c}`),
    fc.mixedCase(fc.constant("localhost")),
    fc.constantFrom("[::1]", "[0:0:0:0:0:0:0:1]", "[::0:1]", "127.1", "2130706433", "0x7f.0.0.1"),
  );

  it("accepts plain http to any loopback host (127.0.0.0/8, ::1, localhost)", () => {
    fc.assert(
      fc.property(fc.mixedCase(fc.constant("http")), loopbackHost, port, path, (scheme, host, p, rest) => {
        const out = parseBaseUrl(`${scheme}://${host}${p}${rest}`);
        const parsed = new URL(out);
        expect(parsed.protocol).toBe("http:");
        expect(parsed.hostname).toMatch(/^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/);
        expect(out).not.toMatch(/\/$/);
      }),
    );
  });

  const otherHost = fc.oneof(
    fc.domain().filter((d) => !/xn--/i.test(d)),
    fc
      .tuple(
        octet.filter((a) => a !== 127),
        octet,
        octet,
        octet,
      )
      .map((o) => o.join(".")),
    fc
      .ipV6()
      .map((ip) => `[${ip}]`)
      .filter((h) => new URL(`http://${h}`).hostname !== "[::1]"),
    fc.tuple(octet, octet, octet).map(([a, b, c]) => `127.${a}.${b}.${c}.example.com`),
    fc.constantFrom("localhost.example.com", "localhost6", "127.0.0.1.nip.io", "[::ffff:127.0.0.1]", "0.0.0.0", "[::]"),
  );

  it("refuses plain http to every other host before anything is sent, naming the source", () => {
    fc.assert(
      fc.property(
        fc.mixedCase(fc.constant("http")),
        otherHost,
        port,
        path,
        fc.constantFrom("--base-url", "EDGECTL_BASE_URL"),
        (scheme, host, p, rest, src) => {
          const message = refusal(() => parseBaseUrl(`${scheme}://${host}${p}${rest}`, src));
          expect(message).toMatch(new RegExp(`^${escapeRe(src)}: refusing plain http`));
          expect(message).toContain("https://");
        },
      ),
    );
  });

  it("refuses every other scheme", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("ftp", "ws", "wss", "file", "httpx", "gopher", "data", "javascript"),
        fc.domain(),
        (scheme, host) => {
          expect(refusal(() => parseBaseUrl(`${scheme}://${host}/`))).toMatch(/^--base-url: /);
        },
      ),
    );
  });

  it("refuses credentials in an http(s) URL without echoing the password", () => {
    const password = fc
      .string({ unit: fc.constantFrom(..."ABCDEFGHJKLMNPQRSTUVWXYZ"), minLength: 6, maxLength: 12 })
      .map((s) => `Pw${s}`);
    fc.assert(
      fc.property(
        fc.constantFrom("https", "http"),
        fc.oneof(loopbackHost, otherHost),
        fc.string({ unit: fc.constantFrom(..."abcxyz"), maxLength: 6 }),
        password,
        (scheme, host, user, pw) => {
          const message = refusal(() => parseBaseUrl(`${scheme}://${user}:${pw}@${host}/`));
          expect(message).not.toContain(pw);
        },
      ),
    );
  });
});

function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
