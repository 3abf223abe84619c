/** The terminal facts help wrapping needs about the stream it is written to. */
export interface HelpStream {
  isTTY?: boolean;
  columns?: number;
}

/** Help wraps at 80 columns, or at the terminal's width when that is narrower. */
// The default is for src/start.ts, which answers `--help` before the app is loaded.
export function helpWidth(out: HelpStream = process.stdout): number {
  return out.isTTY ? Math.min(out.columns || 80, 80) : 80;
}
