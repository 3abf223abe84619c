// oidc → openid-connect.
import { describe } from "vitest";
import { translateOidc } from "../../../src/migrate/modules/oidc.js";
import { action, edgeModule, refusal, table, type Case } from "./table.js";

const CASES: Case[] = [
  {
    // Issue 25 item 17 (b): ngrok interpolates client_id and client_secret, the edge did not.
    name: 'a literal "${" in client_id and client_secret is escaped, with a warning',
    doc: `${action("oidc")} (client_id, client_secret: "Supports CEL Interpolation")`,
    module: { issuer: "https://id.example.com", client_id: "i${d}", client_secret: "s${x}" },
    out: {
      steps: [
        {
          actions: [
            {
              type: "openid-connect",
              config: { issuer_url: "https://id.example.com", client_id: 'i${"${"}d}', client_secret: 's${"${"}x}' },
            },
          ],
        },
      ],
      warnings: [
        {
          item: "oidc",
          message: 'a literal "${" in oidc.client_id is written ${"${"} so ngrok does not read it as CEL',
        },
        {
          item: "oidc",
          message: 'a literal "${" in oidc.client_secret is written ${"${"} so ngrok does not read it as CEL',
        },
      ],
    },
  },
  {
    name: "issuer, client, scopes, CORS preflight and session times",
    doc: action("oidc"),
    module: {
      enabled: true,
      issuer: "https://id.example.com",
      client_id: "id",
      client_secret: "cs",
      scopes: ["openid", "email"],
      options_passthrough: true,
      inactivity_timeout: 60,
      maximum_duration: 3600,
      cookie_prefix: "ngrok.",
    },
    out: {
      steps: [
        {
          actions: [
            {
              type: "openid-connect",
              config: {
                issuer_url: "https://id.example.com",
                client_id: "id",
                client_secret: "cs",
                scopes: ["openid", "email"],
                allow_cors_preflight: true,
                idle_session_duration: "60s",
                max_session_duration: "3600s",
              },
            },
          ],
        },
      ],
    },
  },
  {
    name: "empty fields and zero times are left out",
    doc: action("oidc"),
    module: { issuer: "https://id.example.com", client_id: "", scopes: [], inactivity_timeout: 0 },
    out: { steps: [{ actions: [{ type: "openid-connect", config: { issuer_url: "https://id.example.com" } }] }] },
  },
  {
    name: "a cookie prefix of the operator's: a warning",
    module: { issuer: "https://id.example.com", cookie_prefix: "sso." },
    out: {
      steps: [{ actions: [{ type: "openid-connect", config: { issuer_url: "https://id.example.com" } }] }],
      warnings: [{ item: "oidc", message: 'cookie_prefix "sso." has no equivalent; ngrok names the cookie itself' }],
    },
  },
  {
    name: "no issuer (issuer_url is required)",
    doc: edgeModule("edgerouteoidcmodule"),
    module: { issuer: "" },
    out: refusal("oidc", "the oidc module has no issuer"),
  },
];

describe("oidc", () => table(CASES, translateOidc));
