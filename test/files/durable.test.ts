// The one durable write (src/files/durable.ts) that the config file, the emulator's state file
// and the V8 code cache share: a temp file renamed over the file, the temp never left behind.
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  lstatSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeDurable, writeDurableSync, type DurableWrite } from "../../src/files/durable.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "edgectl-durable-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const posix = process.platform !== "win32";

describe.each([
  ["writeDurableSync", async (f: string, d: string | Uint8Array, o: DurableWrite) => writeDurableSync(f, d, o)],
  ["writeDurable", writeDurable],
] as const)("%s", (_name, write) => {
  it("replaces the file whole, with the mode given, and leaves no temp file", async () => {
    const file = join(dir, "state.json");
    writeFileSync(file, "old");
    await write(file, "new", { mode: 0o600, syncData: true, syncFolder: true });
    expect(readFileSync(file, "utf8")).toBe("new");
    expect(readdirSync(dir)).toEqual(["state.json"]);
    if (posix) expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("writes bytes as they are", async () => {
    const file = join(dir, "cache.v8cache");
    await write(file, Buffer.from([0, 255, 10]), { mode: 0o600 });
    expect([...readFileSync(file)]).toEqual([0, 255, 10]);
  });

  it("names the temp file as the writer says", async () => {
    const file = join(dir, "f");
    const seen: string[] = [];
    await write(file, "x", { mode: 0o600, temp: (target) => (seen.push(target), `${target}.mine.tmp`) });
    expect(seen).toEqual([file]);
    expect(readdirSync(dir)).toEqual(["f"]);
  });

  it("refuses a temp file already there when exclusive, and removes it (as the state file's writer did)", async () => {
    const file = join(dir, "state.json");
    writeFileSync(file, "old");
    writeFileSync(join(dir, "t.tmp"), "someone's");
    await expect(
      write(file, "new", { mode: 0o600, exclusive: true, temp: () => join(dir, "t.tmp") }),
    ).rejects.toMatchObject({ code: "EEXIST" });
    expect(readFileSync(file, "utf8")).toBe("old");
    expect(readdirSync(dir)).toEqual(["state.json"]);
  });

  it("removes its temp file when the rename fails, and leaves what was there", async () => {
    const file = join(dir, "taken");
    mkdirSync(join(file, "inside"), { recursive: true });
    await expect(write(file, "new", { mode: 0o600 })).rejects.toThrow();
    expect(readdirSync(dir)).toEqual(["taken"]);
    expect(readdirSync(file)).toEqual(["inside"]);
  });

  it.runIf(posix)(
    "with keep: writes through a symbolic link (the link stays) and gives the mode past an old one",
    async () => {
      const real = join(dir, "real.json");
      const link = join(dir, "config.json");
      writeFileSync(real, "old", { mode: 0o644 });
      symlinkSync(real, link);
      await write(link, "new", { mode: 0o600, keep: true, syncData: true });
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      expect(readFileSync(real, "utf8")).toBe("new");
      expect(statSync(real).mode & 0o777).toBe(0o600);
      expect(readdirSync(dir).sort()).toEqual(["config.json", "real.json"]);
    },
  );

  it("without keep: a symbolic link is replaced by the file (the cache's and the state file's way)", async () => {
    if (!posix) return;
    const real = join(dir, "real");
    const link = join(dir, "state.json");
    writeFileSync(real, "old");
    symlinkSync(real, link);
    await write(link, "new", { mode: 0o600 });
    expect(lstatSync(link).isSymbolicLink()).toBe(false);
    expect(readFileSync(real, "utf8")).toBe("old");
  });
});

describe("the module", () => {
  it("imports only node:fs and node:path (src/start.ts and the emulator use it)", () => {
    const text = readFileSync(join(import.meta.dirname, "../../src/files/durable.ts"), "utf8");
    const specs = [...text.matchAll(/\bfrom\s*["']([^"']+)["']/g)].map((m) => m[1]);
    expect(new Set(specs)).toEqual(new Set(["node:fs", "node:path"]));
  });
});
