// yamlText writes what the yaml package wrote for the policies edgectl prints, byte for byte,
// except where it quotes more (each difference below, with its reason).
import { readdirSync, readFileSync } from "node:fs";
import jsYaml from "js-yaml";
import { Document, parse, visit } from "yaml";
import { describe, expect, it } from "vitest";
import { planEdge } from "../../src/migrate/plan.js";
import { maskPolicy } from "../../src/migrate/policy.js";
import { yamlText } from "../../src/output/yaml-write.js";
import { backendMap, edge, failover, https, httpResponse, route, tunnelGroup, weighted } from "../migrate/fixtures.js";

/** The yaml package as the brief names it. */
const library = (value: unknown) => new Document(value, { aliasDuplicateObjects: false }).toString({ lineWidth: 0 });

/** The yaml package as edgectl used it before (a string with a line break double-quoted, `\n` escaped). */
function libraryAsBefore(value: unknown): string {
  const doc = new Document(value, { aliasDuplicateObjects: false });
  visit(doc, {
    Scalar(_, node) {
      if (typeof node.value === "string" && node.value.includes("\n")) node.type = "QUOTE_DOUBLE";
    },
  });
  return doc.toString({ lineWidth: 0, doubleQuotedMinMultiLineLength: Number.MAX_SAFE_INTEGER });
}

function readsBack(text: string, value: unknown): void {
  expect(parse(text)).toEqual(value);
  expect(parse(text, { version: "1.1" })).toEqual(value);
  expect(jsYaml.load(text)).toEqual(value);
}

const policy = planEdge(
  https(
    edge([
      route("edghtsrt_1", "path_prefix", "/app", "bkdfo_1", {
        ip_restriction: { enabled: true, ip_policies: [{ id: "ipp_1", uri: "u" }] },
        user_agent_filter: { enabled: true, allow: ["^good$"], deny: ["bot", 'x"y'] },
        oauth: {
          enabled: true,
          provider: { google: { client_id: "cid", client_secret: "csecret", email_domains: ["example.org"] } },
        },
        webhook_verification: { enabled: true, provider: "github", secret: "whsec_1" },
        request_headers: { enabled: true, add: { "x-a": "1" }, remove: ["cookie"] },
      }),
      route("edghtsrt_2", "exact_path", '/we"ird path', "bkdhr_1"),
      route("edghtsrt_3", "path_prefix", "/", "bkdwd_1"),
    ]),
  ),
  {
    backends: backendMap(
      failover("bkdfo_1", ["bkdtg_a", "bkdtg_b"]),
      tunnelGroup("bkdtg_a", { s: "a" }),
      tunnelGroup("bkdtg_b", { s: "b" }),
      httpResponse("bkdhr_1", 503, "<h1>down</h1>", { "content-type": "text/html" }),
      weighted("bkdwd_1", { bkdtg_a: 1, bkdtg_b: 3 }),
    ),
    maps: new Map([["s=a", "https://a.internal"]]),
  },
).endpoints[0]!.traffic_policy;

describe("yamlText, byte for byte as the yaml package", () => {
  it("a migrate plan's policy, secrets shown and masked", () => {
    for (const p of [policy, maskPolicy(policy)]) {
      expect(yamlText(p)).toBe(library(p));
      readsBack(yamlText(p), JSON.parse(JSON.stringify(p)));
    }
    expect(yamlText(policy)).toContain('\n    expressions:\n      - req.url.path.startsWith("/app")\n');
    expect(yamlText(policy)).toContain("\n          body: <h1>down</h1>\n");
  });

  const dir = new URL("../fixtures/policy/", import.meta.url);
  const files = [
    ...readdirSync(dir).filter((f) => f.endsWith(".yaml")),
    ...readdirSync(new URL("non-reference/", dir)).map((f) => `non-reference/${f}`),
  ];

  it("every policy in the ngrok docs (test/fixtures/policy), as data", () => {
    expect(files.length).toBeGreaterThan(90);
    const multiLine: string[] = [];
    for (const file of files) {
      const value: unknown = parse(readFileSync(new URL(file, dir), "utf8"));
      const text = yamlText(value);
      expect(text, file).toBe(libraryAsBefore(value));
      if (text !== library(value)) multiLine.push(file);
      readsBack(text, value);
    }
    // Deliberate: a string holding a line break is double-quoted with `\n` (as edgectl printed
    // it before), not a block literal as the bare library writes it: one rule for every line
    // break, and no indentation indicator or chomping for a parser to read differently.
    expect(multiLine).toEqual(["terminate-tls-2.yaml", "terminate-tls-3.yaml"]);
  });

  it("layout: nested sequences and mappings, empty ones in flow style, sequences indented under their key", () => {
    const value = { a: { b: [1, { c: [[], {}], d: null }, [2, [3]], []] }, e: [], f: {}, g: [null, true, "x y"] };
    expect(yamlText(value)).toBe(library(value));
    expect(yamlText(value)).toBe(
      "a:\n  b:\n    - 1\n    - c:\n        - []\n        - {}\n      d: null\n    - - 2\n      - - 3\n    - []\n" +
        "e: []\nf: {}\ng:\n  - null\n  - true\n  - x y\n",
    );
    for (const root of [[], {}, null, "x", 1.5, [[{ a: 1, b: 2 }], {}]]) expect(yamlText(root)).toBe(library(root));
  });

  it("quotes as the library does: single quotes for a \" and no ', else double; undefined left out", () => {
    const value = { 'x"y': "it's", q: '"hi" there', both: `'"`, colon: "a: b", hash: "a #b", u: undefined };
    expect(yamlText(value)).toBe(library(value));
    expect(yamlText(value)).toBe(`x"y: it's\nq: '"hi" there'\nboth: "'\\""\ncolon: "a: b"\nhash: "a #b"\n`);
  });
});

describe("yamlText, where it deliberately differs from the yaml package", () => {
  it("quotes YAML 1.1 booleans and nulls (go-yaml's and PyYAML's yes/no/on/off/y/n), plain in YAML 1.2", () => {
    const value = { yes: "no", on: "off", y: "n", Y: "N" };
    expect(library(value)).toBe("yes: no\non: off\ny: n\nY: N\n");
    expect(yamlText(value)).toBe('"yes": "no"\n"on": "off"\n"y": "n"\n"Y": "N"\n');
    expect(parse(library({ k: "yes" }), { version: "1.1" })).toEqual({ k: true });
    readsBack(yamlText(value), value);
  });

  it("quotes what YAML 1.1 reads as a number, a date or a merge key (1:20, 1_000, 2001-12-14, ., <<, =)", () => {
    const value = { a: "1:20", b: "1_000", c: "2001-12-14", d: ".", e: "1.2.3.4", "<<": "=" };
    expect(library(value)).toBe("a: 1:20\nb: 1_000\nc: 2001-12-14\nd: .\ne: 1.2.3.4\n<<: =\n");
    expect(yamlText(value)).toBe('a: "1:20"\nb: "1_000"\nc: "2001-12-14"\nd: "."\ne: "1.2.3.4"\n"<<": "="\n');
    readsBack(yamlText(value), value);
  });

  it("quotes a string starting with -, ? or : (plain for the library when no space follows)", () => {
    const value = ["-a", "?a", "::1"];
    expect(library(value)).toBe("- -a\n- ?a\n- ::1\n");
    expect(yamlText(value)).toBe('- "-a"\n- "?a"\n- "::1"\n');
  });

  it("writes -0 as -0.0 (js-yaml reads -0 as the integer 0) and an exponent with a dot (PyYAML reads 1e+21 as a string)", () => {
    const value = [-0, 1e21, 1e-7, -2.5e-300, 0.1, 100];
    expect(library(value)).toBe("- -0\n- 1e+21\n- 1e-7\n- -2.5e-300\n- 0.1\n- 100\n");
    expect(yamlText(value)).toBe("- -0.0\n- 1.0e+21\n- 1.0e-7\n- -2.5e-300\n- 0.1\n- 100\n");
    expect(Object.is((jsYaml.load(library(value)) as number[])[0], -0)).toBe(false);
    readsBack(yamlText(value), value);
  });

  it("escapes every character a parser reads as a line break or drops, which the library writes raw", () => {
    const value = { body: "a\u0085b\u2028c\u2029d\ufeffe\x7ff\x9fg\ufffeh", ctl: "\x00\x07\x1b\x0b\t\r\n " };
    expect(library(value)).toMatch(/\u0085/);
    expect(yamlText(value)).toBe('body: "a\\Nb\\Lc\\Pd\\uFEFFe\\x7ff\\x9fg\\uFFFEh"\nctl: "\\0\\a\\e\\v\\t\\r\\n "\n');
    readsBack(yamlText(value), value);
  });

  it("escapes a lone surrogate, high or low, and leaves a pair (an emoji) as it is", () => {
    expect(yamlText({ a: "x\ud800y", b: "\udc00", c: "\ud83d\ude00" })).toBe(
      'a: "x\\ud800y"\nb: "\\udc00"\nc: \ud83d\ude00\n',
    );
  });

  it("a key over 1024 characters is explicit (`? key`), its value on the lines after `:`", () => {
    const long = "k".repeat(1100);
    const value = { [long]: { a: 1 }, b: [{ [long]: [1] }], [`${long}x`]: "v" };
    expect(library(value)).toContain(`? ${long}\n: a: 1\n`);
    expect(yamlText(value)).toBe(`? ${long}\n:\n  a: 1\nb:\n  - ? ${long}\n    :\n      - 1\n? ${long}x\n: v\n`);
    readsBack(yamlText(value), value);
  });
});
