// GET /backends/failover: newest first, paged by limit and before_id, with next_page_uri.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../src/emulator/server.js";
import { call } from "../helpers/emulator.js";

let emu: Emulator;
/** Ids in creation order (oldest first). */
const created: string[] = [];
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  // One at a time, so creation order is certain.
  for (let i = 0; i < 25; i++) {
    const r = await call(emu.url, "POST", "/backends/failover", {
      body: { backends: ["bkdhr_a"], description: `#${i}` },
    });
    created.push(r.json.id);
  }
});
afterAll(async () => {
  await emu.close();
});

const newestFirst = () => [...created].reverse();
const ids = (r: { json: { backends: { id: string }[] } }) => r.json.backends.map((b) => b.id);

describe("GET /backends/failover", () => {
  it("lists every backend newest first, with uri and a null next_page_uri, when they fit one page", async () => {
    const r = await call(emu.url, "GET", "/backends/failover");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/json");
    expect(Object.keys(r.json)).toEqual(["backends", "uri", "next_page_uri"]);
    expect(ids(r)).toEqual(newestFirst());
    expect(r.json.uri).toBe(`${emu.url}/backends/failover`);
    expect(r.json.next_page_uri).toBeNull();
    expect(r.json.backends[0]).toMatchObject({
      description: "#24",
      uri: `${emu.url}/backends/failover/${created[24]}`,
    });
  });

  it("pages with limit, pointing next_page_uri at the next page with before_id of the last item", async () => {
    const r = await call(emu.url, "GET", "/backends/failover?limit=10");
    expect(ids(r)).toEqual(newestFirst().slice(0, 10));
    expect(r.json.uri).toBe(`${emu.url}/backends/failover?limit=10`);
    const next = new URL(r.json.next_page_uri);
    expect(`${next.protocol}//${next.host}`).toBe(emu.url);
    expect(next.pathname).toBe("/backends/failover");
    expect(next.searchParams.get("before_id")).toBe(newestFirst()[9]);
    expect(next.searchParams.get("limit")).toBe("10");
  });

  it("walking next_page_uri visits every backend exactly once, newest first, and ends with null", async () => {
    const seen: string[] = [];
    let uri: string | null = `${emu.url}/backends/failover?limit=7`;
    let pages = 0;
    while (uri) {
      const r = await call(emu.url, "GET", uri);
      expect(r.status).toBe(200);
      seen.push(...ids(r));
      uri = r.json.next_page_uri;
      pages++;
    }
    expect(seen).toEqual(newestFirst());
    expect(pages).toBe(4);
  });

  it("has no next page when the last page is exactly full", async () => {
    const r = await call(emu.url, "GET", `/backends/failover?limit=5&before_id=${created[5]}`);
    expect(ids(r)).toEqual(created.slice(0, 5).reverse());
    expect(r.json.next_page_uri).toBeNull();
  });

  it("lists only older backends with before_id, even when that id has since been deleted", async () => {
    const extra = await call(emu.url, "POST", "/backends/failover", { body: { backends: ["bkdhr_a"] } });
    await call(emu.url, "DELETE", `/backends/failover/${extra.json.id}`);
    expect(ids(await call(emu.url, "GET", `/backends/failover?before_id=${extra.json.id}`))).toEqual(newestFirst());
    expect(ids(await call(emu.url, "GET", `/backends/failover?before_id=${created[3]}`))).toEqual(
      created.slice(0, 3).reverse(),
    );
    expect(ids(await call(emu.url, "GET", `/backends/failover?before_id=${created[0]}`))).toEqual([]);
  });

  it("accepts limits 1 and 100", async () => {
    expect(ids(await call(emu.url, "GET", "/backends/failover?limit=1"))).toEqual([created[24]]);
    expect(ids(await call(emu.url, "GET", "/backends/failover?limit=100"))).toHaveLength(25);
  });

  it.each([
    ["0", "ERR_NGROK_233"],
    ["101", "ERR_NGROK_233"],
    ["-1", "ERR_NGROK_244"],
    ["ten", "ERR_NGROK_244"],
    ["1.5", "ERR_NGROK_244"],
  ])("answers 400 for limit=%s", async (limit, code) => {
    const r = await call(emu.url, "GET", `/backends/failover?limit=${limit}`);
    expect(r.status).toBe(400);
    expect(r.json.error_code).toBe(code);
    expect(r.json.msg).toMatch(/limit/);
  });

  it("answers 400 for a malformed before_id, an unknown parameter and a repeated one", async () => {
    expect((await call(emu.url, "GET", "/backends/failover?before_id=nope")).json.error_code).toBe("ERR_NGROK_227");
    expect((await call(emu.url, "GET", "/backends/failover?page=2")).json.error_code).toBe("ERR_NGROK_231");
    expect((await call(emu.url, "GET", "/backends/failover?limit=1&limit=2")).json.error_code).toBe("ERR_NGROK_232");
  });

  it("shows an update in the list", async () => {
    await call(emu.url, "PATCH", `/backends/failover/${created[24]}`, { body: { description: "changed" } });
    const r = await call(emu.url, "GET", "/backends/failover?limit=1");
    expect(r.json.backends[0].description).toBe("changed");
  });
});

describe("links are built from the emulator's own address", () => {
  it("reached as localhost, it answers, and uri and next_page_uri still name its own address (issue 25: never Host)", async () => {
    const asLocalhost = emu.url.replace("127.0.0.1", "localhost");
    const r = await call(asLocalhost, "GET", "/backends/failover?limit=2");
    expect(r.status).toBe(200);
    expect(r.json.uri).toBe(`${emu.url}/backends/failover?limit=2`);
    expect(new URL(r.json.next_page_uri).origin).toBe(new URL(emu.url).origin);
    expect(r.json.backends[0].uri.startsWith(`${emu.url}/backends/failover/`)).toBe(true);
  });
});
