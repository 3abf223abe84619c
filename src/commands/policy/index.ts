import type { NounDecl } from "../define.js";

export const policy: NounDecl = {
  name: "policy",
  description: "Check a Traffic Policy locally, with the same rules as the endpoint commands and the emulator",
  examples: [
    "$ edgectl policy check policy.yml",
    "$ edgectl policy check policy.json --protocol tcp",
    "$ edgectl migrate edge edghts_2abc | edgectl policy check -",
  ],
  verbs: {
    check: async () => (await import("./check.js")).check,
  },
};
