// Webex: `X-Spark-Signature: <hex>`, HMAC-SHA1 of the raw body under the webhook's secret; no
// timestamp. Source: developer.webex.com/docs/webhooks ("Handling Requests from Webex": the secret,
// X-Spark-Signature), as Cisco's DevNet sample ("X-Spark-Signature - the header containing the sha1
// hash") and the receivers read compute it.
import { bodyHmacScheme } from "../hmac-schemes.js";

export const scheme = bodyHmacScheme({
  provider: "webex",
  name: "Webex",
  header: "X-Spark-Signature",
  algorithm: "sha1",
  encoding: "hex",
  sources: ["https://developer.webex.com/docs/webhooks (Handling Requests from Webex)"],
});
