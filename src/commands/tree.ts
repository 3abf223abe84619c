// The command tree as the CLI reads it at run time: the registry's entries and how the module
// of a command is loaded. In src/ (tests, tsc) it is the registry itself and an import of the
// module an entry names; in a bundle, scripts/build.mjs puts in its place a module generated
// from the registry's data: the entries of the bundle's first word (every word's in
// dist/main.cjs), without what only the README reads, and a static import() of each of their
// modules, so a bundle holds its word's command modules alone.
import type { AnyCommandDef } from "./define.js";
import { REGISTRY, type CommandEntry, type GroupEntry } from "./registry.js";

/** An entry as the CLI needs it (the README's usage and summary are left out of bundles). */
export type TreeEntry = GroupEntry | Pick<CommandEntry, "command" | "module" | "export" | "wholeTree">;

export const TREE: readonly TreeEntry[] = REGISTRY;

/** The module an entry names (`failover/get`: src/commands/failover/get.ts). */
export async function loadModule(module: string): Promise<Record<string, AnyCommandDef | undefined>> {
  const path = `./${module}.js`;
  return (await import(/* @vite-ignore */ path)) as Record<string, AnyCommandDef | undefined>;
}
