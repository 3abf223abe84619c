// The floor for a batch of GETs: a minimal node:http keep-alive client, 8 requests in flight
// (edgectl's default --concurrency), no parsing beyond a status check.
// node bench/keepalive-gets.cjs <base-url> <ids-file> [--json]; prints how many it got, or
// with --json reads each body, parses it and prints the list as edgectl -o json does: the
// same minimal client doing the work a batch must do with the answers.
"use strict";
const http = require("node:http");
const { readFileSync } = require("node:fs");
const [base, idsFile, mode] = process.argv.slice(2);
const json = mode === "--json";
const ids = readFileSync(idsFile, "utf8").split("\n").filter(Boolean);
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
const headers = {
  Authorization: `Bearer ${process.env.EDGECTL_API_KEY}`,
  "Ngrok-Version": "2",
  Accept: "application/json",
};
const found = new Array(ids.length);
let next = 0;
let got = 0;
function one() {
  if (next >= ids.length) return Promise.resolve();
  const index = next++;
  const id = ids[index];
  return new Promise((resolve, reject) => {
    http
      .get(`${base}/backends/failover/${id}`, { agent, headers }, (res) => {
        const chunks = [];
        if (json) res.on("data", (c) => chunks.push(c));
        else res.resume();
        res.on("end", () => {
          if (res.statusCode === 200) {
            got++;
            if (json) found[index] = JSON.parse(Buffer.concat(chunks).toString("utf8"));
          }
          resolve();
        });
      })
      .on("error", reject);
  }).then(one);
}
Promise.all(Array.from({ length: 8 }, one)).then(() => {
  process.stdout.write(json ? `${JSON.stringify(found, null, 2)}\n` : `${got}\n`);
  agent.destroy();
});
