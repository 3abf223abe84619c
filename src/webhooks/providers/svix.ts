// Svix: the Standard Webhooks scheme with svix-* headers (see ../standard.ts).
// https://docs.svix.com/receiving/verifying-payloads/how-manual ; official library
// svix/svix-webhooks javascript/src/webhook.ts.
import { standardScheme } from "../standard.js";

export const scheme = standardScheme({
  provider: "svix",
  name: "Svix",
  prefix: "svix",
  secretName: "the endpoint's Signing Secret",
  sources: [
    "https://docs.svix.com/receiving/verifying-payloads/how-manual",
    "svix/svix-webhooks javascript/src/webhook.ts",
  ],
});
