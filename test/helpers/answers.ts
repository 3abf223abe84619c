// API answers the tests hand to edgectl: one Failover backend as the API returns it.
export const FB = {
  id: "bkdfo_abc",
  uri: "https://api.ngrok.com/backends/failover/bkdfo_abc",
  created_at: "2026-01-01T00:00:00Z",
  description: "eu pair",
  metadata: "",
  backends: ["bkdhr_a", "bkdtg_b"],
};
