// jwt-validation (traffic-policy/actions/jwt-validation.mdx).
import * as z from "zod/mini";
import type { ActionSpec } from "../actions.js";
import { httpUrl, list, nonEmpty, oneOrList, str } from "./fields.js";

const allowList = () => list(z.strictObject({ value: nonEmpty() }), "entries", 1);

export const spec: ActionSpec = {
  phases: ["on_http_request"], // :31
  schema: () =>
    z.strictObject({
      issuer: z.strictObject({ allow_list: allowList() }), // :39-53 required, minimum 1
      // :55-69: the list and its values are not required (required={false}), minimum 1 when given.
      audience: z.optional(
        z.strictObject({
          allow_list: z.optional(list(z.strictObject({ value: z.optional(nonEmpty()) }), "entries", 1)),
        }),
      ),
      http: z.strictObject({
        // :71-117 required; tokens minimum 1.
        tokens: list(
          z.strictObject({
            type: z.enum(["id_token", "access_token", "at+jwt", "it+jwt", "plain", "jwt"]), // :79-90
            method: z.enum(["header", "body"]), // :92-105
            name: nonEmpty(), // :107-109
            prefix: z.optional(str()), // :111-113
          }),
          "tokens",
          1,
        ),
      }),
      jws: z.strictObject({
        // :123-125 minimum 1; "The value none is not supported here because it is insecure".
        allowed_algorithms: list(
          str().check(z.refine((v) => v.toLowerCase() !== "none", "none is not allowed: it is insecure")),
          "algorithms",
          1,
        ),
        // :127-151 calls keys and sources "array of objects", yet every example of ngrok's
        // (jwt-validation.mdx's Basic example, snippets/traffic-policy/actions/jwt-validation/
        // examples/basic-example.mdx:33-36, traffic-policy/examples/add-authentication.mdx:285)
        // writes each as a single object: both are taken.
        keys: oneOrList(
          z.strictObject({
            // :131-139; "Supported values: ['kid']".
            identification: z.optional(
              oneOrList(z.strictObject({ token_claims: z.optional(z.array(z.literal("kid"))) })),
            ),
            // :141-149 required; additional_jkus required, URLs of JWKS.
            sources: oneOrList(z.strictObject({ additional_jkus: z.array(httpUrl()) })),
          }),
        ),
      }),
    }),
  // :47, :107, :111, :145 cel={true}.
  celFields: [
    "issuer.allow_list[].value",
    "http.tokens[].name",
    "http.tokens[].prefix",
    "jws.keys[].sources[].additional_jkus[]",
  ],
  authentication: true, // traffic-policy/examples/add-authentication.mdx:22
};
