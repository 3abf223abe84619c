// A live secret is never replaced by its mask (issue 25 item 1): the loop a user does first —
// `endpoint get -o json | jq -r .traffic_policy > p.yml`, edit one rule, `endpoint update
// --traffic-policy-file p.yml` — keeps the live secrets where the text holds `********`; a
// `********` at a secret place with no live secret, and in `create`, is exit 2 naming the place,
// and nothing is sent. The whole CLI in-process (test/helpers/app.ts) against the emulator.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../../src/emulator/server.js";
import { appSandbox, type AppSandbox } from "../../helpers/app.js";

let emu: Emulator;
let cli: AppSandbox;
let dir: string;
beforeAll(async () => {
  emu = await startEmulator();
  cli = appSandbox();
  dir = mkdtempSync(join(tmpdir(), "edgectl-live-secrets-"));
});
afterAll(async () => {
  await emu.close();
  cli.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

const run = (args: string[], input?: string) =>
  cli.run(args, { env: { EDGECTL_API_KEY: "key_live_secrets_1234", EDGECTL_BASE_URL: emu.url }, input });
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

const YAML = `# the hooks
on_http_request:
  - name: hooks
    expressions: ["req.url.path.startsWith('/hooks')"]
    actions:
      - type: verify-webhook
        config: {provider: stripe, secret: "whsec_live_1"}   # stripe's
      - type: forward-internal
        config:
          url: https://hooks.internal
  - name: login
    actions:
      - type: oauth
        config:
          provider: google
          client_id: app-id
          client_secret: 'g00gle-live'
      - type: custom-response
        config:
          status_code: 200
          body: "********"
`;

async function createEndpoint(policy: string, host: string): Promise<{ id: string; traffic_policy: string }> {
  const r = await run([
    "endpoint",
    "create",
    "--url",
    `https://${host}.example.com`,
    "--traffic-policy-file",
    file(`${host}.yml`, policy),
    "-o",
    "json",
  ]);
  expect(r.stderr).toBe("");
  expect(r.exitCode).toBe(0);
  return JSON.parse(r.stdout) as { id: string; traffic_policy: string };
}

/** The policy as stored, secrets shown. */
async function stored(id: string): Promise<string> {
  const r = await run(["endpoint", "policy", "get", id, "--show-secret"]);
  expect(r.exitCode).toBe(0);
  return `${r.stdout}\n`;
}

describe("endpoint update: a ******** where the live policy holds a secret keeps it", () => {
  it("get -o json | jq -r .traffic_policy, edit one rule, update: every live secret kept, every other byte as edited", async () => {
    const ep = await createEndpoint(YAML, "loop");
    const got = await run(["endpoint", "get", ep.id, "-o", "json"]);
    const masked = (JSON.parse(got.stdout) as { traffic_policy: string }).traffic_policy;
    expect(masked).toBe(YAML.replace('"whsec_live_1"', '"********"').replace("'g00gle-live'", '"********"'));
    // One rule edited: the hooks go to another service.
    const edited = masked.replace("https://hooks.internal", "https://hooks-v2.internal");
    const r = await run([
      "endpoint",
      "update",
      ep.id,
      "--traffic-policy-file",
      file("loop-edited.yml", edited),
      "-o",
      "json",
    ]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(await stored(ep.id)).toBe(
      YAML.replace("https://hooks.internal", "https://hooks-v2.internal").replace("'g00gle-live'", '"g00gle-live"'),
    );
    // What update prints is masked as ever.
    expect((JSON.parse(r.stdout) as { traffic_policy: string }).traffic_policy).toBe(edited);
  });

  it("JSON stays JSON: the live value put back where the mask stands, every other byte kept", async () => {
    const policy = JSON.stringify(
      {
        on_http_request: [
          {
            actions: [
              { type: "verify-webhook", config: { provider: "github", secret: 'gh "live"' } },
              { type: "deny" },
            ],
          },
        ],
      },
      null,
      1,
    );
    const ep = await createEndpoint(policy, "json-loop");
    const masked = (
      JSON.parse((await run(["endpoint", "get", ep.id, "-o", "json"])).stdout) as { traffic_policy: string }
    ).traffic_policy;
    expect(masked).toContain('"secret": "********"');
    const edited = masked.replace('"github"', '"gitlab"');
    const r = await run(["endpoint", "update", ep.id, "--traffic-policy-file", file("json-loop.json", edited)]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(await stored(ep.id)).toBe(`${policy.replace('"github"', '"gitlab"')}\n`);
  });

  it("--dry-run shows the request with the secret still masked, says the live one is kept, and sends no PATCH", async () => {
    const ep = await createEndpoint(YAML, "dry");
    const masked = YAML.replace('"whsec_live_1"', '"********"');
    const before = emu.requests();
    const r = await run([
      "endpoint",
      "update",
      ep.id,
      "--traffic-policy-file",
      file("dry.yml", masked),
      "--dry-run",
      "-o",
      "json",
    ]);
    expect(r.exitCode).toBe(0);
    expect(emu.requests()).toBe(before + 1); // the GET alone
    const out = JSON.parse(r.stdout) as { request: { method: string; body: { traffic_policy: string } } };
    expect(out.request.method).toBe("PATCH");
    expect(out.request.body.traffic_policy).toBe(masked.replace("'g00gle-live'", '"********"'));
    expect(r.stderr).toBe(
      'note: --traffic-policy-file: on_http_request[0].actions[0].config.secret: "********" keeps the endpoint\'s live secret\n'.trimEnd(),
    );
    expect(await stored(ep.id)).toBe(YAML);
  });

  it("a ******** at a secret place where the live policy holds none is exit 2 naming the place; nothing is sent", async () => {
    const ep = await createEndpoint(YAML, "none-there");
    // The oauth action moved to the first rule: no live client_secret at on_http_request[0].actions[0].
    const moved = `on_http_request:
  - actions:
      - type: oauth
        config: {provider: google, client_id: app-id, client_secret: "********"}
      - type: deny
`;
    const before = emu.requests();
    const r = await run(["endpoint", "update", ep.id, "--traffic-policy-file", file("moved.yml", moved)]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      'error: --traffic-policy-file: on_http_request[0].actions[0].config.client_secret: "********" is the mask edgectl prints, not a secret, and the endpoint\'s live policy holds no oauth secret there to keep; write the secret itself',
    );
    expect(emu.requests()).toBe(before + 1); // the GET alone
    expect(await stored(ep.id)).toBe(YAML);
  });

  it("a ******** in a body, or in a header that is no secret place, is ordinary text", async () => {
    const ep = await createEndpoint(YAML, "body");
    const policy = `on_http_request:
  - actions:
      - type: add-headers
        config: {headers: {x-note: "********"}}
      - type: custom-response
        config: {status_code: 200, body: "********"}
`;
    const r = await run(["endpoint", "update", ep.id, "--traffic-policy-file", file("body.yml", policy)]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(await stored(ep.id)).toBe(policy);
  });
});

describe("endpoint create: a ******** at a secret place is refused", () => {
  it("exit 2 naming the place; nothing is sent", async () => {
    const before = emu.requests();
    const r = await run([
      "endpoint",
      "create",
      "--url",
      "https://create-mask.example.com",
      "--traffic-policy-file",
      file("create.yml", YAML.replace('"whsec_live_1"', '"********"')),
    ]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      'error: --traffic-policy-file: on_http_request[0].actions[0].config.secret: "********" is the mask edgectl prints, not a secret; write the secret itself',
    );
    expect(emu.requests()).toBe(before);
  });

  it("a ******** in a body is ordinary text", async () => {
    const ep = await createEndpoint(YAML, "create-body");
    expect(await stored(ep.id)).toBe(YAML);
  });
});

describe("endpoint webhook-verification replace --secret ********", () => {
  it("keeps the live secret and changes the provider alone", async () => {
    const ep = await createEndpoint(YAML, "replace-keep");
    const r = await run([
      "endpoint",
      "webhook-verification",
      "replace",
      ep.id,
      "--provider",
      "github",
      "--secret",
      "********",
    ]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(await stored(ep.id)).toBe(YAML.replace("provider: stripe", "provider: github"));
  });

  it("is exit 2 when the action holds no live secret (only the mask, stored before this fix); nothing is sent", async () => {
    // Stored straight through the API: create refuses a ******** now.
    const policy =
      'on_http_request:\n  - actions:\n      - type: verify-webhook\n        config: {provider: stripe, secret: "********"}\n      - type: deny\n';
    const res = await fetch(`${emu.url}/endpoints`, {
      method: "POST",
      headers: {
        authorization: "Bearer key_live_secrets_1234",
        "content-type": "application/json",
        "ngrok-version": "2",
      },
      body: JSON.stringify({ type: "cloud", url: "https://replace-none.example.com", traffic_policy: policy }),
    });
    expect(res.status).toBe(201);
    const ep = (await res.json()) as { id: string };
    const before = emu.requests();
    const r = await run([
      "endpoint",
      "webhook-verification",
      "replace",
      ep.id,
      "--provider",
      "github",
      "--secret",
      "********",
    ]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(
      'error: --secret: "********" is the mask edgectl prints, not a secret, and the verify-webhook action of rule on_http_request[0] (no name) holds no secret to keep; give the secret itself',
    );
    expect(emu.requests()).toBe(before + 1);
  });
});

describe("keepLiveSecrets: by place, in place", () => {
  const live = `on_http_request:
  - actions:
      - type: oauth
        config: {provider: google, client_id: a, client_secret: "live-1"}
      - type: verify-webhook
        config: {provider: stripe, secret: "live-2"}
`;

  it("an action of another type at the same place keeps nothing: exit 2", async () => {
    const { keepLiveSecrets } = await import("../../../src/commands/endpoint/live-secrets.js");
    const text = live.replace("type: oauth", "type: openid-connect").replace('"live-1"', '"********"');
    await expect(keepLiveSecrets(text, live)).rejects.toThrow(
      /on_http_request\[0\]\.actions\[0\]\.config\.client_secret: "\*{8}" is the mask edgectl prints, not a secret, and the endpoint's live policy holds no openid-connect secret there/,
    );
  });

  it("several masks, a byte-order mark and YAML written as JSON: each live value where its mask stands", async () => {
    const { keepLiveSecrets } = await import("../../../src/commands/endpoint/live-secrets.js");
    const text = `\ufeff${live.replace('"live-1"', "'********'").replace('"live-2"', '"********"')}`;
    expect(
      await keepLiveSecrets(
        text,
        JSON.stringify({
          on_http_request: [
            {
              actions: [
                { type: "oauth", config: { client_secret: "live-1" } },
                { type: "verify-webhook", config: { secret: "live-2" } },
              ],
            },
          ],
        }),
      ),
    ).toEqual({
      text: `\ufeff${live}`,
      kept: ["on_http_request[0].actions[0].config.client_secret", "on_http_request[0].actions[1].config.secret"],
    });
  });

  it("a mask shared through a YAML anchor with a place that is no secret place is refused, not guessed", async () => {
    const { keepLiveSecrets } = await import("../../../src/commands/endpoint/live-secrets.js");
    const text = live
      .replace('"live-2"', '&m "********"')
      .concat("      - type: custom-response\n        config: {status_code: 200, body: *m}\n");
    await expect(keepLiveSecrets(text, live)).rejects.toThrow(/cannot be put back there alone/);
  });

  it("a text without a mask, or no policy, is sent as given", async () => {
    const { keepLiveSecrets } = await import("../../../src/commands/endpoint/live-secrets.js");
    expect(await keepLiveSecrets(live, null)).toEqual({ text: live, kept: [] });
    expect(await keepLiveSecrets("a: [", live)).toEqual({ text: "a: [", kept: [] });
  });
});
