// The modules of an HTTPS edge route other than `backend` and `webhook_verification`, in the
// API's field order: the edge schema reads them loosely (the planner, src/migrate/plan.ts,
// checks each one's shape itself), and the emulator keeps them as given.
export const OTHER_ROUTE_MODULES = [
  "ip_restriction",
  "circuit_breaker",
  "compression",
  "request_headers",
  "response_headers",
  "oauth",
  "saml",
  "oidc",
  "websocket_tcp_converter",
  "user_agent_filter",
  "traffic_policy",
] as const;
