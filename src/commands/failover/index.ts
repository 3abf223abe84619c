import type { Command } from "commander";
import type { Deps } from "../deps.js";
import { create } from "./create.js";
import { del } from "./delete.js";
import { get } from "./get.js";
import { list } from "./list.js";
import { update } from "./update.js";

export function registerFailover(program: Command, f: Deps): void {
  const noun = program
    .command("failover")
    .description("Manage Failover backends (an ordered list of child backends)")
    .addHelpText(
      "after",
      `
Examples:
  $ edgectl failover create --backends bkdhr_primary,bkdhr_standby --description "eu pair"
  $ edgectl failover list --all -o json | jq -r '.[].id'
  $ edgectl failover delete bkdfo_2abc --yes`,
    );
  for (const verb of [create, get, list, update, del]) verb.register(noun, f);
}
