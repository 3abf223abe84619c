// The webhook schemes `policy test` signs (--sign, a case's sign) and verify-webhook verifies
// with: src/webhooks' table (`schemeFor`, contract "Webhook signatures"), loaded only when a
// command needs it. Until that table is on this branch there is none: a provider is then
// "cannot sign" (exit 2) and verify-webhook's outcome "unknown".
import type { Scheme } from "../../webhooks/scheme.js";

export type SchemeLookup = (provider: string) => Scheme | undefined;

export async function loadSchemes(): Promise<SchemeLookup> {
  return () => undefined;
}
