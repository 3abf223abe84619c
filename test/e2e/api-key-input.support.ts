// The API key input tests' keys that must be refused and a fresh sandbox per test (the CLI
// in-process in app/api-key-input.test.ts and test/commands/auth/login.test.ts).
import { json } from "../helpers/fault-server.js";
import { sandbox } from "../helpers/cli.js";
import { FB, useFreshSandboxes, type Sandbox } from "./support.js";

export function useKeyInputSuite(makeSandbox: () => Sandbox = sandbox) {
  const suite = useFreshSandboxes(() => json(200, FB), makeSandbox);
  const run = suite.run;
  const MUST = "the API key must be printable ASCII without spaces";

  const BAD: [string, string, string][] = [
    ["a line break", "key_one\nkey_two", "spaces or line breaks"],
    ["a NUL", "key_one\0two", "control characters"],
    ["a non-ASCII letter", "key_caf\u00e9_1234", "characters outside printable ASCII"],
    ["a space", "key one", "spaces or line breaks"],
  ];
  return { suite, run, MUST, BAD };
}
