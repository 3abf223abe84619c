// The official ngrok TypeScript client (@ngrok/ngrok-api) doing the same N gets as
// `edgectl failover get -` in one process, 8 at a time like edgectl's default --concurrency.
// Usage: node bench/ngrok-gets.mjs <base-url> <ids-file>; prints how many it got.
import { readFileSync } from "node:fs";
import { Ngrok } from "@ngrok/ngrok-api";

const [baseUrl, idsFile] = process.argv.slice(2);
const ids = readFileSync(idsFile, "utf8").split("\n").filter(Boolean);
const ngrok = new Ngrok({ apiToken: "bench-key", baseUrl });
let next = 0;
let got = 0;
async function worker() {
  while (next < ids.length) {
    const id = ids[next++];
    const backend = await ngrok.backends.failoverBackends.get(id);
    if (backend.id === id) got++;
  }
}
await Promise.all(Array.from({ length: 8 }, worker));
process.stdout.write(`${got}\n`);
