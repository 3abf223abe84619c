// Every command at the root, in help order. A new word is added here, and here alone: its
// folder src/commands/<word>/ has an index.ts declaring it (a NounDecl, or a RootCommand whose
// module loads when named), imported below as `import { <name> } from "./<word>/index.js";`
// and listed in COMMANDS. scripts/build.mjs reads these imports: for each word but those that
// read the whole tree (completion) it makes dist/main-<word>.cjs, in which this module holds
// that word's command alone, so `edgectl failover get` reads and deserialises failover's
// modules, not every command's (BENCHMARKS.md, "Start-up, fifth round").
import type { NounDecl, RootCommand } from "./define.js";
import { failover } from "./failover/index.js";
import { webhookVerification } from "./webhook-verification/index.js";
import { endpoint } from "./endpoint/index.js";
import { exportWord } from "./export/index.js";
import { migrate } from "./migrate/index.js";
import { policy } from "./policy/index.js";
import { auth } from "./auth/index.js";
import { config } from "./config/index.js";
import { api } from "./api/index.js";
import { emulator } from "./emulator/index.js";
import { completion } from "./completion/index.js";

export const COMMANDS: readonly (NounDecl | RootCommand)[] = [
  failover,
  webhookVerification,
  endpoint,
  exportWord,
  migrate,
  policy,
  auth,
  config,
  api,
  emulator,
  completion,
];
