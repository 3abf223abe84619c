import type { Command } from "commander";
import type { AppContext } from "../deps.js";
import { register as edge } from "./edge.js";

export function registerMigrate(program: Command, app: AppContext): void {
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
  edge(noun, app);
}
