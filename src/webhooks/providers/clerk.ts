// Clerk sends its webhooks through Svix: svix-* headers, the endpoint's Signing Secret
// (whsec_…), the Standard Webhooks scheme (see ../standard.ts).
// https://clerk.com/docs/webhooks/overview ("Clerk uses Svix") and
// https://clerk.com/docs/webhooks/sync-data ; official library clerk/javascript
// packages/backend/src/webhooks.ts (verifyWebhook: svix-id, svix-timestamp, svix-signature).
import { standardScheme } from "../standard.js";

export const scheme = standardScheme({
  provider: "clerk",
  name: "Clerk",
  prefix: "svix",
  secretName: "the endpoint's Signing Secret",
  sources: ["https://clerk.com/docs/webhooks/overview", "clerk/javascript packages/backend/src/webhooks.ts"],
});
