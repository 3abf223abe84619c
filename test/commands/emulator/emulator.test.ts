// `edgectl emulator`: the command line → options or refusal (test/commands/parse.ts). The command
// runs until a signal, so what it prints and how it stops are tested on the process, in
// test/emulator/cli.test.ts and process.test.ts; the server itself in-process in test/emulator/.
import { describe, expect, it } from "vitest";
import { emulator } from "../../../src/commands/emulator/emulator.js";
import { parse, refusal } from "../parse.js";

describe("emulator argv → options", () => {
  it("defaults to 127.0.0.1:8040 in memory, and reads --rate-limit as requests per window", async () => {
    expect((await parse(emulator, [])).options).toEqual({
      host: "127.0.0.1",
      port: 8040,
      stateFile: undefined,
      rateLimit: undefined,
    });
    expect((await parse(emulator, ["--port", " 0 ", "--rate-limit", "60/0.5", "--state", "s.json"])).options).toEqual({
      host: "127.0.0.1",
      port: 0,
      stateFile: "s.json",
      rateLimit: { requests: 60, windowSeconds: 0.5 },
    });
  });

  it.each([
    [["--port", "70000"], '--port: "70000" must be a whole number from 0 to 65535'],
    [["--port", "-1"], '--port: "-1" must be a whole number from 0 to 65535'],
    [["--host", " "], "--host: must not be empty"],
    [["--state", ""], "--state: must name a file"],
    [
      ["--rate-limit", "0/1"],
      '--rate-limit: "0/1" must be <n>/<seconds>, e.g. 100/60 (n from 1 to 1000000, seconds above 0)',
    ],
    [
      ["--rate-limit", "5/0"],
      '--rate-limit: "5/0" must be <n>/<seconds>, e.g. 100/60 (n from 1 to 1000000, seconds above 0)',
    ],
  ])("refuses %j", async (argv, message) => {
    expect((await refusal(emulator, argv)).message).toBe(message);
  });

  it("reads --traffic-port, repeated --upstream <url>=<local-url> as a map, and --log-requests", async () => {
    const { options } = await parse(emulator, [
      "--traffic-port",
      "0",
      "--upstream",
      "https://app.internal=http://127.0.0.1:3000/",
      "--upstream",
      " https://api.example.com = http://localhost:4000/base ",
      "--log-requests",
      "req.jsonl",
    ]);
    expect(options).toMatchObject({
      trafficPort: 0,
      upstreams: {
        "https://app.internal": "http://127.0.0.1:3000",
        "https://api.example.com": "http://localhost:4000/base",
      },
      logRequests: "req.jsonl",
    });
  });

  const upstreamRule =
    "must be <url>=<local-url>, e.g. https://app.internal=http://127.0.0.1:3000 (an http, https, tls or tcp URL = an http:// server)";
  it.each([
    [["--traffic-port", "65536"], '--traffic-port: "65536" must be a whole number from 0 to 65535'],
    [["--upstream", "https://app.internal"], `--upstream: "https://app.internal" ${upstreamRule}`],
    [
      ["--upstream", "app.internal=http://127.0.0.1:3000"],
      `--upstream: "app.internal=http://127.0.0.1:3000" ${upstreamRule}`,
    ],
    [
      ["--upstream", "https://app.internal=https://127.0.0.1:3000"],
      `--upstream: "https://app.internal=https://127.0.0.1:3000" ${upstreamRule}`,
    ],
    [["--log-requests", " "], "--log-requests: must name a file"],
    [["--upstream", "https://app.internal=http://127.0.0.1:3000"], "--upstream: needs --traffic-port"],
    [["--log-requests", "r.jsonl"], "--log-requests: needs --traffic-port"],
  ])("refuses %j", async (argv, message) => {
    expect((await refusal(emulator, argv)).message).toBe(message);
  });

  it("reads repeated --jwks <url>=<file> as a map, split at the last = (a jku URL may have a query)", async () => {
    const { options } = await parse(emulator, [
      "--traffic-port",
      "0",
      "--jwks",
      "https://issuer.example/.well-known/jwks.json=./keys/jwks.json",
      "--jwks",
      " http://127.0.0.1:9/keys?appid=a = other.json ",
    ]);
    expect(options).toMatchObject({
      jwks: {
        "https://issuer.example/.well-known/jwks.json": "./keys/jwks.json",
        "http://127.0.0.1:9/keys?appid=a": "other.json",
      },
    });
  });

  // The URL is a jku as the validator takes it: http(s) only (src/policy/actions/fields.ts httpUrl).
  const jwksRule =
    "must be <url>=<file>, e.g. https://issuer.example/.well-known/jwks.json=./jwks.json (an http or https URL = a JWKS file)";
  it.each([
    [
      ["--traffic-port", "0", "--jwks", "https://issuer.example/jwks"],
      `--jwks: "https://issuer.example/jwks" ${jwksRule}`,
    ],
    [
      ["--traffic-port", "0", "--jwks", "https://issuer.example/jwks= "],
      `--jwks: "https://issuer.example/jwks= " ${jwksRule}`,
    ],
    [
      ["--traffic-port", "0", "--jwks", "file:///tmp/jwks.json=k.json"],
      `--jwks: "file:///tmp/jwks.json=k.json" ${jwksRule}`,
    ],
    [
      ["--traffic-port", "0", "--jwks", "issuer.example/jwks=k.json"],
      `--jwks: "issuer.example/jwks=k.json" ${jwksRule}`,
    ],
    [["--jwks", "https://issuer.example/jwks=k.json"], "--jwks: needs --traffic-port"],
  ])("refuses %j", async (argv, message) => {
    expect((await refusal(emulator, argv)).message).toBe(message);
  });
});
