// What every request goes through: the API key, the API version, routing, body limits,
// rate limiting, connections — and how many requests the emulator keeps up with.
import http from "node:http";
import { Pool } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_BODY_BYTES, startEmulator, type Emulator } from "../../src/emulator/server.js";
import { call, makeRoute, rawRequest } from "../helpers/emulator.js";

let open: Emulator;
let locked: Emulator;
beforeAll(async () => {
  open = await startEmulator({ port: 0 });
  locked = await startEmulator({ port: 0, apiKey: "the-right-key" });
});
afterAll(async () => {
  await Promise.all([open.close(), locked.close()]);
});

describe("authentication", () => {
  it("answers 401 ERR_NGROK_200 without an Authorization header", async () => {
    const r = await call(open.url, "GET", "/backends/failover", { headers: { Authorization: undefined } });
    expect(r.status).toBe(401);
    expect(r.headers.get("content-type")).toBe("application/json");
    expect(r.json).toMatchObject({ error_code: "ERR_NGROK_200", status_code: 401 });
    expect(r.json.details.operation_id).toMatch(/^op_/);
  });

  it.each([["Basic dXNlcjpwYXNz"], ["Bearer"], ["Bearer "], ["Bearer two words"], ["token abc"]])(
    "answers 401 ERR_NGROK_201 for the malformed header %j, without echoing it",
    async (value) => {
      const r = await call(open.url, "GET", "/backends/failover", { headers: { Authorization: value } });
      expect(r.status).toBe(401);
      expect(r.json.error_code).toBe("ERR_NGROK_201");
      if (value.length > 8) expect(r.text).not.toContain(value);
    },
  );

  it("accepts any Bearer key when started without one", async () => {
    expect(
      (await call(open.url, "GET", "/backends/failover", { headers: { Authorization: "Bearer anything-at-all" } }))
        .status,
    ).toBe(200);
    expect(
      (await call(open.url, "GET", "/backends/failover", { headers: { Authorization: "bearer lower-case-scheme" } }))
        .status,
    ).toBe(200);
  });

  it("with a key set, accepts only that key and answers 401 ERR_NGROK_203 otherwise, never echoing it", async () => {
    expect(
      (await call(locked.url, "GET", "/backends/failover", { headers: { Authorization: "Bearer the-right-key" } }))
        .status,
    ).toBe(200);
    const r = await call(locked.url, "GET", "/backends/failover", {
      headers: { Authorization: "Bearer the-wrong-key" },
    });
    expect(r.status).toBe(401);
    expect(r.json.error_code).toBe("ERR_NGROK_203");
    expect(r.text).not.toContain("the-wrong-key");
    expect(r.text).not.toContain("the-right-key");
    expect(
      (await call(locked.url, "GET", "/backends/failover", { headers: { Authorization: "Bearer the-right-key-plus" } }))
        .status,
    ).toBe(401);
  });

  it("checks the key before the route, so unknown paths answer 401 too", async () => {
    expect((await call(locked.url, "GET", "/nowhere", { headers: { Authorization: undefined } })).status).toBe(401);
  });
});

describe("API version", () => {
  it("answers 400 ERR_NGROK_218 without an Ngrok-Version header", async () => {
    const r = await call(open.url, "GET", "/backends/failover", { headers: { "Ngrok-Version": undefined } });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ error_code: "ERR_NGROK_218", status_code: 400 });
  });

  it.each([["1"], ["3"], ["two"]])("answers 400 ERR_NGROK_217 for Ngrok-Version %s", async (v) => {
    const r = await call(open.url, "GET", "/backends/failover", { headers: { "Ngrok-Version": v } });
    expect(r.status).toBe(400);
    expect(r.json.error_code).toBe("ERR_NGROK_217");
  });

  it("reads the header name in any letter case", async () => {
    expect(
      (
        await call(open.url, "GET", "/backends/failover", {
          headers: { "Ngrok-Version": undefined, "ngrok-version": "2" },
        })
      ).status,
    ).toBe(200);
  });
});

describe("routing", () => {
  it.each([
    ["/"],
    ["/backends"],
    ["/backends/http"],
    ["/edges/https/edghts_1/routes/edghtsrt_1"],
    ["/backends/failover/bkdfo_1/extra"],
  ])("answers 404 with an error body for the unknown path %s", async (path) => {
    const r = await call(open.url, "GET", path);
    expect(r.status).toBe(404);
    expect(r.headers.get("content-type")).toBe("application/json");
    expect(r.json.status_code).toBe(404);
    expect(r.json.details.operation_id).toMatch(/^op_/);
  });

  it.each([
    ["PUT", "/backends/failover", "GET, POST"],
    ["DELETE", "/backends/failover", "GET, POST"],
    ["POST", "/backends/failover/bkdfo_1", "GET, PATCH, DELETE"],
    ["PUT", "/backends/failover/bkdfo_1", "GET, PATCH, DELETE"],
    ["POST", "/edges/https/edghts_1/routes/edghtsrt_1/webhook_verification", "GET, PUT, DELETE"],
    ["PATCH", "/edges/https/edghts_1/routes/edghtsrt_1/webhook_verification", "GET, PUT, DELETE"],
  ])("answers 405 with an error body and Allow for %s %s", async (method, path, allow) => {
    const r = await call(open.url, method, path, { body: {} });
    expect(r.status).toBe(405);
    expect(r.headers.get("allow")).toBe(allow);
    expect(r.headers.get("content-type")).toBe("application/json");
    expect(r.json.status_code).toBe(405);
    expect(r.json.msg).toContain(method);
  });

  it("treats a trailing slash like none", async () => {
    expect((await call(open.url, "GET", "/backends/failover/")).status).toBe(200);
  });
});

describe("request bodies", () => {
  it("answers 413 with an error body when the declared body is over 1 MiB, without reading it", async () => {
    const body = Buffer.alloc(MAX_BODY_BYTES + 1, "a");
    const r = await rawRequest(open.url, {
      method: "POST",
      path: "/backends/failover",
      headers: {
        Authorization: "Bearer k",
        "Ngrok-Version": "2",
        "Content-Type": "application/json",
        "Content-Length": body.length,
      },
      body,
    });
    expect(r.status).toBe(413);
    expect(r.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(r.text)).toMatchObject({ status_code: 413, error_code: "ERR_NGROK_212" });
  });

  it("answers 413 when a chunked body grows past 1 MiB", async () => {
    const r = await rawRequest(open.url, {
      method: "PUT",
      path: "/edges/https/edghts_1/routes/edghtsrt_1/webhook_verification",
      headers: { Authorization: "Bearer k", "Ngrok-Version": "2", "Content-Type": "application/json" },
      body: Buffer.alloc(3 * MAX_BODY_BYTES, " "),
      chunked: true,
    });
    expect(r.status).toBe(413);
    expect(JSON.parse(r.text).status_code).toBe(413);
  });

  it("answers 413 to a fetch client sending 5 MiB, which sees the answer rather than a reset", async () => {
    const r = await call(open.url, "POST", "/backends/failover", { rawBody: "x".repeat(5 * MAX_BODY_BYTES) });
    expect(r.status).toBe(413);
    expect(r.json.status_code).toBe(413);
  });

  it("accepts a body of just under 1 MiB (padded JSON)", async () => {
    const json = JSON.stringify({ backends: ["bkdhr_a"] });
    const r = await call(open.url, "POST", "/backends/failover", {
      rawBody: json + " ".repeat(MAX_BODY_BYTES - json.length),
    });
    expect(r.status).toBe(201);
  });

  it("reads an empty POST body as an empty object, so the missing field is named", async () => {
    const r = await call(open.url, "POST", "/backends/failover", { rawBody: "" });
    expect(r.status).toBe(400);
    expect(r.json.msg).toMatch(/backends/);
  });

  it("ignores a body on DELETE", async () => {
    const made = await makeRoute(open.url);
    await call(open.url, "PUT", made.webhook, { body: { provider: "sns" } });
    const r = await call(open.url, "DELETE", made.webhook, { rawBody: "{{{{" });
    expect(r.status).toBe(204);
    expect((await call(open.url, "GET", made.webhook)).status).toBe(404);
  });
});

describe("connections", () => {
  it("keeps connections alive across requests", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    try {
      for (let i = 0; i < 3; i++) {
        await new Promise<void>((resolve, reject) => {
          const req = http.get(
            `${open.url}/backends/failover?limit=1`,
            { agent, headers: { Authorization: "Bearer k", "Ngrok-Version": "2" } },
            (res) => {
              expect(res.headers.connection).toBe("keep-alive");
              sockets.add(res.socket);
              res.resume();
              res.on("end", () => resolve());
            },
          );
          req.on("error", reject);
        });
      }
      expect(sockets.size).toBe(1);
    } finally {
      agent.destroy();
    }
  });

  it("close() ends promptly even with an idle keep-alive connection open, and then refuses connections", async () => {
    const emu = await startEmulator({ port: 0 });
    const agent = new http.Agent({ keepAlive: true });
    try {
      await new Promise<void>((resolve, reject) => {
        http
          .get(
            `${emu.url}/backends/failover`,
            { agent, headers: { Authorization: "Bearer k", "Ngrok-Version": "2" } },
            (res) => {
              res.resume();
              res.on("end", () => resolve());
            },
          )
          .on("error", reject);
      });
      // An idle keep-alive connection must not hold close() up (the test's timeout would).
      await emu.close();
      await expect(fetch(`${emu.url}/backends/failover`)).rejects.toThrow();
    } finally {
      agent.destroy();
      await emu.close();
    }
  });
});

describe("rate limit", () => {
  it("answers 429 ERR_NGROK_226 with Retry-After past N requests in the window, then lets requests in again", async () => {
    const emu = await startEmulator({ port: 0, rateLimit: { requests: 3, windowSeconds: 1 } });
    try {
      for (let i = 0; i < 3; i++) expect((await call(emu.url, "GET", "/backends/failover")).status).toBe(200);
      const r = await call(emu.url, "GET", "/backends/failover");
      expect(r.status).toBe(429);
      expect(r.headers.get("content-type")).toBe("application/json");
      expect(r.json).toMatchObject({ error_code: "ERR_NGROK_226", status_code: 429 });
      expect(r.json.details.operation_id).toMatch(/^op_/);
      const retryAfter = r.headers.get("retry-after");
      expect(retryAfter).toMatch(/^\d+$/);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(retryAfter)).toBeLessThanOrEqual(1);
      await new Promise((resolve) => setTimeout(resolve, Number(retryAfter) * 1000 + 50));
      expect((await call(emu.url, "GET", "/backends/failover")).status).toBe(200);
    } finally {
      await emu.close();
    }
  });

  it("gives Retry-After as whole seconds until the oldest request leaves a long window", async () => {
    const emu = await startEmulator({ port: 0, rateLimit: { requests: 1, windowSeconds: 60 } });
    try {
      await call(emu.url, "GET", "/backends/failover");
      const r = await call(emu.url, "GET", "/backends/failover");
      expect(r.status).toBe(429);
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(59);
      expect(Number(r.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    } finally {
      await emu.close();
    }
  });

  it("refuses a rate limit that is not a positive request count and window", async () => {
    await expect(startEmulator({ port: 0, rateLimit: { requests: 0, windowSeconds: 1 } })).rejects.toThrow(
      /rate limit/,
    );
    await expect(startEmulator({ port: 0, rateLimit: { requests: 5, windowSeconds: 0 } })).rejects.toThrow(
      /rate limit/,
    );
  });
});

describe("listening", () => {
  it("refuses a port already in use with a clear error", async () => {
    const port = Number(new URL(open.url).port);
    await expect(startEmulator({ port })).rejects.toThrow(/already in use/);
  });

  it("refuses a port out of range", async () => {
    await expect(startEmulator({ port: 70000 })).rejects.toThrow(/port/);
  });
});

describe("concurrency and throughput", () => {
  it("100 concurrent creates all succeed with distinct ids, all listed", async () => {
    const emu = await startEmulator({ port: 0 });
    try {
      const results = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          call(emu.url, "POST", "/backends/failover", { body: { backends: ["bkdhr_a"], description: `n${i}` } }),
        ),
      );
      expect(results.every((r) => r.status === 201)).toBe(true);
      const ids = new Set(results.map((r) => r.json.id as string));
      expect(ids.size).toBe(100);
      const list = await call(emu.url, "GET", "/backends/failover?limit=100");
      expect(new Set(list.json.backends.map((b: { id: string }) => b.id))).toEqual(ids);
      expect(list.json.next_page_uri).toBeNull();
    } finally {
      await emu.close();
    }
  });

  // Its throughput is a figure of the bench (autocannon, emulator / bare server), not a test:
  // a shared machine cannot hold a rate. What a test can hold is that load loses no answer.
  it("answers every one of 1,500 requests from 32 concurrent callers, each with its own status", async () => {
    const emu = await startEmulator({ port: 0 });
    // undici's pool is a light client, so the load is mostly the server's own work.
    const pool = new Pool(emu.url, { connections: 16 });
    const headers = { authorization: "Bearer k", "ngrok-version": "2" };
    const paths = ["/backends/failover?limit=5", "/edges/https/edghts_1/routes/edghtsrt_1/webhook_verification"];
    const one = async (i: number) => {
      const r = await pool.request({ method: "GET", path: paths[i % 2]!, headers });
      await r.body.dump();
      return [i % 2, r.statusCode] as const;
    };
    try {
      await call(emu.url, "POST", "/backends/failover", { body: { backends: ["bkdhr_a"] } });
      // Enough for each of the 16 connections to carry about a hundred requests kept alive.
      const total = 1_500;
      let sent = 0;
      const answers: (readonly [number, number])[] = [];
      await Promise.all(
        Array.from({ length: 32 }, async () => {
          while (sent < total) answers.push(await one(sent++));
        }),
      );
      expect(answers).toHaveLength(total);
      expect(answers.filter(([kind, status]) => status !== (kind === 0 ? 200 : 404))).toEqual([]);
    } finally {
      await pool.close();
      await emu.close();
    }
  });
});
