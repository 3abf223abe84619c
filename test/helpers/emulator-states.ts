// The emulator never writes a state it cannot load again (issue 25, item 15). Tests that keep
// an emulator's state in a file start it through `startEmulator` here: its close() then loads
// the file again with the emulator's own loader (src/emulator/state-file.ts), so every state
// the suite makes is one the emulator restarts from. `spawnEmulator` (helpers/emulator.ts)
// does the same for `--state` after a process stops.
import { readFile } from "node:fs/promises";
import { startEmulator as start, type Emulator, type EmulatorOptions } from "../../src/emulator/server.js";
import { parseState } from "../../src/emulator/state-file.js";

/** Loads the state file as a restart would; throws (failing the test) when it cannot. Absent: nothing written. */
export async function reloadState(file: string): Promise<void> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
    throw err;
  }
  parseState(file, text);
}

/** startEmulator, whose close() also loads its state file again. */
export async function startEmulator(opts: EmulatorOptions = {}): Promise<Emulator> {
  const emu = await start(opts);
  const file = opts.stateFile;
  if (file === undefined) return emu;
  return {
    ...emu,
    async close() {
      await emu.close();
      await reloadState(file);
    },
  };
}
