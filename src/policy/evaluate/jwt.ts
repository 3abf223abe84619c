// A JWT checked against JSON Web Keys with node:crypto (RFC 7515 JWS compact form, RFC 7517
// JWK, RFC 7518 algorithms): jwt-validation allows a request "only if it has been correctly
// signed by the issuer and the defined claims match"; the issuer "must exactly match" `iss`,
// and `aud` "must contain at least one of the specified audience claims"
// (snippets/traffic-policy/actions/jwt-validation/behavior.mdx).
import { constants, createPublicKey, verify, type JsonWebKey } from "node:crypto";

const ALGORITHMS: Record<string, { hash: string; kty: string; dsa?: true; pss?: true }> = {
  RS256: { hash: "sha256", kty: "RSA" },
  RS384: { hash: "sha384", kty: "RSA" },
  RS512: { hash: "sha512", kty: "RSA" },
  PS256: { hash: "sha256", kty: "RSA", pss: true },
  PS384: { hash: "sha384", kty: "RSA", pss: true },
  PS512: { hash: "sha512", kty: "RSA", pss: true },
  ES256: { hash: "sha256", kty: "EC", dsa: true },
  ES384: { hash: "sha384", kty: "EC", dsa: true },
  ES512: { hash: "sha512", kty: "EC", dsa: true },
};

export interface Decoded {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  signature: string;
}

export type JwtVerdict = { ok: true; token: Decoded } | { ok: false; why: string; token?: Decoded; unknown?: true };

const part = (text: string): Record<string, unknown> | undefined => {
  try {
    const v = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as unknown;
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

export function checkJwt(
  text: string,
  keys: readonly JsonWebKey[],
  rules: { algorithms: readonly string[]; issuers: readonly string[]; audiences: readonly string[]; now: number },
): JwtVerdict {
  const pieces = text.split(".");
  if (pieces.length !== 3) return { ok: false, why: "not a JWS in compact form (three parts)" };
  const header = part(pieces[0]!);
  const payload = part(pieces[1]!);
  if (!header || !payload) return { ok: false, why: "its header or payload is not base64url JSON" };
  const token: Decoded = { header, payload, signature: pieces[2]! };
  const alg = String(header.alg);
  if (!rules.algorithms.includes(alg)) return { ok: false, why: `algorithm ${alg} is not allowed`, token };
  const spec = ALGORITHMS[alg];
  if (!spec) return { ok: false, why: `algorithm ${alg} is not worked out by edgectl`, token, unknown: true };
  const candidates = keys.filter(
    (k) => k.kty === spec.kty && (header.kid === undefined || k.kid === undefined || k.kid === header.kid),
  );
  if (candidates.length === 0)
    return { ok: false, why: `no ${spec.kty} key${header.kid ? ` with kid ${String(header.kid)}` : ""}`, token };
  const signed = Buffer.from(`${pieces[0]}.${pieces[1]}`);
  const signature = Buffer.from(pieces[2]!, "base64url");
  const good = candidates.some((jwk) => {
    try {
      const key = createPublicKey({ key: jwk, format: "jwk" });
      return verify(
        spec.hash,
        signed,
        spec.dsa
          ? { key, dsaEncoding: "ieee-p1363" }
          : spec.pss
            ? {
                key,
                padding: constants.RSA_PKCS1_PSS_PADDING,
                saltLength: { sha256: 32, sha384: 48, sha512: 64 }[spec.hash],
              }
            : key,
        signature,
      );
    } catch {
      return false;
    }
  });
  if (!good) return { ok: false, why: "the signature does not verify with the keys given", token };
  if (!rules.issuers.includes(String(payload.iss)))
    return { ok: false, why: `issuer ${JSON.stringify(payload.iss)} is not in the allow list`, token };
  if (rules.audiences.length > 0) {
    const aud = Array.isArray(payload.aud)
      ? payload.aud.map(String)
      : payload.aud === undefined
        ? []
        : [String(payload.aud)];
    if (!aud.some((a) => rules.audiences.includes(a))) return { ok: false, why: "no allowed audience in aud", token };
  }
  // RFC 7519 §4.1.4/§4.1.5: exp and nbf (seconds).
  if (typeof payload.exp === "number" && rules.now >= payload.exp)
    return { ok: false, why: "the token has expired (exp)", token };
  if (typeof payload.nbf === "number" && rules.now < payload.nbf)
    return { ok: false, why: "the token is not valid yet (nbf)", token };
  return { ok: true, token };
}
