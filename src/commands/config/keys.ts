// Which keys `config set` accepts, and the same checks a flag or env value gets.
import * as z from "zod/mini";
import { UsageError } from "../../errors.js";
import { CONFIG_KEYS, type ConfigKey } from "../../settings/config-file.js";
import { parseApiKey, parseBaseUrl, parseOutput, parseRetries, parseTimeout } from "../../settings/resolve.js";
import { maskKey } from "../auth/mask.js";

export const keySchema = () =>
  z.pipe(
    z
      .string()
      .check(
        z.refine(
          (key) => (CONFIG_KEYS as readonly string[]).includes(key),
          `is not a setting; use one of ${CONFIG_KEYS.join(", ")}`,
        ),
      ),
    z.transform((key) => key as ConfigKey),
  );

/** Validates a value and returns what to store. */
export function checkValue(key: ConfigKey, value: string): string {
  const source = `<value> for ${key}`;
  switch (key) {
    case "base_url":
      return parseBaseUrl(value, source);
    case "output":
      return parseOutput(value, source);
    case "timeout":
      parseTimeout(value, source);
      return value.trim();
    case "retries":
      parseRetries(value, source);
      return value.trim();
    case "api_key":
      if (!value.trim()) throw new UsageError(`${source}: must be a non-empty key`);
      return parseApiKey(value, source);
  }
}

export function shownValue(key: ConfigKey, value: string): string {
  return key === "api_key" ? maskKey(value) : value;
}
