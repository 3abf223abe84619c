// The emulator's own error for what stops it starting (a bad option, a state file it cannot use,
// an address it cannot listen on, a state file another emulator holds). It imports nothing from
// the CLI: `edgectl emulator` reports it as a usage error (exit 2) by its `kind`.
export class StartError extends Error {
  readonly kind = "usage";
}
