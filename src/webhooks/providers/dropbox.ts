// Dropbox: `X-Dropbox-Signature: <hex>`, HMAC-SHA256 of the raw body under the app secret; no
// timestamp (the GET `challenge` that enables the webhook is echoed, not signed). Source:
// dropbox.com/developers/reference/webhooks ("Receiving notifications": X-Dropbox-Signature).
import { bodyHmacScheme } from "../hmac-schemes.js";

export const scheme = bodyHmacScheme({
  provider: "dropbox",
  name: "Dropbox",
  header: "X-Dropbox-Signature",
  algorithm: "sha256",
  encoding: "hex",
  sources: ["https://www.dropbox.com/developers/reference/webhooks (X-Dropbox-Signature)"],
});
