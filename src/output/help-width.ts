/** The terminal facts help wrapping needs about the stream it is written to. */
export interface HelpStream {
  isTTY?: boolean;
  columns?: number;
}

/** Help wraps at 80 columns, or at the terminal's width when that is narrower. */
export function helpWidth(out: HelpStream): number {
  return out.isTTY ? Math.min(out.columns || 80, 80) : 80;
}
