// Webhook secrets are shown as ******** in every format unless --show-secret is given.
import { MASK } from "../api/redact.js";

export function maskSecret<T extends { secret?: string | null }>(module: T, show: boolean): T {
  if (show || module.secret === undefined || module.secret === null || module.secret === "") return module;
  return { ...module, secret: MASK };
}
