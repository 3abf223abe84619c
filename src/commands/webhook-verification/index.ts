import type { NounDecl } from "../define.js";

export const webhookVerification: NounDecl = {
  name: "webhook-verification",
  description: "Manage the webhook verification module of HTTPS edge routes",
  examples: [
    "$ edgectl webhook-verification replace edghts_1 edghtsrt_1 --provider github --secret-file ./gh.secret",
    "$ edgectl webhook-verification get edghts_1 edghtsrt_1 -o json | jq -r .provider",
    "$ edgectl webhook-verification delete edghts_1 edghtsrt_1 --yes",
  ],
  verbs: {
    replace: async () => (await import("./replace.js")).replace,
    get: async () => (await import("./get.js")).get,
    delete: async () => (await import("./delete.js")).del,
  },
};
