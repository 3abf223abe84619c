// What the server receives: method, path, headers and the exact body of each command.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sandbox, type CliSandbox } from "../helpers/cli.js";
import { json, startFaultServer, type FaultServer } from "../helpers/fault-server.js";

const FB = { id: "bkdfo_abc", uri: "x", created_at: "2026-01-01T00:00:00Z", description: "d", metadata: "", backends: ["bkdhr_a"] };

let server: FaultServer;
let cli: CliSandbox;
beforeAll(async () => {
  server = await startFaultServer();
  cli = sandbox();
});
afterAll(async () => {
  await server.close();
  cli.cleanup();
});
beforeEach(() => {
  server.requests.length = 0;
});

const env = () => ({ EDGECTL_API_KEY: "key_e2e_1234567890", EDGECTL_BASE_URL: server.url });

describe("failover create request", () => {
  it("posts backends from comma lists and repeated flags in order, with only the fields given", async () => {
    server.script(json(201, FB));
    const r = await cli.run(["failover", "create", "--backends", "bkdhr_a,bkdtg_b", "--backends", "bkdwd_c", "--description", "eu"], { env: env() });
    expect(r.exitCode).toBe(0);
    expect(server.requests).toHaveLength(1);
    const req = server.requests[0]!;
    expect(req.method).toBe("POST");
    expect(req.path).toBe("/backends/failover");
    expect(req.body).toBe('{"backends":["bkdhr_a","bkdtg_b","bkdwd_c"],"description":"eu"}');
    expect(req.headers.authorization).toBe("Bearer key_e2e_1234567890");
    expect(req.headers["ngrok-version"]).toBe("2");
    expect(req.headers.accept).toBe("application/json");
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.headers["user-agent"]).toMatch(/^edgectl\/\d+\.\d+\.\d+\S* node\/\d+\.\d+\.\d+$/);
  });

  it("sends GET with no body and no content type, keeping a base URL path prefix", async () => {
    server.script(json(200, FB));
    const r = await cli.run(["failover", "get", "bkdfo_abc", "-o", "json"], { env: { ...env(), EDGECTL_BASE_URL: `${server.url}/prefix/` } });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout as string)).toEqual(FB);
    const req = server.requests[0]!;
    expect(req.method).toBe("GET");
    expect(req.path).toBe("/prefix/backends/failover/bkdfo_abc");
    expect(req.body).toBe("");
    expect(req.headers["content-type"]).toBeUndefined();
  });
});
