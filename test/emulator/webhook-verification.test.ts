// The webhook verification module of an HTTPS edge route, over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDERS } from "../../src/api-data/providers.js";
import { startEmulator, type Emulator } from "../../src/emulator/server.js";
import { call, makeRoute } from "../helpers/emulator.js";

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await emu.close();
});

/** The module path of a fresh route each time, so tests do not see each other's modules. */
const route = async () => (await makeRoute(emu.url)).webhook;

describe("PUT …/webhook_verification", () => {
  it("sets the module and answers 200 with it; GET then returns it", async () => {
    const path = await route();
    const r = await call(emu.url, "PUT", path, { body: { enabled: true, provider: "github", secret: "s3cr3t" } });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/json");
    expect(r.json).toEqual({ enabled: true, provider: "github", secret: "s3cr3t" });
    const g = await call(emu.url, "GET", path);
    expect(g.status).toBe(200);
    expect(g.json).toEqual(r.json);
  });

  it("replaces a module already set, and keeps enabled false when sent", async () => {
    const path = await route();
    await call(emu.url, "PUT", path, { body: { enabled: true, provider: "github", secret: "a" } });
    const r = await call(emu.url, "PUT", path, { body: { enabled: false, provider: "stripe", secret: "b" } });
    expect(r.json).toEqual({ enabled: false, provider: "stripe", secret: "b" });
    expect((await call(emu.url, "GET", path)).json).toEqual(r.json);
  });

  it("takes sns without a secret", async () => {
    const r = await call(emu.url, "PUT", await route(), { body: { enabled: true, provider: "sns" } });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ enabled: true, provider: "sns", secret: "" });
  });

  it("refuses a secret for sns, naming the field", async () => {
    const r = await call(emu.url, "PUT", await route(), { body: { enabled: true, provider: "sns", secret: "x" } });
    expect(r.status).toBe(400);
    expect(r.json.error_code).toBe("ERR_NGROK_215");
    expect(r.json.msg).toMatch(/secret/);
  });

  it("requires a secret for every other provider", async () => {
    for (const body of [
      { enabled: true, provider: "github" },
      { enabled: true, provider: "slack", secret: "" },
    ]) {
      const r = await call(emu.url, "PUT", await route(), { body });
      expect(r.status).toBe(400);
      expect(r.json.msg).toMatch(/secret/);
    }
  });

  it("accepts every supported provider", async () => {
    for (const provider of PROVIDERS) {
      const body = provider === "sns" ? { enabled: true, provider } : { enabled: true, provider, secret: "x" };
      expect((await call(emu.url, "PUT", await route(), { body })).status).toBe(200);
    }
  });

  it("takes a provider name in any case and shows it as sent, as the API's example does (TWILIO)", async () => {
    const r = await call(emu.url, "PUT", await route(), { body: { enabled: true, provider: "TWILIO", secret: "x" } });
    expect(r.status).toBe(200);
    expect(r.json.provider).toBe("TWILIO");
  });

  it.each([["githib"], ["nope"], [""]])("refuses the provider %j, naming the field", async (provider) => {
    const r = await call(emu.url, "PUT", await route(), { body: { enabled: true, provider, secret: "x" } });
    expect(r.status).toBe(400);
    expect(r.json.error_code).toBe("ERR_NGROK_215");
    expect(r.json.msg).toMatch(/provider/);
  });

  it("suggests the provider meant on a near miss", async () => {
    const r = await call(emu.url, "PUT", await route(), { body: { enabled: true, provider: "githib", secret: "x" } });
    expect(r.json.msg).toContain('did you mean "github"');
  });

  it("refuses a missing provider, a non-boolean enabled and unknown fields", async () => {
    const path = await route();
    expect((await call(emu.url, "PUT", path, { body: { enabled: true, secret: "x" } })).json.msg).toMatch(/provider/);
    expect(
      (await call(emu.url, "PUT", path, { body: { enabled: "yes", provider: "github", secret: "x" } })).json.msg,
    ).toMatch(/enabled/);
    const unknown = await call(emu.url, "PUT", path, {
      body: { enabled: true, provider: "github", secret: "x", algo: "sha1" },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error_code).toBe("ERR_NGROK_214");
    expect(unknown.json.msg).toContain("algo");
    expect((await call(emu.url, "GET", path)).status).toBe(404);
  });

  it("refuses malformed JSON", async () => {
    const r = await call(emu.url, "PUT", await route(), { rawBody: "{enabled:true}" });
    expect(r.status).toBe(400);
    expect(r.json.error_code).toBe("ERR_NGROK_213");
  });
});

describe("GET and DELETE …/webhook_verification", () => {
  it("GET answers 404 on a route without a module", async () => {
    const r = await call(emu.url, "GET", await route());
    expect(r.status).toBe(404);
    expect(r.json.status_code).toBe(404);
    expect(r.json.details.operation_id).toMatch(/^op_/);
  });

  it("DELETE answers 204 with an empty body and removes the module", async () => {
    const path = await route();
    await call(emu.url, "PUT", path, { body: { enabled: true, provider: "github", secret: "x" } });
    const d = await call(emu.url, "DELETE", path);
    expect(d.status).toBe(204);
    expect(d.text).toBe("");
    expect((await call(emu.url, "GET", path)).status).toBe(404);
  });

  it("DELETE on a route without a module still answers 204", async () => {
    expect((await call(emu.url, "DELETE", await route())).status).toBe(204);
  });

  it("keeps modules of different routes apart", async () => {
    const one = await makeRoute(emu.url);
    const two = await call(emu.url, "POST", `/edges/https/${one.edgeId}/routes`, {
      body: { match_type: "exact_path", match: "/two" },
    });
    const twoPath = `/edges/https/${one.edgeId}/routes/${two.json.id}/webhook_verification`;
    await call(emu.url, "PUT", one.webhook, { body: { provider: "github", secret: "1" } });
    await call(emu.url, "PUT", twoPath, { body: { provider: "sns" } });
    expect((await call(emu.url, "GET", one.webhook)).json.provider).toBe("github");
    expect((await call(emu.url, "GET", twoPath)).json.provider).toBe("sns");
  });

  it("answers 404 for every method when the route or its edge does not exist, as the API does", async () => {
    const made = await makeRoute(emu.url);
    const paths = [
      `/edges/https/${made.edgeId}/routes/edghtsrt_missing/webhook_verification`,
      `/edges/https/edghts_missing/routes/${made.routeId}/webhook_verification`,
    ];
    for (const path of paths) {
      for (const method of ["GET", "PUT", "DELETE"]) {
        const r = await call(emu.url, method, path, method === "PUT" ? { body: { provider: "sns" } } : {});
        expect(r.status).toBe(404);
        expect(r.json.error_code).toBeUndefined();
      }
    }
  });

  it("defaults enabled to true when left out, as the API does", async () => {
    const r = await call(emu.url, "PUT", await route(), { body: { provider: "github", secret: "x" } });
    expect(r.json.enabled).toBe(true);
  });

  it.each([
    ["edge", "/edges/https/edghts-bad/routes/edghtsrt_1/webhook_verification"],
    ["route", "/edges/https/edghts_1/routes/edghts_1/webhook_verification"],
    ["percent-encoded slash", "/edges/https/edghts_1%2Fx/routes/edghtsrt_1/webhook_verification"],
  ])("answers 400 ERR_NGROK_227 for a malformed %s id", async (_what, path) => {
    for (const method of ["GET", "PUT", "DELETE"]) {
      const r = await call(emu.url, method, path, method === "PUT" ? { body: { provider: "sns" } } : {});
      expect(r.status).toBe(400);
      expect(r.json.error_code).toBe("ERR_NGROK_227");
    }
  });

  it("percent-decodes edge and route ids", async () => {
    const made = await makeRoute(emu.url);
    await call(emu.url, "PUT", made.webhook, { body: { provider: "sns" } });
    const encoded = made.webhook.replace("edghts_", "edghts%5F").replace("edghtsrt_", "edghtsrt%5f");
    expect(encoded).not.toBe(made.webhook);
    const r = await call(emu.url, "GET", encoded);
    expect(r.status).toBe(200);
    expect(r.json.provider).toBe("sns");
  });
});
