// The webhook verification module of an HTTPS edge route.
import * as z from "zod/mini";
import type { ApiClient } from "./client.js";
import { schemaParser } from "./schema.js";

export const WebhookVerification = z.looseObject({
  enabled: z.boolean(),
  provider: z.string(),
  secret: z.optional(z.nullable(z.string())),
});
export type WebhookVerification = z.infer<typeof WebhookVerification>;

export interface WebhookVerificationReplace {
  enabled: boolean;
  provider: string;
  secret?: string;
}

const parseModule = schemaParser(WebhookVerification);

export const webhookVerificationPath = (edgeId: string, routeId: string) =>
  `/edges/https/${encodeURIComponent(edgeId)}/routes/${encodeURIComponent(routeId)}/webhook_verification`;

export function replaceWebhookVerification(
  client: ApiClient,
  edgeId: string,
  routeId: string,
  body: WebhookVerificationReplace,
): Promise<WebhookVerification> {
  return client.requestJson("PUT", webhookVerificationPath(edgeId, routeId), parseModule, { body });
}

export function getWebhookVerification(
  client: ApiClient,
  edgeId: string,
  routeId: string,
): Promise<WebhookVerification> {
  return client.requestJson("GET", webhookVerificationPath(edgeId, routeId), parseModule);
}

export async function deleteWebhookVerification(client: ApiClient, edgeId: string, routeId: string): Promise<void> {
  await client.request("DELETE", webhookVerificationPath(edgeId, routeId));
}
