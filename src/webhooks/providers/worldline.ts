// Worldline (Connect / Global Collect): `X-GCS-Signature: <base64>`, HMAC-SHA256 of the raw body
// under the secret of the key named by `X-GCS-KeyId`; no timestamp. `--id` sets the key id.
// Sources: Worldline-Global-Collect/connect-sdk-nodejs src/webhooks/validation.ts @acea45e (validate:
// both headers required, createHmac("sha256", secretKey).update(body).digest("base64")), the
// official Connect SDK for Node.js.
import { bodyHmacScheme } from "../hmac-schemes.js";

export const scheme = bodyHmacScheme({
  provider: "worldline",
  name: "Worldline",
  header: "X-GCS-Signature",
  algorithm: "sha256",
  encoding: "base64",
  extraHeaders: { "X-GCS-KeyId": (input) => input.id ?? "edgectl" },
  sources: ["Worldline-Global-Collect/connect-sdk-nodejs src/webhooks/validation.ts"],
});
