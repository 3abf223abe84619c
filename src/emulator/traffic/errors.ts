// The errors ngrok's edge answers with when it cannot handle a request, as the traffic port
// gives them. Each code and message is from its page in ngrok-docs (errors/err_ngrok_<n>.mdx, and
// the list snippets/errors/_err_ngrok_list.mdx); the pages give no HTTP status, so each status is
// cited where one was found, else the HTTP meaning is ours. ngrok marks every such answer with the
// `ngrok-error-code` header, which an upstream can never set (endpoints/cloud-endpoints/http.mdx:457-462,
// "Errors"), and shows a page with the code; the emulator sends HTML to a browser (Accept:
// text/html) and plain text to anything else.
import type http from "node:http";

export interface EdgeError {
  status: number;
  code: string;
  message: string;
}

/** ERR_NGROK_3200 "The endpoint `ENDPOINTURL` is offline." (_err_ngrok_list.mdx:704; errors/err_ngrok_3200.mdx: "your endpoint wasn't found"): 404. */
export const endpointOffline = (url: string): EdgeError => ({
  status: 404,
  code: "ERR_NGROK_3200",
  message: `The endpoint ${url} is offline.`,
});

/**
 * ERR_NGROK_8012 "Traffic successfully made it to the ngrok agent, but the agent failed to establish a
 * connection to the upstream web service at `ADDR`." (errors/err_ngrok_8012.mdx): 502, as ngrok's
 * inspector shows it (ngrok/ngrok-docs#1628, "error page 8012 … expected 502").
 */
export const upstreamRefused = (addr: string, why: string): EdgeError => ({
  status: 502,
  code: "ERR_NGROK_8012",
  message: `Traffic successfully made it to the ngrok agent, but the agent failed to establish a connection to the upstream web service at ${addr}. The error encountered was: ${why}`,
});

/** ERR_NGROK_3004 "ngrok gateway error: The server returned an invalid or incomplete HTTP response." (errors/err_ngrok_3004.mdx): 502 Bad Gateway (ours). */
export const upstreamInvalid = (why: string): EdgeError => ({
  status: 502,
  code: "ERR_NGROK_3004",
  message: `ngrok gateway error: The server returned an invalid or incomplete HTTP response. (${why})`,
});

/**
 * ERR_NGROK_3005 "ngrok gateway timeout: A connection to the server not be established."
 * (errors/err_ngrok_3005.mdx): 504 Gateway Timeout (ours). ngrok documents no response timeout
 * (endpoints/cloud-endpoints/http.mdx:451, "No timeout"); the emulator's bound (EmulatorOptions
 * upstreamTimeoutMs) keeps a test from hanging on an upstream that never answers.
 */
export const upstreamTimeout = (addr: string, ms: number): EdgeError => ({
  status: 504,
  code: "ERR_NGROK_3005",
  message: `ngrok gateway timeout: A connection to the server not be established. (${addr} did not answer within ${ms} ms)`,
});

/** ERR_NGROK_3204 "Request failed webhook verification" (errors/err_ngrok_3204.mdx). */
export const ERR_WEBHOOK = "ERR_NGROK_3204";

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** Sends the error as ngrok does: the status, `ngrok-error-code`, a page naming the code and a link to its page. */
export function sendEdgeError(req: http.IncomingMessage, res: http.ServerResponse, e: EdgeError): void {
  const page = `https://ngrok.com/docs/errors/${e.code.toLowerCase()}`;
  const html = /\btext\/html\b/i.test(req.headers.accept ?? "");
  const body = html
    ? `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${e.code}</title></head><body>\n<h1>${e.code}</h1>\n<p>${escapeHtml(e.message)}</p>\n<p><a href="${page}">${page}</a></p>\n<p><small>edgectl emulator</small></p>\n</body></html>\n`
    : `${e.code}: ${e.message}\n${page}\n`;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(e.status, {
    "content-type": html ? "text/html; charset=utf-8" : "text/plain; charset=utf-8",
    "content-length": Buffer.byteLength(body),
    "ngrok-error-code": e.code,
  });
  res.end(req.method === "HEAD" ? undefined : body);
}
