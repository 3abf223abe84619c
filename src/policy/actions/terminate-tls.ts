// terminate-tls (traffic-policy/actions/terminate-tls.mdx).
import * as z from "zod/mini";
import type { ActionSpec } from "../actions.js";
import { literal, pick, str } from "./fields.js";

const version = () => z.optional(z.enum(["1.2", "1.3"])); // :24-30 "Must be one of 1.2 or 1.3"

/** :40-42 a PEM-encoded CA certificate or a Certificate Authority id (ca_…). */
const authority = () =>
  literal((v) =>
    /^\s*-----BEGIN /.test(v) || /^ca_[A-Za-z0-9]{1,64}$/.test(v)
      ? undefined
      : "must be a PEM certificate (-----BEGIN CERTIFICATE-----…) or a Certificate Authority id (ca_…)",
  );

export const spec: ActionSpec = {
  phases: ["on_tcp_connect"], // :54-56
  protocols: ["https", "tls"], // :58-61
  schema: () =>
    z
      .strictObject({
        min_version: version(),
        max_version: version(),
        server_private_key: z.optional(str()), // :32-34
        server_certificate: z.optional(str()), // :36-38
        // snippets/examples/agent-cli/tls-mtls-at-edge.mdx:9-13 gives one PEM text, not a list: taken.
        mutual_tls_certificate_authorities: z.optional(
          pick((v) => (Array.isArray(v) ? z.array(authority()) : authority())),
        ),
        // :44-52 default require-and-verify.
        mutual_tls_verification_strategy: z.optional(z.enum(["require-and-verify", "require-any", "request"])),
      })
      .check(
        // :33, :37 each "must be specified with" the other.
        z.check((ctx) => {
          const key = ctx.value.server_private_key !== undefined;
          const cert = ctx.value.server_certificate !== undefined;
          if (key !== cert)
            ctx.issues.push({
              code: "custom",
              message: `server_private_key and server_certificate go together: give ${key ? "server_certificate" : "server_private_key"} too`,
              input: ctx.value,
              path: [key ? "server_certificate" : "server_private_key"],
            });
        }),
      ),
  unlisted: (config) =>
    typeof config.mutual_tls_certificate_authorities === "string"
      ? [
          {
            path: ["mutual_tls_certificate_authorities"],
            message: "one text, not a list: terminate-tls.mdx:40 gives a list of certificates or CA ids",
          },
        ]
      : [],
  celFields: ["server_private_key", "server_certificate", "mutual_tls_certificate_authorities[]"], // :32-40 cel={true}
};
