import type { RootCommand } from "../define.js";

export const api: RootCommand = {
  name: "api",
  load: async () => (await import("./api.js")).api,
};
