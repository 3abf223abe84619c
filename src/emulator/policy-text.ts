// The bound on a Traffic Policy the emulator checks, so that one request's policy never holds
// up other clients: every check runs on the one event loop, and its cost grows with the text.
// ngrok bounds a policy's size too: ERR_NGROK_2264, "Policy configuration has exceeded its rule
// per policy limit of LIMIT" (its errors reference; the limit depends on the plan and is not
// published, 5 on the free plan). The emulator takes POLICY_MAX_RULES rules (all phases
// together), and, before parsing anything, at most POLICY_MAX_BYTES bytes of text: far above
// any policy written by hand or made by `migrate`, and checked in a few milliseconds.
import { utf8Length } from "../api-data/ids.js";
import { ENDPOINT_PHASES } from "../policy/actions.js";
import { parsePolicyText, type Parsed } from "../policy/parse.js";
import { HttpError, invalid } from "./http.js";

export const POLICY_MAX_BYTES = 64 * 1024;
export const POLICY_MAX_RULES = 1000;

/**
 * Parses a policy text (JSON, else YAML) once it is within the bounds; `field` names it in the
 * refusal. Other clients' requests that are ready are answered first.
 */
export async function parseBoundedPolicy(text: string, field: string): Promise<Parsed> {
  const bytes = utf8Length(text);
  if (bytes > POLICY_MAX_BYTES)
    throw invalid(`${field} is ${bytes} bytes: the emulator checks a policy of at most ${POLICY_MAX_BYTES} bytes`);
  await new Promise((resolve) => setImmediate(resolve));
  const parsed = await parsePolicyText(text);
  if (parsed.ok) {
    const doc = parsed.document;
    let rules = 0;
    if (typeof doc === "object" && doc !== null && !Array.isArray(doc))
      for (const phase of ENDPOINT_PHASES) {
        const list = (doc as Record<string, unknown>)[phase];
        if (Array.isArray(list)) rules += list.length;
      }
    if (rules > POLICY_MAX_RULES)
      throw new HttpError(
        400,
        "ERR_NGROK_2264",
        `Policy configuration has exceeded its rule per policy limit of ${POLICY_MAX_RULES} (${field} has ${rules} rules).`,
      );
  }
  return parsed;
}
