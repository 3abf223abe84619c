// The traffic port as a user runs it: `edgectl emulator --traffic-port 0` as a process prints
// the traffic URL as its second stdout line and logs each request on stderr; and (in this
// process) endpoints kept in --state are served again after a restart.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, spawnEmulator } from "../../helpers/emulator.js";
import { endpoint, send, trafficEmulator, upstream } from "./helpers.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "edgectl-traffic-proc-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const HELLO = {
  on_http_request: [
    { name: "hello", actions: [{ type: "custom-response", config: { status_code: 200, body: "hello" } }] },
  ],
};

describe("edgectl emulator --traffic-port", () => {
  it("prints the traffic URL as the second stdout line, serves the endpoints there and logs each request on stderr", async () => {
    const app = await upstream();
    const emu = await spawnEmulator(["--traffic-port", "0", "--upstream", `https://app.example.com=${app.url}`]);
    try {
      await expect.poll(() => emu.stdoutLines.length).toBe(2);
      const traffic = emu.stdoutLines[1]!;
      expect(traffic).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(traffic).not.toBe(emu.url);
      const made = await call(emu.url, "POST", "/endpoints", {
        body: { type: "cloud", url: "https://hello.example.com", traffic_policy: JSON.stringify(HELLO) },
      });
      expect(made.status).toBe(201);
      expect((await send(traffic, { host: "hello.example.com" })).text).toBe("hello");
      expect((await send(traffic, { host: "app.example.com" })).status).toBe(200);
    } finally {
      expect(await emu.stop()).toBe(0);
      await app.close();
    }
    const stderr = String((await emu.process).stderr);
    expect(stderr).toMatch(
      /emulator: serving endpoints at http:\/\/127\.0\.0\.1:\d+, https:\/\/app\.example\.com → http:\/\/127\.0\.0\.1:\d+\n/,
    );
    expect(stderr).toMatch(
      /traffic: GET https:\/\/hello\.example\.com\/ from 127\.0\.0\.1 → https:\/\/hello\.example\.com; rules: hello; response by hello \(custom-response\); 200; [\d.]+ ms\n/,
    );
    expect(emu.stdoutLines).toHaveLength(2);
  });

  it("serves the endpoints kept in --state after a restart", async () => {
    const state = join(dir, "state.json");
    const first = await trafficEmulator({ stateFile: state });
    await endpoint(first, "https://kept.example.com", HELLO);
    await first.close();
    const again = await trafficEmulator({ stateFile: state });
    try {
      expect((await send(again.trafficUrl!, { host: "kept.example.com" })).text).toBe("hello");
    } finally {
      await again.close();
    }
  });
});
