// --state FILE: state survives restarts, writes are atomic, a damaged file is refused.
import { lstat, mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { StartError } from "../../src/emulator/start-error.js";
import { startEmulator } from "../helpers/emulator-states.js";
import { Store } from "../../src/emulator/store.js";
import { call, makeRoute } from "../helpers/emulator.js";

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "edgectl-emu-state-"));
  file = join(dir, "state.json");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("state file", () => {
  it("keeps backends and webhook modules across a restart", async () => {
    const first = await startEmulator({ port: 0, stateFile: file });
    const a = await call(first.url, "POST", "/backends/failover", {
      body: { backends: ["bkdhr_a"], description: "a" },
    });
    const b = await call(first.url, "POST", "/backends/failover", {
      body: { backends: ["bkdtg_b", "bkdhr_a"], metadata: "m" },
    });
    const c = await call(first.url, "POST", "/backends/failover", { body: { backends: ["bkdhr_c"] } });
    await call(first.url, "PATCH", `/backends/failover/${a.json.id}`, { body: { description: "a2" } });
    await call(first.url, "DELETE", `/backends/failover/${c.json.id}`);
    const made = await makeRoute(first.url);
    await call(first.url, "PUT", made.webhook, { body: { enabled: false, provider: "github", secret: "s" } });
    await first.close();

    const second = await startEmulator({ port: 0, stateFile: file });
    try {
      const list = await call(second.url, "GET", "/backends/failover");
      expect(list.json.backends.map((x: { id: string }) => x.id)).toEqual([b.json.id, a.json.id]);
      const got = await call(second.url, "GET", `/backends/failover/${a.json.id}`);
      expect(got.json).toEqual({ ...a.json, description: "a2", uri: `${second.url}/backends/failover/${a.json.id}` });
      expect((await call(second.url, "GET", made.webhook)).json).toEqual({
        enabled: false,
        provider: "github",
        secret: "s",
      });
      // New ids still sort after the saved ones: the newest is listed first.
      const d = await call(second.url, "POST", "/backends/failover", { body: { backends: ["bkdhr_d"] } });
      expect((await call(second.url, "GET", "/backends/failover?limit=1")).json.backends[0].id).toBe(d.json.id);
    } finally {
      await second.close();
    }
  });

  it("keeps edges, routes and their modules, backends of every kind and endpoints across a restart", async () => {
    const first = await startEmulator({ port: 0, stateFile: file });
    const made = await makeRoute(first.url, {
      edge: { hostports: ["keep.example.com:443"], mutual_tls: {} },
      route: { oauth: { provider: {} } },
    });
    await call(first.url, "PUT", made.webhook, { body: { provider: "github", secret: "kept" } });
    await call(first.url, "PUT", `${made.path}/backend`, { body: { backend_id: "bkdtg_x" } });
    const kinds = {
      tunnel_group: { labels: { service: "app" } },
      http_response: { body: "b", headers: { a: "1" }, status_code: 418 },
      weighted: { backends: { bkdhr_a: 2 } },
      static: { address: "h:1", tls: { enabled: true } },
    };
    const backends: Record<string, string> = {};
    for (const [kind, body] of Object.entries(kinds))
      backends[kind] = (await call(first.url, "POST", `/backends/${kind}`, { body })).json.id;
    const ep = await call(first.url, "POST", "/endpoints", {
      body: {
        type: "cloud",
        url: "https://keep.example.com",
        traffic_policy: "on_http_request:\n  - actions: [{type: deny}]\n",
      },
    });
    const paths = [
      `/edges/https/${made.edgeId}`,
      ...Object.entries(backends).map(([k, id]) => `/backends/${k}/${id}`),
      `/endpoints/${ep.json.id}`,
    ];
    const before = await Promise.all(
      paths.map(async (p) => (await call(first.url, "GET", p)).text.replaceAll(first.url, "BASE")),
    );
    await first.close();

    const second = await startEmulator({ port: 0, stateFile: file });
    try {
      const after = await Promise.all(
        paths.map(async (p) => (await call(second.url, "GET", p)).text.replaceAll(second.url, "BASE")),
      );
      expect(after).toEqual(before);
      expect(JSON.parse(after[0]!).routes[0].webhook_verification.secret).toBe("kept");
      // New ids of every kind still sort after the saved ones.
      const e2 = await call(second.url, "POST", "/edges/https", { body: {} });
      expect((await call(second.url, "GET", "/edges/https?limit=1")).json.https_edges[0].id).toBe(e2.json.id);
      expect(e2.json.id > made.edgeId).toBe(true);
    } finally {
      await second.close();
    }
  });

  it("loads a state file of the first emulator: each webhook module becomes a route of that id on an edge of that id", async () => {
    await writeFile(
      file,
      '{"version":1,\n"failover_backends":[],\n"webhook_verifications":[\n{"edge_id":"edghts_old","route_id":"edghtsrt_old","enabled":false,"provider":"slack","secret":"s"}\n]}\n',
    );
    const emu = await startEmulator({ port: 0, stateFile: file });
    try {
      const path = "/edges/https/edghts_old/routes/edghtsrt_old";
      expect((await call(emu.url, "GET", `${path}/webhook_verification`)).json).toEqual({
        enabled: false,
        provider: "slack",
        secret: "s",
      });
      expect((await call(emu.url, "GET", path)).json).toMatchObject({
        edge_id: "edghts_old",
        match_type: "path_prefix",
        match: "/",
      });
      // The next write saves it in the new form.
      await call(emu.url, "POST", "/backends/failover", { body: { backends: ["bkdhr_a"] } });
      const saved = JSON.parse(await readFile(file, "utf8"));
      expect(saved.webhook_verifications).toBeUndefined();
      expect(saved.https_edges[0].routes[0].webhook_verification).toEqual({
        enabled: false,
        provider: "slack",
        secret: "s",
      });
    } finally {
      await emu.close();
    }
  });

  it("has every acknowledged change on disk at once, without waiting for close", async () => {
    const emu = await startEmulator({ port: 0, stateFile: file });
    try {
      const r = await call(emu.url, "POST", "/backends/failover", { body: { backends: ["bkdhr_a"] } });
      const saved = JSON.parse(await readFile(file, "utf8"));
      expect(saved.failover_backends.map((x: { id: string }) => x.id)).toEqual([r.json.id]);
    } finally {
      await emu.close();
    }
  });

  it("persists all of 100 concurrent creates and leaves no temp files behind", async () => {
    const emu = await startEmulator({ port: 0, stateFile: file });
    let ids: string[];
    try {
      const results = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          call(emu.url, "POST", "/backends/failover", { body: { backends: ["bkdhr_a"], description: `${i}` } }),
        ),
      );
      expect(results.every((r) => r.status === 201)).toBe(true);
      ids = results.map((r) => r.json.id);
      // Acknowledged means written: the file already holds all 100 before close.
      const saved = JSON.parse(await readFile(file, "utf8"));
      expect(new Set(saved.failover_backends.map((x: { id: string }) => x.id))).toEqual(new Set(ids));
    } finally {
      await emu.close();
    }
    expect(await readdir(dir)).toEqual(["state.json"]);
    const again = await startEmulator({ port: 0, stateFile: file });
    try {
      const list = await call(again.url, "GET", "/backends/failover?limit=100");
      expect(new Set(list.json.backends.map((x: { id: string }) => x.id))).toEqual(new Set(ids));
    } finally {
      await again.close();
    }
  });

  it("writes the file readable by its owner only (it holds webhook secrets)", async () => {
    if (process.platform === "win32") return;
    const emu = await startEmulator({ port: 0, stateFile: file });
    const made = await makeRoute(emu.url);
    await call(emu.url, "PUT", made.webhook, { body: { provider: "github", secret: "s" } });
    await emu.close();
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it("starts empty when the file does not exist yet, and creates it on the first change", async () => {
    const emu = await startEmulator({ port: 0, stateFile: file });
    try {
      expect((await call(emu.url, "GET", "/backends/failover")).json.backends).toEqual([]);
      await expect(stat(file)).rejects.toThrow();
      await makeRoute(emu.url);
      expect((await stat(file)).isFile()).toBe(true);
    } finally {
      await emu.close();
    }
  });

  it("starts empty after a restart when the first run made no change (the file was never created)", async () => {
    const first = await startEmulator({ port: 0, stateFile: file });
    await first.close();
    await expect(stat(file)).rejects.toThrow();
    const second = await startEmulator({ port: 0, stateFile: file });
    try {
      expect((await call(second.url, "GET", "/backends/failover")).json.backends).toEqual([]);
    } finally {
      await second.close();
    }
  });

  // The emulator never writes an empty file (writes are atomic), so one is damage, not "no state".
  it.each([
    ["empty", ""],
    ["a single newline", "\n"],
    ["spaces", "   "],
    ["mixed whitespace", " \t\r\n\n  \t"],
    ["Unicode whitespace", "\u00a0\ufeff\u2003\n"],
  ])("refuses a state file that is %s, and never overwrites it", async (_what, content) => {
    await writeFile(file, content);
    const err = await startEmulator({ port: 0, stateFile: file }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StartError);
    expect((err as Error).message).toContain(file);
    expect((err as Error).message).toMatch(/is corrupt: the file (is empty|holds only whitespace)/);
    expect((err as Error).message).toMatch(/move it aside to start empty/);
    expect(await readFile(file, "utf8")).toBe(content);
    expect(await readdir(dir)).toEqual(["state.json"]);
  });

  it("refuses an empty state file at Store.open, before any change could overwrite it", async () => {
    await writeFile(file, "");
    await expect(Store.open(file)).rejects.toThrow(/is corrupt: the file is empty/);
    await writeFile(file, "\n\n");
    await expect(Store.open(file)).rejects.toThrow(/is corrupt: the file holds only whitespace/);
    expect(await readFile(file, "utf8")).toBe("\n\n");
  });

  it.each([
    ["not JSON", "{ this is not json", /not valid JSON/],
    ["a JSON array", "[]", /expected a JSON object/],
    ["an unknown version", '{"version":99}', /unsupported version 99/],
    [
      "a bad backend id",
      '{"version":1,"failover_backends":[{"id":"bkdfo_a","created_at":"2026-01-01T00:00:00Z","description":"","metadata":"","backends":["nope"]}]}',
      /failover_backends\[0\]\.backends\[0\]/,
    ],
    [
      "a duplicate id",
      '{"version":1,"failover_backends":[{"id":"bkdfo_a","created_at":"2026-01-01T00:00:00Z","description":"","metadata":"","backends":["bkdhr_a"]},{"id":"bkdfo_a","created_at":"2026-01-01T00:00:00Z","description":"","metadata":"","backends":["bkdhr_a"]}]}',
      /appears twice/,
    ],
    [
      "a missing field",
      '{"version":1,"failover_backends":[{"id":"bkdfo_a","description":"","metadata":"","backends":["bkdhr_a"]}]}',
      /created_at must be a string/,
    ],
    [
      "an unknown provider",
      '{"version":1,"webhook_verifications":[{"edge_id":"edghts_a","route_id":"edghtsrt_a","enabled":true,"provider":"nope","secret":""}]}',
      /provider "nope"/,
    ],
    [
      "an edge with a bad id",
      '{"version":1,"https_edges":[{"id":"edg_a","created_at":"2026-01-01T00:00:00Z","description":"","metadata":"","hostports":[],"mutual_tls":null,"tls_termination":null,"routes":[]}]}',
      /https_edges\[0\]\.id "edg_a"/,
    ],
    [
      "a route with a bad match_type",
      '{"version":1,"https_edges":[{"id":"edghts_a","created_at":"2026-01-01T00:00:00Z","description":"","metadata":"","hostports":[],"mutual_tls":null,"tls_termination":null,"routes":[{"id":"edghtsrt_a","created_at":"2026-01-01T00:00:00Z","match_type":"regex","match":"/","description":"","metadata":"","backend":null,"webhook_verification":null,"modules":{}}]}]}',
      /https_edges\[0\]\.routes\[0\]\.match_type/,
    ],
    [
      "a backend of the wrong kind",
      '{"version":1,"backends":{"static":[{"id":"bkdhr_a","created_at":"2026-01-01T00:00:00Z","description":"","metadata":"","fields":{}}]}}',
      /backends\.static\[0\]\.id "bkdhr_a" must be bkdsc_/,
    ],
    [
      "an endpoint without a url",
      '{"version":1,"endpoints":[{"id":"ep_a","created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z","type":"cloud","traffic_policy":"","description":"","metadata":"","bindings":[],"pooling_enabled":false}]}',
      /endpoints\[0\]\.url must be a string/,
    ],
  ])(
    "refuses a state file with %s as a usage error naming the path, and leaves it untouched",
    async (_what, content, why) => {
      await writeFile(file, content);
      const err = await startEmulator({ port: 0, stateFile: file }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StartError);
      expect((err as Error).message).toContain(file);
      expect((err as Error).message).toMatch(why);
      expect(await readFile(file, "utf8")).toBe(content);
      expect(await readdir(dir)).toEqual(["state.json"]);
    },
  );

  it("refuses a state file in a folder that does not exist", async () => {
    const err = await startEmulator({ port: 0, stateFile: join(dir, "missing", "state.json") }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StartError);
    expect((err as Error).message).toMatch(/folder does not exist/);
  });

  it("refuses a state path that is a folder", async () => {
    await mkdir(join(dir, "sub"));
    const err = await startEmulator({ port: 0, stateFile: join(dir, "sub") }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StartError);
    expect((err as Error).message).toMatch(/not a regular file/);
  });

  it("answers 500 with an error body when the state cannot be saved, and keeps serving", async () => {
    const emu = await startEmulator({ port: 0, stateFile: file });
    try {
      // Works as root too, where permissions would not stop the write.
      await rm(dir, { recursive: true, force: true });
      const r = await call(emu.url, "POST", "/backends/failover", { body: { backends: ["bkdhr_a"] } });
      expect(r.status).toBe(500);
      expect(r.headers.get("content-type")).toBe("application/json");
      expect(r.json.msg).toMatch(/could not save its state file \(ENOENT\)/);
      expect(r.json.details.operation_id).toMatch(/^op_/);
      await mkdir(dir);
      expect((await call(emu.url, "POST", "/backends/failover", { body: { backends: ["bkdhr_b"] } })).status).toBe(201);
      expect(await readdir(dir)).toEqual(["state.json"]);
    } finally {
      await mkdir(dir, { recursive: true });
      await emu.close();
    }
  });
});

describe("atomic writes", () => {
  it("leaves a complete, parseable file at every moment while writes are under way", async () => {
    const store = await Store.open(file);
    await store.createFailover({ backends: ["bkdhr_a"], description: "", metadata: "" });
    let reads = 0;
    const writes = { underWay: true };
    const reader = (async () => {
      while (writes.underWay) {
        const text = await readFile(file, "utf8");
        const state = JSON.parse(text); // throws on a half-written file
        expect(state.version).toBe(1);
        reads++;
      }
    })();
    await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        store.createFailover({ backends: ["bkdhr_a"], description: "x".repeat(200), metadata: `${i}` }),
      ),
    );
    writes.underWay = false;
    await reader;
    expect(reads).toBeGreaterThan(0);
    await store.close();
    expect(JSON.parse(await readFile(file, "utf8")).failover_backends).toHaveLength(301);
    expect(await readdir(dir)).toEqual(["state.json"]);
  });

  it("clears temp files left by a crashed writer at start-up, but not those of a live process", async () => {
    const dead = join(dir, ".state.json.999999999.3.tmp"); // above any pid_max: no such process
    const live = join(dir, `.state.json.${process.ppid}.1.tmp`);
    const other = join(dir, ".other.json.999999999.1.tmp");
    await Promise.all([writeFile(dead, "{"), writeFile(live, "{"), writeFile(other, "{")]);
    await (await Store.open(file)).close();
    expect((await readdir(dir)).sort()).toEqual([".other.json.999999999.1.tmp", `.state.json.${process.ppid}.1.tmp`]);
  });

  it("coalesces a burst of changes into few writes", async () => {
    const store = await Store.open(file);
    await Promise.all(
      Array.from({ length: 500 }, () => store.createFailover({ backends: ["bkdhr_a"], description: "", metadata: "" })),
    );
    // The first change starts a write; the other 499 arrive while it runs and share the next.
    expect(store.writeCount).toBe(2);
    expect(JSON.parse(await readFile(file, "utf8")).failover_backends).toHaveLength(500);
  });
});

describe("the emulator never writes a state it cannot load again (issue 25)", () => {
  it("restarts from a webhook module whose provider was sent in upper case (TWILIO), shown as sent", async () => {
    const first = await startEmulator({ port: 0, stateFile: file });
    const made = await makeRoute(first.url);
    const put = await call(first.url, "PUT", made.webhook, { body: { provider: "TWILIO", secret: "s" } });
    expect(put.status).toBe(200);
    await first.close();
    const second = await startEmulator({ port: 0, stateFile: file });
    try {
      expect((await call(second.url, "GET", made.webhook)).json).toEqual({
        enabled: true,
        provider: "TWILIO",
        secret: "s",
      });
    } finally {
      await second.close();
    }
  });

  it("checks every record it saves with the loader's own rules: one it could not load is refused, nothing changed", async () => {
    const store = await Store.open(file);
    try {
      const bad = { id: "bkdfo_x", created_at: "not a time", description: "", metadata: "", backends: ["bkdhr_a"] };
      await expect(store.save(store.failover, bad)).rejects.toThrow(/could not load again: .*created_at/);
      expect(store.failover.get("bkdfo_x")).toBeUndefined();
    } finally {
      await store.close();
    }
    await expect(readFile(file, "utf8")).rejects.toThrow(/ENOENT/);
  });
});

describe("--state through a symbolic link (issue 25)", () => {
  it("writes the link's target and keeps the link", async () => {
    const real = join(dir, "real.json");
    const link = join(dir, "link.json");
    await symlink("real.json", link); // dangling until the first change
    const emu = await startEmulator({ port: 0, stateFile: link });
    try {
      const a = await call(emu.url, "POST", "/backends/failover", { body: { backends: ["bkdhr_a"] } });
      expect(a.status).toBe(201);
      expect((await lstat(link)).isSymbolicLink()).toBe(true);
      expect(JSON.parse(await readFile(real, "utf8")).failover_backends[0].id).toBe(a.json.id);
      await call(emu.url, "POST", "/backends/failover", { body: { backends: ["bkdhr_b"] } });
      expect((await lstat(link)).isSymbolicLink()).toBe(true);
      expect(JSON.parse(await readFile(real, "utf8")).failover_backends).toHaveLength(2);
    } finally {
      await emu.close();
    }
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect((await readdir(dir)).sort()).toEqual(["link.json", "real.json"]);
  });

  it("locks the real path: an emulator on the link and one on its target do not run at once", async () => {
    const real = join(dir, "real.json");
    const link = join(dir, "link.json");
    await writeFile(real, '{"version":1}\n');
    await symlink(real, link);
    const emu = await startEmulator({ port: 0, stateFile: link });
    try {
      const err = await startEmulator({ port: 0, stateFile: real }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StartError);
      expect((err as Error).message).toMatch(/is in use by another emulator/);
      // A folder reached through a link is the same folder.
      await symlink(dir, join(dir, "again"));
      const err2 = await startEmulator({ port: 0, stateFile: join(dir, "again", "link.json") }).catch(
        (e: unknown) => e,
      );
      expect((err2 as Error).message).toMatch(/is in use by another emulator/);
    } finally {
      await emu.close();
    }
  });
});
