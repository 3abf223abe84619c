import type { NounDecl } from "../define.js";

export const failover: NounDecl = {
  name: "failover",
  description: "Manage Failover backends (an ordered list of child backends)",
  examples: [
    `$ edgectl failover create --backends bkdhr_primary,bkdhr_standby --description "eu pair"`,
    "$ edgectl failover list --all -o json | jq -r '.[].id'",
    "$ edgectl failover delete bkdfo_2abc --yes",
  ],
  verbs: {
    create: async () => (await import("./create.js")).create,
    get: async () => (await import("./get.js")).get,
    list: async () => (await import("./list.js")).list,
    update: async () => (await import("./update.js")).update,
    delete: async () => (await import("./delete.js")).del,
  },
};
