// Pusher Channels: `X-Pusher-Signature: <hex>`, HMAC-SHA256 of the raw body under the app secret, with
// the app key in `X-Pusher-Key` (`--id` sets it); no timestamp. Source: pusher/pusher-http-node
// lib/webhook.js and lib/token.js @7492d8d (WebHook.isValid: `this.key == token.key &&
// token.verify(this.body, this.signature)`; Token.sign: createHmac("sha256", secret) … digest("hex")).
import { bodyHmacScheme } from "../hmac-schemes.js";

export const scheme = bodyHmacScheme({
  provider: "pusher",
  name: "Pusher",
  header: "X-Pusher-Signature",
  algorithm: "sha256",
  encoding: "hex",
  extraHeaders: { "X-Pusher-Key": (input) => input.id ?? "edgectl" },
  sources: ["pusher/pusher-http-node lib/webhook.js, lib/token.js"],
});
