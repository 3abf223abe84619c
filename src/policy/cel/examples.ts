// Names ngrok's own published policies use that its variable reference does not define: a
// warning, not a problem (the contract, "CEL, parsed and type-checked"). Each with the example
// that uses it (ngrok-docs 56a5f9960f4e7c7e134fbc0412f74b51b2df5eca).
export const EXAMPLE_ONLY: ReadonlyMap<string, string> = new Map<string, string>([
  // traffic-policy/actions/owasp-crs-request.mdx:200 and owasp-crs-response.mdx:157 (the
  // continue examples) read .matched_rules, which the actions' variables.mdx do not list.
  ["actions.ngrok.owasp_crs_request.matched_rules", "traffic-policy/actions/owasp-crs-request.mdx:200"],
  ["actions.ngrok.owasp_crs_response.matched_rules", "traffic-policy/actions/owasp-crs-response.mdx:157"],
]);
