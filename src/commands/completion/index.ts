import type { RootCommand } from "../define.js";

export const completion: RootCommand = {
  name: "completion",
  load: async () => (await import("./completion.js")).completion,
  wholeTree: true,
};
