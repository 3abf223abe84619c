// oauth (traffic-policy/actions/oauth.mdx).
import * as z from "zod/mini";
import { OAUTH_PROVIDERS } from "../../api-data/providers.js";
import type { ActionSpec } from "../actions.js";
import { bool, duration, str, strings } from "./fields.js";

/** :146-155: the providers with a managed application ("Managed App Available: yes"). */
const MANAGED = ["github", "gitlab", "google", "linkedin", "microsoft", "twitch"];

export const spec: ActionSpec = {
  phases: ["on_http_request"], // :32
  schema: () =>
    z
      .strictObject({
        provider: z.enum(OAUTH_PROVIDERS), // :40-42 required; :146-155 the identifiers
        auth_id: z.optional(str()), // :44-48
        client_id: z.optional(str()), // :50-55
        client_secret: z.optional(str()), // :57-62
        scopes: z.optional(strings()), // :64-66
        authz_url_params: z.optional(z.record(z.string(), z.string())), // :68-70
        max_session_duration: z.optional(duration()), // :72-74
        idle_session_timeout: z.optional(duration()), // :76-78
        userinfo_refresh_interval: z.optional(duration()), // :80-82
        allow_cors_preflight: z.optional(bool()), // :84-87
        auth_cookie_domain: z.optional(str()), // :89-91
      })
      .check(
        z.check((ctx) => {
          const c = ctx.value;
          if (c.client_id !== undefined && c.client_id !== "") return;
          // Without a client id ngrok's managed application is used (:52-54), which :223
          // offers "only for some identity providers" and :224 takes no custom scopes.
          if (!MANAGED.includes(c.provider))
            ctx.issues.push({
              code: "custom",
              message: `ngrok has no managed application for ${c.provider}: give client_id and client_secret`,
              input: c,
              path: ["client_id"],
            });
          if (c.scopes !== undefined && c.scopes.length > 0)
            ctx.issues.push({
              code: "custom",
              message: "custom scopes need your own OAuth application (client_id and client_secret)",
              input: c.scopes,
              path: ["scopes"],
            });
        }),
      ),
  celFields: ["client_id", "client_secret"], // :50, :57 cel={true}
  authentication: true, // traffic-policy/examples/add-authentication.mdx:20-21
};
