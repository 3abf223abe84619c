// Which keys `config set` accepts, and the same checks a flag or env value gets.
import { UsageError } from "../../errors.js";
import { CONFIG_KEYS, type ConfigKey } from "../../settings/config-file.js";
import { parseApiKey, parseBaseUrl, parseOutput, parseRetries, parseTimeout } from "../../settings/resolve.js";
import { maskKey } from "../auth/mask.js";

export function parseKey(key: string): ConfigKey {
  if ((CONFIG_KEYS as readonly string[]).includes(key)) return key as ConfigKey;
  throw new UsageError(`<key>: "${key}" is not a setting; use one of ${CONFIG_KEYS.join(", ")}`);
}

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
