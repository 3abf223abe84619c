import type { NounDecl } from "../define.js";

export const migrate: NounDecl = {
  name: "migrate",
  description: "Move retired ngrok resources to their replacements (an HTTPS edge to Cloud Endpoints)",
  examples: [
    "$ edgectl export > edges-backup.json",
    "$ edgectl migrate edge edghts_2abc",
    "$ edgectl migrate edge edghts_2abc --apply",
  ],
  verbs: {
    edge: async () => (await import("./edge.js")).edge,
  },
};
