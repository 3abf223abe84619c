import { describe, expect, it } from "vitest";
import { printDryRun, printDryRuns } from "../../src/commands/dry-run.js";
import { fakeDeps } from "./fake-deps.js";

describe("printDryRun", () => {
  it("keeps the base URL's path prefix and masks secrets by structure, no other value", async () => {
    const deps = fakeDeps({ settings: { baseUrl: "https://gw.example.com/ngrok" } });
    await printDryRun(deps, "PUT", "/x", { provider: "github", note: "github inside", secret: "github" });
    expect(deps.out.text).toContain("PUT https://gw.example.com/ngrok/x\n");
    expect(JSON.parse(deps.out.text.slice(deps.out.text.indexOf("{")))).toEqual({
      provider: "github",
      note: "github inside",
      secret: "********",
    });
  });

  it("masks the secrets inside a traffic_policy text where they stand", async () => {
    const deps = fakeDeps({ settings: { output: "json" } });
    const policy = JSON.stringify({
      on_http_request: [
        {
          actions: [
            { type: "verify-webhook", config: { provider: "github", secret: "internal" } },
            { type: "forward-internal", config: { url: "https://service-app.internal" } },
          ],
        },
      ],
    });
    await printDryRun(deps, "POST", "/endpoints", { type: "cloud", url: "https://a.internal", traffic_policy: policy });
    const body = JSON.parse(deps.out.text).request.body;
    expect(body.url).toBe("https://a.internal");
    expect(body.traffic_policy).toBe(policy.replace('"secret":"internal"', '"secret":"********"'));
  });
});

describe("printDryRuns", () => {
  it("text: each request as printDryRun would print it, one after another", async () => {
    const deps = fakeDeps();
    await printDryRuns(deps, [
      { method: "DELETE", path: "/a" },
      { method: "PATCH", path: "/b", body: { description: "x" } },
    ]);
    expect(deps.out.text).toBe(
      `DELETE https://api.example.test/a\nPATCH https://api.example.test/b\n{\n  "description": "x"\n}\n`,
    );
  });

  it("json: one array document, secrets masked, in a single write", async () => {
    const deps = fakeDeps({ settings: { output: "json" } });
    let writes = 0;
    const write = deps.out.write.bind(deps.out);
    deps.out.write = (chunk: string) => {
      writes++;
      return write(chunk);
    };
    await printDryRuns(deps, [
      { method: "PUT", path: "/x", body: { secret: "s3cr3t-value" } },
      { method: "DELETE", path: "/y" },
    ]);
    expect(writes).toBe(1);
    expect(deps.out.text).not.toContain("s3cr3t-value");
    expect(JSON.parse(deps.out.text)).toEqual([
      { dry_run: true, request: { method: "PUT", url: "https://api.example.test/x", body: { secret: "********" } } },
      { dry_run: true, request: { method: "DELETE", url: "https://api.example.test/y" } },
    ]);
  });
});
