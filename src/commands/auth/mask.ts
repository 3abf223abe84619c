// The key is never printed; status shows only its last four characters, as gh does for tokens.
import { MASK } from "../../secrets/index.js";

export function maskKey(key: string): string {
  return key.length > 12 ? `${MASK}${key.slice(-4)}` : MASK;
}
