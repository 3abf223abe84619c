import type { Command } from "commander";
import type { AppContext } from "../deps.js";
import { register as create } from "./create.js";
import { register as del } from "./delete.js";
import { register as get } from "./get.js";
import { register as list } from "./list.js";
import { register as update } from "./update.js";

export function registerFailover(program: Command, app: AppContext): void {
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
  for (const verb of [create, get, list, update, del]) verb(noun, app);
}
