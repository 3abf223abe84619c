// Secrets (the API key, webhook secrets) never reach logs or messages: every debug line and
// error message passes through redactText. Data printed on stdout is not redacted (a key such
// as "anything" would alter values the API sent); only webhook secrets are masked there.

export const MASK = "********";

export function redactText(text: string, secrets: (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret) continue;
    for (const form of encodedForms(secret)) {
      // A very short value is masked only where it stands alone, or every word holding its
      // letters would be; a long one wherever it appears.
      out =
        secret.length < 4
          ? out.replace(new RegExp(`(?<![A-Za-z0-9_-])${escapeRegExp(form)}(?![A-Za-z0-9_-])`, "g"), MASK)
          : out.split(form).join(MASK);
    }
  }
  return maskSecretFields(out);
}

/**
 * A JSON "secret" field (a webhook secret) or "client_secret" (OAuth, OIDC) is masked even when its value is not known in
 * advance; an empty one (sns) stays empty, so it does not read as a secret that is set.
 */
export function maskSecretFields(text: string): string {
  return text.replace(/("(?:client_)?secret"\s*:\s*)"(?:[^"\\]|\\.)+"/g, `$1"${MASK}"`);
}

/**
 * The value as given, and as it reads inside a JSON string when a server echoes it back:
 * `"` and `\` escaped, and optionally `/` escaped, `&<>` escaped as Go's encoding/json
 * does, or everything outside ASCII escaped (\u00e9 or \u00E9).
 */
function encodedForms(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1);
  const forms = new Set<string>([value, json]);
  const u = (ch: string, upper: boolean) => {
    const hex = ch.charCodeAt(0).toString(16).padStart(4, "0");
    return `\\u${upper ? hex.toUpperCase() : hex}`;
  };
  for (const slash of [false, true]) {
    for (const html of [false, true]) {
      for (const ascii of [false, true]) {
        for (const upper of ascii ? [false, true] : [false]) {
          let form = json;
          if (html) form = form.replace(/[&<>\u2028\u2029]/g, (ch) => u(ch, upper));
          if (ascii) form = form.replace(/[^\x00-\x7f]/g, (ch) => u(ch, upper));
          if (slash) form = form.replace(/\//g, "\\/");
          forms.add(form);
        }
      }
    }
  }
  // Longest first, so a form that contains another is replaced whole.
  return [...forms].sort((a, b) => b.length - a.length);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
