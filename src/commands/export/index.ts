import type { RootCommand } from "../define.js";

export const exportWord: RootCommand = {
  name: "export",
  load: async () => (await import("./export.js")).exportCommand,
};
