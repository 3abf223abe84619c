// What the webhook-verification verbs share: the route they act on, and --show-secret.
import { idSchema, switchValue } from "../input.js";

export const routeArgs = {
  edgeId: { arg: "<edge-id>", help: "HTTPS edge id (edghts_…)", schema: () => idSchema("edge") },
  routeId: { arg: "<route-id>", help: "route id (edghtsrt_…)", schema: () => idSchema("route") },
};

export const showSecretFlag = {
  flag: "--show-secret",
  help: "print the secret instead of ********",
  ...switchValue(),
};
