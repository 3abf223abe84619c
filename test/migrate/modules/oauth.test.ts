// oauth → the oauth action, and a deny (403) rule for emails the edge did not let through.
import { describe } from "vitest";
import { translateOauth } from "../../../src/migrate/modules/oauth.js";
import { DENY_403 } from "../../../src/migrate/modules/translator.js";
import { action, edgeModule, refusal, table, type Case } from "./table.js";

const email = "actions.ngrok.oauth.identity.email";

const CASES: Case[] = [
  {
    // Issue 25 item 17 (b): ngrok interpolates client_id and client_secret, the edge did not.
    name: 'a literal "${" in client_id and client_secret is escaped, with a warning',
    doc: `${action("oauth")} (client_id, client_secret: "Supports CEL Interpolation")`,
    module: { provider: { github: { client_id: "i${d}", client_secret: "s${x}" } } },
    out: {
      steps: [
        {
          actions: [
            { type: "oauth", config: { provider: "github", client_id: 'i${"${"}d}', client_secret: 's${"${"}x}' } },
          ],
        },
      ],
      warnings: [
        {
          item: "oauth",
          message:
            'a literal "${" in oauth.provider.github.client_id is written ${"${"} so ngrok does not read it as CEL',
        },
        {
          item: "oauth",
          message:
            'a literal "${" in oauth.provider.github.client_secret is written ${"${"} so ngrok does not read it as CEL',
        },
      ],
    },
  },
  {
    name: "a managed provider: the action alone",
    doc: action("oauth"),
    module: { enabled: true, provider: { google: { client_id: null, client_secret: null, scopes: [] } } },
    out: { steps: [{ actions: [{ type: "oauth", config: { provider: "google" } }] }] },
  },
  {
    name: "the client, scopes, CORS preflight and session times (seconds → durations)",
    doc: action("oauth"),
    module: {
      provider: { github: { client_id: "id", client_secret: "cs", scopes: ["read:user"] } },
      options_passthrough: true,
      inactivity_timeout: 600,
      maximum_duration: 86400,
      auth_check_interval: 300,
      cookie_prefix: "ngrok.",
    },
    out: {
      steps: [
        {
          actions: [
            {
              type: "oauth",
              config: {
                provider: "github",
                client_id: "id",
                client_secret: "cs",
                scopes: ["read:user"],
                allow_cors_preflight: true,
                idle_session_timeout: "600s",
                max_session_duration: "86400s",
                userinfo_refresh_interval: "300s",
              },
            },
          ],
        },
      ],
    },
  },
  {
    name: "email addresses and domains: a rule of its own denies any other email",
    doc: action("oauth"),
    module: { provider: { google: { email_addresses: ["a@x.com"], email_domains: ["y.org"] } } },
    out: {
      steps: [
        { actions: [{ type: "oauth", config: { provider: "google" } }] },
        {
          rule: "oauth-email",
          expressions: [`!(${email} == "a@x.com" || ${email}.endsWith("@y.org"))`],
          actions: [DENY_403],
        },
      ],
    },
  },
  {
    name: "a cookie prefix of the operator's: a warning (ngrok names the cookie)",
    module: { provider: { google: {} }, cookie_prefix: "mine." },
    out: {
      steps: [{ actions: [{ type: "oauth", config: { provider: "google" } }] }],
      warnings: [{ item: "oauth", message: 'cookie_prefix "mine." has no equivalent; ngrok names the cookie itself' }],
    },
  },
  {
    name: "no provider",
    doc: edgeModule("edgerouteoauthmodule"),
    module: { provider: { google: null } },
    out: refusal("oauth", "the oauth module names no provider"),
  },
  {
    name: "two providers",
    module: { provider: { google: {}, github: {} } },
    out: refusal("oauth", "the oauth module names more than one provider"),
  },
  {
    name: "a provider the action does not take",
    doc: action("oauth"),
    module: { provider: { myspace: {} } },
    out: refusal("oauth", 'oauth provider "myspace" is not one ngrok\'s oauth action takes'),
  },
  {
    name: "a provider field edgectl does not know",
    module: { provider: { google: { hd: "x.com" } } },
    out: refusal("oauth", "the google provider has fields edgectl does not know (hd); carry them over by hand"),
  },
  {
    name: "teams and organizations: each refused (the action checks neither)",
    doc: action("oauth"),
    module: { provider: { github: { teams: ["t"], organizations: ["o"] } } },
    out: {
      refused: [
        { item: "oauth", reason: "teams has no equivalent in ngrok's oauth action; rebuild that check by hand" },
        {
          item: "oauth",
          reason: "organizations has no equivalent in ngrok's oauth action; rebuild that check by hand",
        },
      ],
    },
  },
  {
    name: "email lists that are not lists",
    module: { provider: { google: { email_domains: "x.com" } } },
    out: refusal("oauth", "email_addresses and email_domains must be lists"),
  },
];

describe("oauth", () => table(CASES, translateOauth));
