// The webhook schemes `policy test` signs (--sign, a case's sign) and verify-webhook verifies
// with, in `policy test`, `migrate edge --verify` and the emulator's traffic port (`edgectl
// emulator` hands them to it): src/webhooks' table (`schemeFor`, contract "Webhook
// signatures"), loaded only when a command needs it.
//
// MERGE POINT (the only one): until src/webhooks/index.ts is on this branch there is no table,
// so a provider is "cannot sign" (exit 2) and verify-webhook's outcome "unknown". With it, the
// body of loadSchemes() becomes
//   return (await import("../../webhooks/index.js")).schemeFor;
import type { Scheme } from "../../webhooks/scheme.js";

export type SchemeLookup = (provider: string) => Scheme | undefined;

export async function loadSchemes(): Promise<SchemeLookup> {
  return () => undefined;
}
