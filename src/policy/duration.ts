// Go duration strings (`30s`, `2m`, `1h30m`, `1.5h`), as ngrok's policy engine reads them.

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};
const WHOLE = /^[-+]?(?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$/;
const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g;

/** The duration in milliseconds, or undefined when `text` is not a Go duration. */
export function parseDuration(text: string): number | undefined {
  if (text === "0" || text === "+0" || text === "-0") return 0;
  if (!WHOLE.test(text)) return undefined;
  let total = 0;
  for (const [, n, unit] of text.matchAll(PART)) total += Number(n) * UNIT_MS[unit!]!;
  return text.startsWith("-") ? -total : total;
}
