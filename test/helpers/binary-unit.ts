// fast-check's "binary" string unit (any code point but a lone surrogate: 0–0xD7FF and
// 0xE000–0x10FFFF, small ones likelier), drawn the same way, but as an integer mapped to its
// character. fast-check's own builds a reverse map of all 1.1 million code points the first
// time a worker uses it: seconds of CPU per worker, more than the properties that use it.
import fc from "fast-check";

const SURROGATES = 0xe000 - 0xd800;

/** One code point as a string: `fc.string({ unit: binary })` draws as `fc.string({ unit: "binary" })`. */
export const binary: fc.Arbitrary<string> = fc
  .integer({ min: 0, max: 0x10ffff - SURROGATES })
  .map((i) => String.fromCodePoint(i < 0xd800 ? i : i + SURROGATES));
