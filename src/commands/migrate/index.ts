import type { Command } from "commander";
import type { Deps } from "../deps.js";
import { edge } from "./edge.js";

export function registerMigrate(program: Command, f: Deps): void {
  const noun = program
    .command("migrate")
    .description("Move retired ngrok resources to their replacements (an HTTPS edge to Cloud Endpoints)")
    .addHelpText(
      "after",
      `
Examples:
  $ edgectl export > edges-backup.json
  $ edgectl migrate edge edghts_2abc
  $ edgectl migrate edge edghts_2abc --apply`,
    );
  edge.register(noun, f);
}
