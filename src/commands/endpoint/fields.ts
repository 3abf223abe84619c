// What the endpoint verbs share: ids (batches for get and delete) and flags. The Traffic Policy
// a create or update sends is policy-input.ts's (it loads the validator, which get, list and
// delete do not need).
import { batchIds } from "../batch.js";
import { switchValue } from "../input.js";

export const { idsArg, resolveIds } = batchIds(
  "endpoint",
  "<ep-id...>",
  "endpoint id(s) (ep_…), or - to read ids from stdin, one per line",
);

export const showSecretFlag = {
  flag: "--show-secret",
  help: "print the secrets in Traffic Policies instead of ********",
  ...switchValue(),
};
