import type { NounDecl } from "../define.js";

export const config: NounDecl = {
  name: "config",
  description: "Read and change settings of the active profile (api_key, base_url, output, timeout, retries)",
  examples: [
    "$ edgectl config set base_url http://127.0.0.1:4040",
    "$ edgectl config set output json --profile ci",
    "$ edgectl config list",
    `$ cat "$(edgectl config path)"`,
  ],
  verbs: {
    get: async () => (await import("./verbs.js")).getVerb,
    set: async () => (await import("./verbs.js")).setVerb,
    unset: async () => (await import("./verbs.js")).unsetVerb,
    list: async () => (await import("./verbs.js")).listVerb,
    path: async () => (await import("./verbs.js")).pathVerb,
  },
};
