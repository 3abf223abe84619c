// The webhook schemes `policy test` signs (--sign, a case's sign) and verify-webhook verifies
// with, in `policy test`, `migrate edge --verify` and the emulator's traffic port (`edgectl
// emulator` hands them to it): src/webhooks' table (`schemeFor`, contract "Webhook
// signatures"), loaded only when a command needs it.
import type { Delivery, Scheme, SignInput } from "../../webhooks/scheme.js";

export type SchemeLookup = (provider: string) => Scheme | undefined;

export async function loadSchemes(): Promise<SchemeLookup> {
  return (await import("../../webhooks/index.js")).schemeFor;
}

/** src/webhooks' `signDelivery`: the whole delivery a scheme makes (Twilio JSON signs a URL with bodySHA256, SNS signs inside the body). */
export async function loadSigner(): Promise<(scheme: Scheme, input: SignInput) => Delivery> {
  return (await import("../../webhooks/index.js")).signDelivery;
}
