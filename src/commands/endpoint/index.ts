import type { NounDecl } from "../define.js";

export const endpoint: NounDecl = {
  name: "endpoint",
  description: "Manage Cloud Endpoints and their Traffic Policy",
  examples: [
    "$ edgectl endpoint create --url https://shop.example.com --traffic-policy-file policy.yml",
    "$ edgectl endpoint list --all -o json | jq -r '.[].url'",
    "$ edgectl endpoint get ep_2abc",
    "$ edgectl endpoint delete ep_2abc --yes",
  ],
  verbs: {
    create: async () => (await import("./create.js")).create,
    get: async () => (await import("./get.js")).get,
    list: async () => (await import("./list.js")).list,
    update: async () => (await import("./update.js")).update,
    delete: async () => (await import("./delete.js")).del,
    "webhook-verification": async () => (await import("./webhook-verification.js")).webhookVerification,
  },
};
