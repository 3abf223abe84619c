import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { UsageError } from "../src/errors.js";
import { createFactory } from "../src/factory.js";
import type { GlobalFlags } from "../src/settings/resolve.js";
import { capture } from "./commands/fake-deps.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "edgectl-factory-"));
  chmodSync(dir, 0o700);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function factory(flags: GlobalFlags = {}, env: Record<string, string> = {}) {
  let flagReads = 0;
  const f = createFactory({
    env: { EDGECTL_CONFIG_DIR: dir, ...env },
    stdout: capture(true),
    stderr: capture(false),
    stdin: Object.assign(Readable.from([]), { isTTY: false }),
    flags: () => (flagReads++, flags),
    onInterrupt: () => {},
  });
  return { f, flagReads: () => flagReads };
}

const writeConfig = (text: string) => writeFileSync(join(dir, "config.json"), text, { mode: 0o600 });

describe("createFactory", () => {
  it("reads nothing until asked: the flags are read only once a command uses the factory", () => {
    const { flagReads } = factory();
    expect(flagReads()).toBe(0);
  });

  it("builds the io once, with color from --no-color and the environment", () => {
    const { f } = factory({ color: false });
    expect(f.io).toBe(f.io);
    expect(f.io.colorOn(f.io.stdout)).toBe(false);
    const colored = factory({}).f;
    expect(colored.io.colorOn(colored.io.stdout)).toBe(true);
  });

  it("gives the profile and io with a broken config file; only the settings fail, naming the file", () => {
    writeConfig("{ not json");
    const { f } = factory({ profile: "ci" });
    expect(f.profile).toBe("ci");
    expect(f.io.canPrompt()).toBe(false);
    expect(() => f.settings).toThrow(UsageError);
    expect(() => f.settings).toThrow(/config\.json/);
  });

  it("prints errors as JSON by the same precedence as results, before the settings are read", () => {
    expect(factory({ json: true }).f.errorsAsJson()).toBe(true);
    expect(factory({ output: "table" }, { EDGECTL_OUTPUT: "json" }).f.errorsAsJson()).toBe(false);
    expect(factory({}, { EDGECTL_OUTPUT: "json" }).f.errorsAsJson()).toBe(true);
    writeConfig(JSON.stringify({ profiles: { ci: { output: "json" } } }));
    expect(factory({ profile: "ci" }).f.errorsAsJson()).toBe(true);
    expect(factory({}).f.errorsAsJson()).toBe(false);
    writeConfig("{ not json");
    expect(factory({}).f.errorsAsJson()).toBe(false);
  });

  it("follows the resolved settings once they are read", () => {
    const { f } = factory({}, { EDGECTL_OUTPUT: "json" });
    expect(f.settings.output).toBe("json");
    expect(f.errorsAsJson()).toBe(true);
  });

  it("holds warnings until they are flushed or taken", () => {
    const { f } = factory();
    f.warn("one");
    f.warn("two");
    expect(f.takeWarnings()).toEqual(["one", "two"]);
    expect(f.takeWarnings()).toEqual([]);
  });
});
