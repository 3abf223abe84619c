import { failoverPath, updateFailover, type FailoverUpdate } from "../../api/failover.js";
import { printResult } from "../../output/print.js";
import { defineCommand, type OptionsOf } from "../define.js";
import type { Deps } from "../deps.js";
import { printDryRun } from "../dry-run.js";
import { idSchema } from "../input.js";
import { descriptionFlag, dryRunFlag, metadataFlag } from "../flags.js";
import { backendsFlag } from "./fields.js";
import { failoverRecord } from "./render.js";

const args = { id: { arg: "<id>", help: "Failover backend id (bkdfo_…)", schema: () => idSchema("failover") } };
const flags = {
  backends: backendsFlag("new child backend list, in failover order (comma list; repeatable)"),
  description: descriptionFlag('new description (at most 255 bytes; "" clears it)'),
  metadata: metadataFlag('new metadata (at most 4096 bytes; "" clears it)'),
  dryRun: dryRunFlag,
};
export type UpdateOptions = OptionsOf<typeof args, typeof flags>;

export const update = defineCommand({
  name: "update",
  description: "Change a Failover backend's backends, description or metadata (only the fields given)",
  args,
  flags,
  rules: [
    {
      ok: (o) => o.backends !== undefined || o.description !== undefined || o.metadata !== undefined,
      message: "nothing to update: give at least one of --backends, --description, --metadata",
    },
  ],
  examples: [
    '$ edgectl failover update bkdfo_2abc --description "eu pair (primary first)"',
    "$ edgectl failover update bkdfo_2abc --backends bkdhr_b,bkdhr_a",
    '$ edgectl failover update "$ID" --metadata "$(jq -c . meta.json)" -o json | jq .metadata',
  ],
  run,
});

export async function run(options: UpdateOptions, deps: Deps): Promise<void> {
  const body: FailoverUpdate = {};
  if (options.backends !== undefined) body.backends = options.backends;
  if (options.description !== undefined) body.description = options.description;
  if (options.metadata !== undefined) body.metadata = options.metadata;
  if (options.dryRun) return printDryRun(deps, "PATCH", failoverPath(options.id), body);
  const updated = await updateFailover(deps.client(), options.id, body);
  printResult(deps, updated, (color) => failoverRecord(updated, color));
}
