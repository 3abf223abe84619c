// Regular expressions in action configs are RE2 (url-rewrite and redirect `from`, the
// find-replace actions' `from`: "Supports RE2 syntax", traffic-policy/actions/
// request-body-find-replace.mdx:36), so they are compiled by RE2's own rules with
// @bufbuild/re2, the engine @bufbuild/cel uses for `matches()` (its env.js: `re2.compile(pattern)`):
// lookarounds and backreferences, which JavaScript takes, are refused as ngrok refuses them.
import { RE2JS } from "@bufbuild/re2";

/** Why RE2 refuses `pattern` (undefined: it compiles), in RE2's words. */
export function re2Problem(pattern: string): string | undefined {
  try {
    RE2JS.compile(pattern);
    return undefined;
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return `not an RE2 regular expression: ${message.replace(/^error parsing regexp: /, "")}`;
  }
}
