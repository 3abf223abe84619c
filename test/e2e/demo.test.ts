// `npm run demo` is the README's first command for a new user: it must keep working.
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { expect, it } from "vitest";

it("npm run demo runs create → get → list → edge and route → webhook replace → get → delete against the emulator", async () => {
  const script = fileURLToPath(new URL("../../scripts/demo.mjs", import.meta.url));
  const r = await execa("node", [script], { reject: false, stdin: "ignore", timeout: 60_000 });
  expect(r.exitCode).toBe(0);
  expect(r.stdout).toMatch(/^emulator listening on http:\/\/127\.0\.0\.1:\d+$/m);
  for (const step of ["failover create", "failover get", "failover list", "api POST /edges/https --input -", "api POST /edges/https/edghts_", "webhook-verification replace edghts_", "webhook-verification get", "failover delete"]) {
    expect(r.stdout).toContain(`$ edgectl ${step}`);
  }
  expect(r.stdout).toMatch(/^PROVIDER\s+github$/m);
  expect(r.stdout).toMatch(/^SECRET\s+\*{8}$/m);
  expect(r.stdout).not.toContain("s3cr3t-from-stdin");
  expect(r.stdout).toMatch(/^bkdfo_\w+\s+true$/m);
});
