// Twitter / X Account Activity API: `X-Twitter-Webhooks-Signature: sha256=<base64>`, HMAC-SHA256 of
// the raw body under the app's consumer secret; no timestamp (the GET `crc_token` check answers
// `sha256=` + the same HMAC of the token, which ngrok answers for the endpoint). Source: the Account
// Activity API's "Securing webhooks" guide (developer.twitter.com/en/docs/twitter-api/enterprise/
// account-activity-api); header, prefix and encoding as the receivers read implement them (inferred:
// the guide's own text was not in the store).
import { bodyHmacScheme } from "../hmac-schemes.js";

export const scheme = bodyHmacScheme({
  provider: "twitter",
  name: "Twitter",
  header: "X-Twitter-Webhooks-Signature",
  algorithm: "sha256",
  encoding: "base64",
  prefix: "sha256=",
  sources: ["https://developer.twitter.com/en/docs/twitter-api/enterprise/account-activity-api (Securing webhooks)"],
});
