// Bad answers from the server, in-process: HTML error pages, truncated or malformed JSON, the
// wrong shape, empty bodies. The client's error, as the CLI would print it, gives the status and
// a short escaped excerpt on one line; its kind maps to exit 1 for an error status, 3 for an
// unusable success, 4 for a refused key. (test/reliability/bad-answers.test.ts runs a few
// of these through the real CLI.)
import { afterEach, describe, expect, it } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import { createFailover, getFailover, listFailover } from "../../src/api/failover.js";
import { getWebhookVerification, replaceWebhookVerification } from "../../src/api/webhook-verification.js";
import { EXIT_CODES, type EdgectlError } from "../../src/errors.js";
import { formatError } from "../../src/output/error.js";
import { startFaultServer, type FaultServer, type Reply } from "../helpers/fault-server.js";
import { skippedTime } from "../helpers/skipped-time.js";
import { FB } from "../helpers/answers.js";

const MODULE = { enabled: true, provider: "github", secret: null };
const HTML = `<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n<body><center><h1>502 Bad Gateway</h1></center>\n<hr><center>nginx</center>\n${"<!-- padding -->\n".repeat(40)}</body></html>\n`;

type Call = (c: ApiClient) => Promise<unknown>;
const GET: Call = (c) => getFailover(c, "bkdfo_abc");
const CREATE: Call = (c) => createFailover(c, { backends: ["bkdhr_a"] });
const LIST: Call = (c) => listFailover(c, { all: false });
const PUT: Call = (c) =>
  replaceWebhookVerification(c, "edghts_a", "edghtsrt_b", {
    enabled: true,
    provider: "github",
    secret: "whsec_bad_answers",
  });
const WGET: Call = (c) => getWebhookVerification(c, "edghts_a", "edghtsrt_b");

interface Case {
  name: string;
  call: Call;
  reply: Reply;
  exit: number;
  /** Patterns stderr must match. */
  expect: RegExp[];
}

const CASES: Case[] = [
  {
    name: "200 with truncated JSON (connection cut)",
    call: GET,
    reply: { truncate: '{"id":"bkdfo_abc","uri":"x","cre' },
    exit: 3,
    expect: [/connection lost|reading the response/],
  },
  {
    name: "200 with malformed JSON",
    call: GET,
    reply: { status: 200, body: '{"id":"bkdfo_abc",,}' },
    exit: 3,
    expect: [/200/, /not valid JSON/, /\{"id":"bkdfo_abc",,\}/],
  },
  {
    name: "200 with a JSON string",
    call: GET,
    reply: { status: 200, body: '"ok"' },
    exit: 3,
    expect: [/200/, /unexpected body/],
  },
  {
    name: "200 with null",
    call: GET,
    reply: { status: 200, body: "null" },
    exit: 3,
    expect: [/200/, /unexpected body/],
  },
  {
    name: "200 with an array",
    call: GET,
    reply: { status: 200, body: "[1,2]" },
    exit: 3,
    expect: [/200/, /unexpected body/],
  },
  {
    name: "200 with the wrong shape (backends a string)",
    call: GET,
    reply: { status: 200, body: { ...FB, backends: "bkdhr_a" } },
    exit: 3,
    expect: [/200/, /backends/],
  },
  {
    name: "200 with a field missing (no id)",
    call: GET,
    reply: { status: 200, body: { ...FB, id: undefined } },
    exit: 3,
    expect: [/200/, /\bid\b/],
  },
  { name: "200 with an empty body on get", call: GET, reply: { status: 200 }, exit: 3, expect: [/200/, /empty body/] },
  {
    name: "200 with HTML on get",
    call: GET,
    reply: { status: 200, body: HTML, headers: { "Content-Type": "text/html" } },
    exit: 3,
    expect: [/200/, /not valid JSON/, /<!DOCTYPE html>/],
  },
  {
    name: "201 with an empty body on create",
    call: CREATE,
    reply: { status: 201 },
    exit: 3,
    expect: [/201/, /empty body/],
  },
  {
    name: "201 with truncated JSON on create",
    call: CREATE,
    reply: { truncate: '{"id":"bkdfo_abc"', status: 201 },
    exit: 3,
    expect: [/connection lost|reading the response/],
  },
  {
    name: "201 with malformed JSON on create",
    call: CREATE,
    reply: { status: 201, body: "{oops" },
    exit: 3,
    expect: [/201/, /not valid JSON/],
  },
  {
    name: "201 with the wrong shape on create",
    call: CREATE,
    reply: { status: 201, body: { id: 42 } },
    exit: 3,
    expect: [/201/, /unexpected body/],
  },
  {
    name: "200 list with backends not an array",
    call: LIST,
    reply: { status: 200, body: { backends: { a: 1 } } },
    exit: 3,
    expect: [/200/, /backends/],
  },
  {
    name: "200 list with a bad item",
    call: LIST,
    reply: { status: 200, body: { backends: [FB, { id: "bkdfo_x" }] } },
    exit: 3,
    expect: [/200/, /backends\.1/],
  },
  {
    name: "200 module with enabled a string",
    call: PUT,
    reply: { status: 200, body: { ...MODULE, enabled: "yes" } },
    exit: 3,
    expect: [/200/, /enabled/],
  },
  { name: "200 empty body on webhook get", call: WGET, reply: { status: 200 }, exit: 3, expect: [/200/, /empty body/] },
  {
    name: "502 HTML error page (after retries)",
    call: GET,
    reply: { status: 502, body: HTML, headers: { "Content-Type": "text/html", "Retry-After": "0" } },
    exit: 1,
    expect: [/HTTP 502/, /<!DOCTYPE html>/, /…/],
  },
  {
    name: "500 plain-text error",
    call: GET,
    reply: { status: 500, body: "Internal Server Error\n" },
    exit: 1,
    expect: [/HTTP 500/, /Internal Server Error/],
  },
  { name: "404 with an empty body", call: GET, reply: { status: 404 }, exit: 1, expect: [/HTTP 404/] },
  {
    name: "400 with JSON that is not an error body",
    call: GET,
    reply: { status: 400, body: { weird: true } },
    exit: 1,
    expect: [/HTTP 400/, /weird/],
  },
  {
    name: "400 with an error body without error_code",
    call: GET,
    reply: { status: 400, body: { status_code: 400, msg: "bad id" } },
    exit: 1,
    expect: [/bad id/, /HTTP 400/],
  },
  {
    name: "404 with a well-formed error body",
    call: GET,
    reply: {
      status: 404,
      body: { error_code: "ERR_NGROK_404", status_code: 404, msg: "not found", details: { operation_id: "op_1" } },
    },
    exit: 1,
    expect: [/not found/, /HTTP 404/, /ERR_NGROK_404/, /op_1/],
  },
  {
    name: "401 with HTML",
    call: GET,
    reply: { status: 401, body: "<html>denied</html>" },
    exit: 4,
    expect: [/HTTP 401/, /denied/],
  },
  {
    name: "200 with a huge malformed body (excerpt stays short)",
    call: GET,
    reply: { status: 200, body: `{${"x".repeat(200_000)}` },
    exit: 3,
    expect: [/not valid JSON/],
  },
  {
    name: "200 with stray Latin-1 characters, unterminated",
    call: GET,
    reply: { status: 200, body: '{"id":"\xff\xfe' },
    exit: 3,
    expect: [/not valid JSON/],
  },
  {
    name: "200 with a BOM and garbage",
    call: GET,
    reply: { status: 200, body: "\ufeff<xml/>" },
    exit: 3,
    expect: [/not valid JSON/],
  },
];

let server: FaultServer | undefined;
let client: ApiClient | undefined;
afterEach(async () => {
  client?.close();
  await server?.close();
});

describe("unusable answers", () => {
  it.each(CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    server = await startFaultServer();
    server.fallback = () => c.reply;
    const time = skippedTime();
    client = new ApiClient({
      baseUrl: server.url,
      apiKey: "key_answers_Pq81",
      timeoutMs: 30_000,
      retries: 1,
      now: time.now,
      sleep: time.sleep,
      secrets: ["whsec_bad_answers"],
    });
    let error: EdgectlError | undefined;
    await c.call(client).catch((err: EdgectlError) => (error = err));
    expect(error, "the call should fail").toBeDefined();
    expect(EXIT_CODES[error!.kind]).toBe(c.exit);
    const line = formatError(error, { json: false });
    expect(line.startsWith("error: ")).toBe(true);
    for (const re of c.expect) expect(line).toMatch(re);
    // A short excerpt: one line, never the whole page, no raw control character.
    expect(line.trim().split("\n")).toHaveLength(1);
    expect(line.length).toBeLessThan(800);
    expect(line.trimEnd()).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
  });
});
