import type { NounDecl } from "../define.js";

export const auth: NounDecl = {
  name: "auth",
  description: "Log in, check and log out (the API key of a profile)",
  examples: [
    "$ edgectl auth login",
    "$ printenv NGROK_API_KEY | edgectl auth login --with-token --profile ci",
    "$ edgectl auth status -o json | jq -r .api_key_source",
  ],
  verbs: {
    login: async () => (await import("./login.js")).login,
    status: async () => (await import("./status.js")).status,
    logout: async () => (await import("./logout.js")).logout,
  },
};
