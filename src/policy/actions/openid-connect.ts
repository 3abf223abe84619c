// openid-connect (traffic-policy/actions/oidc.mdx).
import * as z from "zod/mini";
import type { ActionSpec } from "../actions.js";
import { bool, duration, nonEmpty, str, strings } from "./fields.js";

export const spec: ActionSpec = {
  phases: ["on_http_request"], // :22
  schema: () =>
    z.strictObject({
      // :30-33 required. Not checked as a URL: ngrok's own example writes '{your issuer url}' (:230).
      issuer_url: nonEmpty(),
      auth_id: z.optional(str()), // :35-39
      client_id: z.optional(str()), // :41-43
      client_secret: z.optional(str()), // :45-47
      scopes: z.optional(strings()), // :49-52
      authz_url_params: z.optional(z.record(z.string(), z.string())), // :54-57
      max_session_duration: z.optional(duration()), // :59-61
      idle_session_duration: z.optional(duration()), // :63-66
      // ngrok's Kubernetes operator names the same field idle_session_timeout, as oauth does
      // (ngrok-operator internal/trafficpolicy/policy.go, OIDCConfig): both are taken.
      idle_session_timeout: z.optional(duration()),
      userinfo_refresh_interval: z.optional(duration()), // :68-71
      allow_cors_preflight: z.optional(bool()), // :73-76
      auth_cookie_domain: z.optional(str()), // :78-80
    }),
  celFields: ["client_id", "client_secret"], // :41, :45 cel={true}
  deprecated: {
    idle_session_timeout:
      "not in ngrok's openid-connect reference, which names it idle_session_duration (traffic-policy/actions/oidc.mdx:63); ngrok's Kubernetes operator writes idle_session_timeout",
  },
  authentication: true, // traffic-policy/examples/add-authentication.mdx:20-21
};
