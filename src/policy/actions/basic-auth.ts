// basic-auth (traffic-policy/actions/basic-auth.mdx).
import * as z from "zod/mini";
import type { ActionSpec } from "../actions.js";
import { bool, count, len, literal, pick, str } from "./fields.js";

/** The text of `credential` outside its `${…}` interpolations (braces counted, quotes skipped). */
function literalParts(credential: string): string[] {
  const parts: string[] = [];
  let text = "";
  for (let i = 0; i < credential.length; i++) {
    if (!credential.startsWith("${", i)) {
      text += credential[i];
      continue;
    }
    parts.push(text);
    text = "";
    let depth = 0;
    let quote: string | undefined;
    for (i += 2; i < credential.length; i++) {
      const c = credential[i]!;
      if (quote) {
        if (c === "\\") i++;
        else if (c === quote) quote = undefined;
      } else if (c === '"' || c === "'") quote = c;
      else if (c === "{") depth++;
      else if (c === "}" && depth-- === 0) break;
    }
  }
  parts.push(text);
  return parts;
}

const passwordLength = (n: number) => `the password must be 8 to 128 characters (got ${n})`;

/**
 * Why a credential is not one ngrok takes. :29 `username:password` pairs; :30 and :54-55 a
 * password of 8 to 128 characters; :55-56 the first colon separates them. With CEL (:71-89):
 * one interpolation may be the whole credential; otherwise the `:` must be written literally.
 */
export function credentialProblem(credential: string): string | undefined {
  if (credential.includes("${")) {
    const parts = literalParts(credential);
    const whole = parts.length === 2 && parts[0] === "" && parts[1] === "";
    return whole || parts.some((p) => p.includes(":"))
      ? undefined
      : "a credential with ${…} must still write the : between username and password, unless one ${…} is the whole credential";
  }
  const colon = credential.indexOf(":");
  if (colon < 0) return "must be username:password";
  const password = credential.length - colon - 1;
  if (password < 8 || password > 128) return passwordLength(password);
  return undefined;
}

export const spec: ActionSpec = {
  phases: ["on_http_request"], // :20
  schema: () =>
    z.strictObject({
      // :28-31 required, up to 10 pairs (at least one: a required list of allowed credentials).
      // traffic-policy/examples/add-authentication.mdx:35-45 writes each pair as an object
      // `{username, password}` where the reference says strings: both are taken.
      credentials: z
        .array(
          pick((v) =>
            typeof v === "object" && v !== null && !Array.isArray(v)
              ? z.strictObject({
                  username: str(),
                  password: literal((p) => (p.length < 8 || p.length > 128 ? passwordLength(p.length) : undefined)),
                })
              : z.string().check(
                  z.check((ctx) => {
                    const why = credentialProblem(ctx.value);
                    if (why) ctx.issues.push({ code: "custom", message: why, input: ctx.value });
                  }),
                ),
          ),
        )
        .check(count("credentials", 1, 10, len)),
      // :33 default "ngrok"; :57 at most 128 characters, ASCII only.
      realm: z.optional(
        str().check(
          z.maxLength(128, "must be at most 128 characters"),
          z.refine((v) => /^[\x00-\x7f]*$/.test(v), "must be ASCII"),
        ),
      ),
      enforce: z.optional(bool()), // :37
    }),
  celFields: ["credentials[]", "credentials[].*"], // :28 cel={true}; the object form's username and password
  authentication: true, // traffic-policy/examples/add-authentication.mdx:19
};
