// Webhook secrets and OAuth/OIDC client secrets are shown as ******** in every format unless
// --show-secret is given. Only they are masked in data: every other value is printed as the API sent it.
import { MASK, maskSecretFields } from "../api/redact.js";

export function maskSecret<T extends { secret?: string | null }>(module: T, show: boolean): T {
  if (show || module.secret === undefined || module.secret === null || module.secret === "") return module;
  return { ...module, secret: MASK };
}

/**
 * Any JSON value from the API with its webhook secrets masked: every non-empty `secret` field,
 * and the secrets inside a `traffic_policy` text (a verify-webhook action's config), whether
 * the policy is JSON or YAML. Keys keep their order.
 */
export async function maskSecretsIn(value: unknown): Promise<unknown> {
  if (Array.isArray(value)) return Promise.all(value.map(maskSecretsIn));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    let masked: unknown;
    if ((key === "secret" || key === "client_secret") && typeof v === "string" && v !== "") masked = MASK;
    else if (key === "traffic_policy" && typeof v === "string") masked = await maskPolicyText(v);
    // An edge's or route's traffic_policy module: {enabled, value: "<policy text>"}.
    else if (key === "traffic_policy" && isPolicyModule(v))
      masked = { ...((await maskSecretsIn(v)) as object), value: await maskPolicyText(v.value) };
    else masked = await maskSecretsIn(v);
    // defineProperty: a "__proto__" key from JSON.parse stays a plain key.
    Object.defineProperty(out, key, { value: masked, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function isPolicyModule(v: unknown): v is { value: string } {
  return typeof v === "object" && v !== null && typeof (v as { value?: unknown }).value === "string";
}

/** A Traffic Policy text (JSON or YAML) with its secrets masked, its layout kept. */
export async function maskPolicyText(text: string): Promise<string> {
  try {
    JSON.parse(text);
    return maskSecretFields(text);
  } catch {
    const { maskYamlSecrets } = await import("./yaml-text.js");
    // Not YAML either: mask any `secret:` line rather than risk showing one.
    return (
      maskYamlSecrets(text, MASK) ??
      text.replace(/^(\s*(?:-\s+)?["']?(?:client_)?secret["']?\s*:\s*)\S.*$/gm, `$1"${MASK}"`)
    );
  }
}
