// Internal URLs: what a backend is forwarded to once its edge is gone.
import { UsageError } from "../errors.js";
import { escapeControl } from "../output/escape.js";

/**
 * The internal URL of a tunnel group: its labels as key-value joined by `-` in key order,
 * lower case, every character but a-z, 0-9 and `-` made `-` (service=app → service-app.internal).
 */
export function tunnelGroupUrl(labels: Record<string, string>): string | undefined {
  const keys = Object.keys(labels).sort();
  if (keys.length === 0) return undefined;
  const host = keys
    .map((k) => `${k}-${labels[k]}`)
    .join("-")
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, "-");
  return `https://${host}.internal`;
}

/** Whether `url` is an https URL whose host ends in .internal (what forward-internal takes). */
export function isInternalUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return (
    parsed.protocol === "https:" &&
    /^[a-z0-9-]+(\.[a-z0-9-]+)*\.internal$/.test(parsed.hostname) &&
    !parsed.username &&
    !parsed.password
  );
}

/** `--map <backend-id>=<url>` values as a map; any bad one is a UsageError (nothing sent yet). */
export function parseMaps(values: string[]): Map<string, string> {
  const maps = new Map<string, string>();
  for (const value of values) {
    const eq = value.indexOf("=");
    const id = eq < 0 ? "" : value.slice(0, eq);
    const url = eq < 0 ? "" : value.slice(eq + 1);
    if (!/^bkd[a-z]{2}_[A-Za-z0-9]{1,64}$/.test(id) || !url) {
      throw new UsageError(
        `--map: "${escapeControl(value)}" must be <backend-id>=<url>, e.g. bkdwd_123=https://api.internal`,
      );
    }
    if (!isInternalUrl(url))
      throw new UsageError(
        `--map: "${escapeControl(url)}" must be an https:// URL whose host ends in .internal (e.g. https://api.internal)`,
      );
    const earlier = maps.get(id);
    if (earlier !== undefined && earlier !== url)
      throw new UsageError(`--map: ${id} is mapped twice (${escapeControl(earlier)} and ${escapeControl(url)})`);
    maps.set(id, url);
  }
  return maps;
}
