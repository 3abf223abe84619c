// A Traffic Policy text (JSON or YAML) parsed into a document for the validator.
// PLACEHOLDER until the validator lands (issue 18).
import type { Problem } from "./index.js";

export type Parsed = { ok: true; document: unknown } | { ok: false; problems: Problem[] };

export async function parsePolicyText(text: string): Promise<Parsed> {
  try {
    return { ok: true, document: JSON.parse(text) as unknown };
  } catch {
    const { parse } = await import("yaml");
    try {
      return { ok: true, document: parse(text) as unknown };
    } catch (e) {
      return {
        ok: false,
        problems: [{ path: "", message: `not JSON or YAML: ${(e as Error).message}`, code: "ERR_NGROK_2201" }],
      };
    }
  }
}
