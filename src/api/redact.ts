// Secrets (the API key, webhook secrets) never reach any output: every debug line and
// error message passes through here.

export const MASK = "********";

export function redactText(text: string, secrets: (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    // Very short values would redact ordinary words; the API rejects such keys anyway.
    if (secret && secret.length >= 4) out = out.split(secret).join(MASK);
  }
  // A JSON "secret" field is masked even when its value is not known in advance.
  return out.replace(/("secret"\s*:\s*)"(?:[^"\\]|\\.)*"/g, `$1"${MASK}"`);
}
