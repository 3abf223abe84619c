// What both halves of the config file tests share: a fresh sandbox per test and its config
// file (spawned in e2e/config-file.test.ts, in-process in app/config-file.test.ts).
import { chmodSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { json } from "../helpers/fault-server.js";
import { sandbox } from "../helpers/cli.js";
import { FB, useFreshSandboxes, type Sandbox } from "./support.js";

export function useConfigFileSuite(makeSandbox: () => Sandbox = sandbox) {
  const KEY = "key_config_file_Qw12Er34";
  const suite = useFreshSandboxes(() => json(200, { backends: [FB], uri: "x", next_page_uri: null }), makeSandbox);
  const run = suite.run;
  const file = () => join(suite.cli.configDir, "config.json");
  const writeConfig = (data: unknown, mode = 0o600) => {
    writeFileSync(file(), typeof data === "string" ? data : JSON.stringify(data));
    chmodSync(file(), mode);
  };
  const stored = () =>
    JSON.parse(readFileSync(file(), "utf8")) as { profiles: Record<string, Record<string, unknown>> };
  const modeOf = (path: string) => statSync(path).mode & 0o7777;
  return { KEY, suite, run, file, writeConfig, stored, modeOf };
}
