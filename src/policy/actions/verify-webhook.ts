// verify-webhook (traffic-policy/actions/verify-webhook.mdx).
import * as z from "zod/mini";
import { isProvider } from "../../api-data/providers.js";
import type { ActionSpec } from "../actions.js";
import { bool, nonEmpty, str } from "./fields.js";

export const spec: ActionSpec = {
  phases: ["on_http_request"], // :23
  schema: () =>
    z.strictObject({
      // :31-34 required, a supported provider's identifier (:82-152). Three integration pages
      // write other ids (integrations/webhooks/signalsciences-webhooks.mdx:113 `signalsciences`,
      // sonatype-nexus-webhooks.mdx:114 `sonatype_nexus`, vmware-webhooks.mdx:116
      // `vmware_workspace`); the reference's table and the API's list (src/api-data) agree.
      provider: str().check(
        z.refine(
          isProvider,
          "must be a supported provider in lower case (see `edgectl webhook-verification replace --help`)",
        ),
      ),
      // :36-39 required. sns too: ngrok's verify-webhook needs one even where the edge module took none.
      secret: nonEmpty(),
      enforce: z.optional(bool()), // :41-44
    }),
  celFields: ["secret"], // :36 cel={true}
};
