// A sign-in a test can drive. Where ngrok's oauth and openid-connect actions send an unsigned-in
// browser to the identity provider and, once it signs in, set a session cookie and send it back
// to the path it asked for (ngrok-docs traffic-policy/actions/oauth.mdx:189-200, "Authentication";
// :229-236, "Cookies"), the emulator sends it to its own page on the same host:
//   /__edgectl/signin?return=<path>            a form asking for an email (and a name)
//   /__edgectl/signin?return=<path>&email=…     signs in as that identity, sets the cookie, 302 → return
//   /__edgectl/signout                           clears it (as ngrok's /ngrok/logout, oauth.mdx:116-117)
// Later requests with the cookie carry the identity to the evaluator (ctx.identity, from which
// actions.ngrok.oauth.identity.* is set). The cookie is the emulator's own, never sent upstream.
import { randomBytes } from "node:crypto";
import type http from "node:http";

export const SIGNIN_PATH = "/__edgectl/signin";
export const SIGNOUT_PATH = "/__edgectl/signout";
export const SESSION_COOKIE = "__edgectl_session";

/** Identity fields the page takes from its query (the rest of the query is ignored). */
const FIELDS = ["email", "name", "sub", "provider"] as const;

export class Sessions {
  private readonly byToken = new Map<string, Record<string, string>>();

  /** The identity of the request's session cookie, if any. */
  identityOf(cookieHeader: string | undefined): Record<string, string> | undefined {
    const token = cookieValue(cookieHeader, SESSION_COOKIE);
    return token === undefined ? undefined : this.byToken.get(token);
  }

  /** Answers the sign-in and sign-out pages; false when the path is neither. */
  serve(req: http.IncomingMessage, res: http.ServerResponse, pathname: string, query: URLSearchParams): boolean {
    if (pathname === SIGNOUT_PATH) {
      const token = cookieValue(req.headers.cookie, SESSION_COOKIE);
      if (token !== undefined) this.byToken.delete(token);
      res.writeHead(302, {
        location: safeReturn(query.get("return")),
        "set-cookie": `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`,
        "content-length": 0,
      });
      res.end();
      return true;
    }
    if (pathname !== SIGNIN_PATH) return false;
    const back = safeReturn(query.get("return"));
    const email = query.get("email");
    if (email === null || email.trim() === "") {
      const body = signinPage(back, query.get("provider") ?? "");
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": Buffer.byteLength(body) });
      res.end(body);
      return true;
    }
    const identity: Partial<Record<string, string>> = {};
    for (const f of FIELDS) {
      const v = query.get(f);
      if (v !== null && v !== "") identity[f] = v;
    }
    identity.name ??= email.split("@")[0]!;
    const token = randomBytes(24).toString("base64url");
    this.byToken.set(token, identity as Record<string, string>);
    res.writeHead(302, {
      location: back,
      "set-cookie": `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax`,
      "content-length": 0,
    });
    res.end();
    return true;
  }
}

/** Where the provider's redirect goes instead: this host's sign-in page, returning to `returnTo`. */
export function signinLocation(returnTo: string, provider: string): string {
  return `${SIGNIN_PATH}?${new URLSearchParams({ return: returnTo, ...(provider ? { provider } : {}) }).toString()}`;
}

/** The Cookie header without the emulator's own cookie (undefined when nothing is left). */
export function withoutSessionCookie(values: string[] | undefined): string[] | undefined {
  if (!values) return undefined;
  const kept = values
    .flatMap((v) => v.split(";"))
    .map((p) => p.trim())
    .filter((p) => p !== "" && !p.startsWith(`${SESSION_COOKIE}=`));
  return kept.length ? [kept.join("; ")] : undefined;
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** A path on this host only (never another site: no open redirect). */
function safeReturn(value: string | null): string {
  return value !== null && value.startsWith("/") && !value.startsWith("//") && !value.includes("\\") ? value : "/";
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function signinPage(back: string, provider: string): string {
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Sign in (edgectl emulator)</title></head><body>
<h1>Sign in${provider ? ` with ${escapeHtml(provider)}` : ""} (edgectl emulator)</h1>
<p>The emulator stands in for the identity provider: sign in as anyone.</p>
<form method="get" action="${SIGNIN_PATH}">
<input type="hidden" name="return" value="${escapeHtml(back)}">
<input type="hidden" name="provider" value="${escapeHtml(provider)}">
<label>Email <input name="email" type="email" required></label>
<label>Name <input name="name"></label>
<button type="submit">Sign in</button>
</form>
</body></html>
`;
}
