// Any JSON value, keys and strings drawn from what YAML parsers disagree on, written by yamlText,
// reads back as the same value in the yaml package (YAML 1.2 and 1.1) and in js-yaml, and holds
// no raw character some parser reads as a line break or drops. No lone surrogates: the API's
// JSON (and JSON.parse of it) holds none worth testing here; the writer escapes them anyway.
import fc from "fast-check";
import { binary } from "../helpers/binary-unit.js";
import jsYaml from "js-yaml";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { yamlText } from "../../src/output/yaml-write.js";

const UNSAFE_RAW = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]/;

const piece = fc.constantFrom(
  ..."aZ09 -?:,[]{}#&*!|>'\"%@`~=<.+_/\\é".split(""),
  ": ",
  " #",
  "\n",
  "\t",
  "\r",
  "\r\n",
  "\x00",
  "\x07",
  "\x1b",
  "\x7f",
  "\x85",
  "\x9f",
  "\u00a0",
  "\u2028",
  "\u2029",
  "\ufeff",
  "\ufffe",
  "---",
  "...",
  "%YAML",
);

/** Words some YAML 1.1 or 1.2 parser reads as null, a boolean, a number, a date, a merge key or not at all. */
const WORDS = [
  ...["", "~", "null", "Null", "NULL", "true", "True", "FALSE", "yes", "Yes", "NO", "on", "Off", "y", "n", "Y", "N"],
  ...["=", "<<", "0", "-0", "+1", "017", "0o17", "0x1f", "0X1F", "0b101", "1_000", ".5", "-.5", "1.", "1e3", "1E-3"],
  ...[
    "6.02e+23",
    ".",
    "+.",
    "._",
    ".inf",
    "-.Inf",
    "+.INF",
    ".nan",
    ".NaN",
    "1:20",
    "190:20:30.15",
    "2001-12-14",
    "2002-1-2",
  ],
  ...["2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5", "-", "?", ":", "- a", "? a", "-a", "?a", ":a"],
  ...["a:", "a: b", "a #b", "#a", " a", "a ", "---", "...", "--- a", "... a", "&a", "*a", "!a", "|", ">", "%a", "@a"],
  ...["`a", "'a", '"a', "[a", "]", "{a", "}", ",a", "a\n", "\na", "a\n\nb ", "a\tb"],
];
const word = fc.constantFrom(...WORDS);

const text = fc.oneof(
  { weight: 3, arbitrary: word },
  { weight: 4, arbitrary: fc.array(fc.oneof(piece, word), { maxLength: 6 }).map((parts) => parts.join("")) },
  { weight: 1, arbitrary: fc.string({ maxLength: 8, unit: binary }).filter((s) => !/\p{Cs}/u.test(s)) },
);

const number = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 1e21, -1e21, 1e-7, 5e-324, Number.MAX_VALUE, Number.MAX_SAFE_INTEGER + 2, 0.1, 100),
);

const { json } = fc.letrec((tie) => ({
  json: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    text,
    number,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("json"), { maxLength: 4 }),
    fc
      .uniqueArray(fc.tuple(text, tie("json")), { maxLength: 4, selector: ([k]) => k })
      .map((entries) => Object.fromEntries(entries)),
  ),
}));

describe("yamlText of any JSON value", () => {
  it("reads back as the same value in yaml (1.2 and 1.1) and js-yaml, with no raw line break but \\n and no control character", () => {
    fc.assert(
      fc.property(json, (value) => {
        const out = yamlText(value);
        expect(out).not.toMatch(UNSAFE_RAW);
        expect(parse(out)).toEqual(value);
        expect(parse(out, { version: "1.1" })).toEqual(value);
        expect(jsYaml.load(out)).toEqual(value);
      }),
      { numRuns: 500 },
    );
  });

  it("quotes every word some parser reads as something else (null, yes/no/on/off, numbers, dates, <<, =, indicators)", () => {
    for (const w of WORDS) {
      const out = yamlText({ k: w });
      expect(out, w).toMatch(/^k: ["']/);
      expect(jsYaml.load(out)).toEqual({ k: w });
    }
  });
});
