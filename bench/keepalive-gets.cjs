// The floor for a batch of GETs: a minimal node:http keep-alive client, 8 requests in flight
// (edgectl's default --concurrency), no parsing beyond a status check.
// node bench/keepalive-gets.cjs <base-url> <ids-file>; prints how many it got.
"use strict";
const http = require("node:http");
const { readFileSync } = require("node:fs");
const [base, idsFile] = process.argv.slice(2);
const ids = readFileSync(idsFile, "utf8").split("\n").filter(Boolean);
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
const headers = { Authorization: `Bearer ${process.env.EDGECTL_API_KEY}`, "Ngrok-Version": "2", Accept: "application/json" };
let next = 0;
let got = 0;
function one() {
  if (next >= ids.length) return Promise.resolve();
  const id = ids[next++];
  return new Promise((resolve, reject) => {
    http
      .get(`${base}/backends/failover/${id}`, { agent, headers }, (res) => {
        res.resume();
        res.on("end", () => {
          if (res.statusCode === 200) got++;
          resolve();
        });
      })
      .on("error", reject);
  }).then(one);
}
Promise.all(Array.from({ length: 8 }, one)).then(() => {
  process.stdout.write(`${got}\n`);
  agent.destroy();
});
