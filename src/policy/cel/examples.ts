// Names ngrok's own published policies use that its variable reference does not define: a
// warning, not a problem (the contract, "CEL, parsed and type-checked"). Each with the example
// that uses it (ngrok-docs 56a5f9960f4e7c7e134fbc0412f74b51b2df5eca).
export const EXAMPLE_ONLY: ReadonlyMap<string, string> = new Map<string, string>([
  // traffic-policy/actions/owasp-crs-request.mdx:200 and owasp-crs-response.mdx:157 (the
  // continue examples) read .matched_rules, which the actions' variables.mdx do not list.
  ["actions.ngrok.owasp_crs_request.matched_rules", "traffic-policy/actions/owasp-crs-request.mdx:200"],
  ["actions.ngrok.owasp_crs_response.matched_rules", "traffic-policy/actions/owasp-crs-response.mdx:157"],
  ["actions.ngrok.jwt_validation.tokens", "gateway/examples/microservices-gateway.mdx:154"],
  ["req.path", "gateway/examples/blue-green-deployments.mdx:96"],
  ["req.raw", "traffic-policy/macros/index.mdx:1860"],
  // `${.ngrok.geo.country_code}` (a leading-dot name; the reference's is conn.geo.country_code).
  [
    "ngrok.geo.country_code",
    "snippets/traffic-policy/gallery/ManipulateHeaders.mdx:2, integrations/guides/linode-gslb_edges.mdx:216",
  ],
]);

/**
 * Methods ngrok's examples call that its macro reference does not define (on the receiver
 * kind named): a warning, typed bool, as each example uses it.
 */
export const EXAMPLE_METHODS: ReadonlyMap<string, { receiver: "string" | "list"; source: string }> = new Map([
  ["includes", { receiver: "string", source: "gateway/examples/front-door-pattern.mdx:75" }],
  ["contains", { receiver: "list", source: "traffic-policy/actions/response-body-find-replace.mdx:177" }],
]);
