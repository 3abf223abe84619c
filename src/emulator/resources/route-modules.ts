// A route module as the real API shows it (held to its documented examples in
// test/emulator/api-examples.test.ts): the emulator keeps a module as it was sent, and fills
// in here what the API adds — defaults of the fields not sent, every OAuth provider key (null
// for those not used), header names lower-cased, references as {id, uri}, the SAML
// service provider's own URLs.
import { OAUTH_PROVIDERS } from "../../api-data/providers.js";
import type { Context } from "../http.js";
import { EDGE_MODULES } from "./edge-modules.js";

const SESSION_DEFAULTS = { options_passthrough: false, inactivity_timeout: 0, maximum_duration: 0 };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function lowerKeys(v: unknown): Record<string, unknown> {
  if (!isRecord(v)) return {};
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k.toLowerCase(), x]));
}

type Render = (ctx: Context, routeId: string, m: Record<string, unknown>) => Record<string, unknown>;

const RENDER: Record<string, Render> = {
  ip_restriction: (ctx, _id, m) => ("ip_policy_ids" in m ? EDGE_MODULES.ip_restriction!.render(ctx, m) : m),
  request_headers: (_ctx, _id, m) => ({ ...m, add: lowerKeys(m.add), remove: m.remove ?? [] }),
  response_headers: (_ctx, _id, m) => ({ ...m, add: lowerKeys(m.add), remove: m.remove ?? [] }),
  oauth: (_ctx, _id, m) => {
    const given = isRecord(m.provider) ? m.provider : {};
    const provider = Object.fromEntries(
      OAUTH_PROVIDERS.map((name) => {
        const p = given[name];
        return [name, isRecord(p) ? { scopes: [], email_addresses: [], email_domains: [], ...p } : null];
      }),
    );
    return { ...SESSION_DEFAULTS, cookie_prefix: "ngrok.", auth_check_interval: 0, ...m, provider };
  },
  oidc: (_ctx, _id, m) => ({ ...SESSION_DEFAULTS, cookie_prefix: "", scopes: [], ...m }),
  saml: (ctx, routeId, m) => {
    // The service provider's URLs are the API's own, one set per route.
    const entity = `${ctx.base}/saml/${routeId}`;
    return {
      ...SESSION_DEFAULTS,
      cookie_prefix: "",
      idp_metadata: "",
      idp_metadata_url: "",
      force_authn: false,
      allow_idp_initiated: true,
      authorized_groups: [],
      nameid_format: "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent",
      ...m,
      entity_id: entity,
      assertion_consumer_service_url: `${entity}/acs`,
      single_logout_url: `${entity}/slo`,
      metadata_url: entity,
      // The emulator signs nothing: an empty certificate, where the API shows its own.
      request_signing_certificate_pem: "",
    };
  },
};

/** A route module (other than backend and webhook_verification) as the API shows it; null when not set. */
export function renderRouteModule(
  ctx: Context,
  routeId: string,
  name: string,
  stored: Record<string, unknown> | undefined,
): Record<string, unknown> | null {
  if (!stored) return null;
  const render = RENDER[name];
  return render ? render(ctx, routeId, stored) : stored;
}
