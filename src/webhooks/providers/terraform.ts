// HCP Terraform / Terraform Enterprise notifications: `X-TFE-Notification-Signature: <hex>`,
// HMAC-SHA512 of the raw body under the notification configuration's token; no timestamp. Source:
// developer.hashicorp.com/terraform/cloud-docs/api-docs/notification-configurations ("Notification
// Authenticity": "an HMAC signature on all generic notification requests, using the token as the
// key … X-TFE-Notification-Signature … SHA-512"; the Ruby sample's OpenSSL::HMAC.hexdigest).
import { bodyHmacScheme } from "../hmac-schemes.js";

export const scheme = bodyHmacScheme({
  provider: "terraform",
  name: "Terraform",
  header: "X-TFE-Notification-Signature",
  algorithm: "sha512",
  encoding: "hex",
  sources: [
    "https://developer.hashicorp.com/terraform/cloud-docs/api-docs/notification-configurations#notification-authenticity",
  ],
});
