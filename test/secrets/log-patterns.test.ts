// Issue 25 item 2, --debug: a body that cannot be read as JSON (cut short, not JSON) is
// masked by patterns; they know every secret field's name from src/secrets' table, in any
// letter case, a list of credentials and a block scalar, in JSON and in YAML, also inside a
// JSON string. (A header's name is a word of messages too, "the Authorization header:
// Authorization: Bearer <API key>": the patterns leave it; a body that parses is masked by
// structure, headers included.)
import { describe, expect, it } from "vitest";
import { redactBody, redactLogText } from "../../src/api/redact.js";

const SECRETS = ["Sup3rS3cret", "0psPassw0rd", "MIIEkeyQ4"];
const expectNone = (text: string) => {
  for (const s of SECRETS) expect(text, text).not.toContain(s);
};

const POLICY = {
  on_http_request: [
    {
      actions: [
        { type: "basic-auth", config: { realm: "r", credentials: ["admin:Sup3rS3cret", "ops:0psPassw0rd"] } },
        {
          type: "add-headers",
          config: { headers: { Authorization: "Bearer tokQ5xyz", COOKIE: "sid=ckQ6xyz", "x-kept": "keptvalue" } },
        },
        { type: "http-request", config: { url: "https://a.internal", headers: { "Proxy-Authorization": "prxQ7xyz" } } },
      ],
    },
  ],
  on_tcp_connect: [{ actions: [{ type: "terminate-tls", config: { server_private_key: "-----BEGIN\nMIIEkeyQ4\n" } }] }],
};

describe("log patterns know every secret place", () => {
  it("a JSON policy inside a JSON string, cut short anywhere", async () => {
    const body = JSON.stringify({ id: "ep_1", traffic_policy: JSON.stringify(POLICY) });
    for (let cut = 10; cut <= body.length; cut += 7) {
      const out = await redactBody(body.slice(0, cut), [], { max: 1_000_000 });
      for (const s of SECRETS) {
        // No secret's text beyond what the cut itself shortened to fewer than 4 characters.
        const at = body.indexOf(s);
        if (at >= 0 && cut - at >= 4) expect(out, out).not.toContain(s.slice(0, Math.min(s.length, cut - at)));
      }
    }
  });

  it("a YAML policy inside a JSON string, cut short", async () => {
    const { stringify } = await import("yaml");
    const body = JSON.stringify({ id: "ep_1", traffic_policy: stringify(POLICY) });
    const out = await redactBody(body.slice(0, -2), [], { max: 1_000_000 });
    expectNone(out);
    expect(out).toContain("keptvalue");
  });

  it("YAML and JSON lines in a message", () => {
    expectNone(redactLogText("credentials:\n  - admin:Sup3rS3cret\n  - ops:0psPassw0rd\nrealm: r", []));
    expectNone(redactLogText('{"credentials": ["admin:Sup3rS3cret", "ops:0psPassw0rd"]', []));
    expectNone(redactLogText("SERVER_PRIVATE_KEY: |\n  -----BEGIN\n  MIIEkeyQ4\nrealm: r", []));
    const words = "The API requires that you set the Authorization header: Authorization: Bearer <API key>.";
    expect(redactLogText(words, [])).toBe(words);
    const proxy = "the proxy wants credentials: give them in the proxy URL (http://user:password@host:port)";
    expect(redactLogText(proxy, [])).toBe(proxy);
    expect(redactLogText("realm: r\nx-kept: keptvalue", [])).toBe("realm: r\nx-kept: keptvalue");
  });
});
