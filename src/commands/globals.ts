// The root's options, declared once: src/commands/root.ts gives them to commander (and skips
// them to find the command words), and src/settings/resolve.ts takes what they hold (GlobalFlags).
// `complete` says what completes an option's value in the shells (src/commands/completion).
import { OUTPUT_FORMATS, outputFormatList } from "../settings/resolve.js";
import type { Completion } from "./define.js";

/** commander's version option. */
export const VERSION_FLAG = "-v, --version";

export const GLOBAL_OPTIONS: readonly { flag: string; help: string; complete?: Completion }[] = [
  { flag: "--api-key <key>", help: "API key (visible in process lists: prefer EDGECTL_API_KEY or `auth login`)" },
  { flag: "--base-url <url>", help: "API base URL (default https://api.ngrok.com)" },
  { flag: "--profile <name>", help: 'config profile (default "default")' },
  { flag: "-o, --output <format>", help: `output format: ${outputFormatList()}`, complete: OUTPUT_FORMATS },
  { flag: "--json", help: "same as --output json" },
  { flag: "--timeout <seconds>", help: "time limit for the whole request, retries included (default 30)" },
  { flag: "--retries <n>", help: "retries for failed idempotent requests (default 3)" },
  { flag: "--debug", help: "log each request and response to stderr (secrets redacted)" },
  { flag: "--no-color", help: "never use color" },
];
