// GitLab: the webhook's "Secret token" is sent as it is, in X-Gitlab-Token; nothing is signed
// and there is no timestamp, so the header is the secret and is masked when printed.
// https://docs.gitlab.com/user/project/integrations/webhooks/ ("Secret token"; the header is
// documented since gitlab-org/gitlab-foss!5664); GitLab's own code gitlabhq/gitlabhq
// app/services/web_hook_service.rb build_headers: `headers['X-Gitlab-Token'] =
// Gitlab::Utils.remove_line_breaks(hook.token)` — line breaks of the token are not sent.
// GitLab's HMAC "signing token" (Standard Webhooks headers, gitlab-org/gitlab!230944) is
// behind a feature flag and not this scheme.
import { fail, foreignKind, header, missingHeader, needSecret, safeEqual, VERIFIED } from "../check.js";
import type { Scheme } from "../scheme.js";
import { SignError } from "../scheme.js";

const TOKEN = "X-Gitlab-Token";
/** The token as GitLab sends it (Gitlab::Utils.remove_line_breaks). */
const sent = (token: string) => token.replace(/\r?\n/g, "");

export const scheme: Scheme = {
  provider: "gitlab",
  name: "GitLab",
  headers: [TOKEN],
  key: "secret",
  secretHeaders: [TOKEN],
  sources: [
    "https://docs.gitlab.com/user/project/integrations/webhooks/#validate-payloads-by-using-a-secret-token",
    "gitlabhq/gitlabhq app/services/web_hook_service.rb (build_headers)",
  ],
  sign(input) {
    if (!input.secret) throw new SignError("GitLab sends the webhook's Secret token: give one");
    return { [TOKEN]: sent(input.secret) };
  },
  verify(input) {
    const given = header(input.request, TOKEN);
    if (given === undefined) return missingHeader(TOKEN, "GitLab sends it when the webhook has a Secret token");
    const missing = needSecret(input, "GitLab sends the webhook's Secret token");
    if (missing) return missing;
    const secret = input.secret!;
    if (safeEqual(given, sent(secret))) return VERIFIED;
    const kind = foreignKind(secret.trim());
    if (kind)
      return fail(
        "secret-kind",
        `${TOKEN} differs, and the secret given looks like ${kind}: GitLab sends the webhook's Secret token`,
      );
    const space = secret !== secret.trim() || given !== given.trim() ? " (one has leading or trailing whitespace)" : "";
    return fail(
      "signature",
      `${TOKEN} is not the Secret token given${space}: GitLab sends the token as it is, so another token was set on the webhook`,
    );
  },
};
