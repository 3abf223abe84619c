// How a webhook verification module looks in a table (the secret already masked).
import type { WebhookVerification } from "../../api/webhook-verification.js";
import { renderRecord, type TableStyle } from "../../output/table.js";

export function moduleRecord(module: WebhookVerification, style: boolean | TableStyle): string {
  return renderRecord(
    [
      ["ENABLED", String(module.enabled)],
      ["PROVIDER", module.provider],
      ["SECRET", module.secret ?? ""],
    ],
    style,
  );
}
