/** Help wraps at 80 columns, or at the terminal's width when that is narrower. */
export function helpWidth(): number {
  return process.stdout.isTTY ? Math.min(process.stdout.columns || 80, 80) : 80;
}
