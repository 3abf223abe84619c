import type { RootCommand } from "../define.js";

export const emulator: RootCommand = {
  name: "emulator",
  load: async () => (await import("./emulator.js")).emulator,
};
