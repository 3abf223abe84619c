// The request tests' recording fault server and a CLI pointed at it (in-process, in the verbs'
// files under test/commands/: what the server receives for each command).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import { sandbox } from "../helpers/cli.js";
import { startFaultServer, type FaultServer, type RecordedRequest } from "../helpers/fault-server.js";
import { FB, VERSION, runCli, type Sandbox } from "./support.js";

export function useRequestsSuite(makeSandbox: () => Sandbox = sandbox) {
  const KEY = "key_e2e_1234567890";

  let server: FaultServer;
  let cli: Sandbox;
  const run = (args: string[], opts?: Parameters<Sandbox["run"]>[1]) => runCli(cli, args, opts);
  let scratch: string;
  let defaultFallback: FaultServer["fallback"];
  beforeAll(async () => {
    server = await startFaultServer();
    defaultFallback = server.fallback;
    cli = makeSandbox();
    scratch = mkdtempSync(join(tmpdir(), "edgectl-req-"));
  });
  afterAll(async () => {
    await server.close();
    cli.cleanup();
    rmSync(scratch, { recursive: true, force: true });
  });
  beforeEach(() => {
    server.requests.length = 0;
  });
  afterEach(() => {
    server.fallback = defaultFallback;
  });

  const env = () => ({ EDGECTL_API_KEY: KEY, EDGECTL_BASE_URL: server.url });
  const fb = (id: string, extra: object = {}) => ({
    ...FB,
    id,
    uri: `${server.url}/backends/failover/${id}`,
    ...extra,
  });

  /** The headers every request carries; a body adds only Content-Type and Content-Length. */
  function expectContractHeaders(req: RecordedRequest, withBody: boolean): void {
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.headers["ngrok-version"]).toBe("2");
    expect(req.headers.accept).toBe("application/json");
    expect(req.headers["user-agent"]).toBe(`edgectl/${VERSION} node/${process.versions.node}`);
    const allowed = new Set(["authorization", "ngrok-version", "accept", "user-agent", "host", "connection"]);
    if (withBody) {
      expect(req.headers["content-type"]).toBe("application/json");
      expect(req.headers["content-length"]).toBe(String(Buffer.byteLength(req.body)));
      allowed.add("content-type").add("content-length");
    } else {
      expect(req.body).toBe("");
      expect(req.headers["content-type"]).toBeUndefined();
      expect(req.headers["transfer-encoding"]).toBeUndefined();
    }
    expect(Object.keys(req.headers).filter((h) => !allowed.has(h))).toEqual([]);
  }
  return {
    get server() {
      return server;
    },
    get scratch() {
      return scratch;
    },
    KEY,
    run,
    env,
    fb,
    expectContractHeaders,
  };
}
