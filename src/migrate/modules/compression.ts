// compression → compress-response, in the route's response rule (the module has no fields).
import { translation, type Translation } from "./translator.js";

export function translateCompression(): Translation {
  const out = translation();
  out.response.push({ type: "compress-response" });
  return out;
}
