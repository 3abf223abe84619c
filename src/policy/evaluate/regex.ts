// RE2 patterns (ngrok's Go engine) run as JavaScript RegExps, and Go's replacement templates
// (regexp.Expand: `$1`, `${1}`, `$name`, `${name}`, `$$`): url-rewrite and redirect replace the
// matches of `from` in the URL by `to` (snippets/traffic-policy/actions/url-rewrite/behavior.mdx,
// redirect/behavior.mdx; their examples use `$1`). A pattern this translation cannot carry over
// exactly is refused, never run with another meaning.

/** The RegExp for an RE2 pattern, matching every occurrence, or why it cannot be one. */
export function re2(pattern: string): RegExp | { error: string } {
  let flags = "g";
  let body = pattern;
  const lead = /^\(\?([imsU]+)\)/.exec(body);
  if (lead) {
    if (lead[1]!.includes("U")) return { error: "the RE2 flag U (ungreedy) has no JavaScript equivalent" };
    flags += lead[1]!;
    body = body.slice(lead[0].length);
  }
  if (/\(\?[imsU-]+[:)]/.test(body)) return { error: "RE2 flags inside the pattern are not worked out" };
  if (/\[\[:|\\[pP]\{|\\[zAC]|\\Q/.test(body)) return { error: "an RE2 construct without a JavaScript equivalent" };
  body = body.replace(/\(\?P</g, "(?<");
  try {
    return new RegExp(body, flags);
  } catch (err) {
    return { error: `not a valid regular expression: ${(err as Error).message}` };
  }
}

/** Go's regexp.Expand of `template` for one match. */
export function expand(template: string, match: RegExpExecArray): string {
  let out = "";
  for (let i = 0; i < template.length; i++) {
    const ch = template[i]!;
    if (ch !== "$" || i + 1 >= template.length) {
      out += ch;
      continue;
    }
    if (template[i + 1] === "$") {
      out += "$";
      i++;
      continue;
    }
    let name: string;
    if (template[i + 1] === "{") {
      const end = template.indexOf("}", i + 2);
      if (end < 0) {
        out += ch;
        continue;
      }
      name = template.slice(i + 2, end);
      i = end;
    } else {
      const m = /^[A-Za-z0-9_]+/.exec(template.slice(i + 1));
      if (!m) {
        out += ch;
        continue;
      }
      name = m[0];
      i += name.length;
    }
    // Go: a name of digits is a group number; an unknown group expands to nothing.
    const value = /^\d+$/.test(name) ? match[Number(name)] : match.groups?.[name];
    out += value ?? "";
  }
  return out;
}

/** Every match of `re` in `text` replaced (Go's ReplaceAllString), and the matched texts. */
export function replaceAll(re: RegExp, text: string, template: string): { text: string; matches: string[] } {
  const matches: string[] = [];
  re.lastIndex = 0;
  let out = "";
  let last = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    matches.push(m[0]);
    out += text.slice(last, m.index) + expand(template, m);
    last = m.index + m[0].length;
    if (m[0] === "") re.lastIndex++;
  }
  return { text: out + text.slice(last), matches };
}
