// The floor for one GET: a bare node:http script doing what `edgectl failover get <id>` (or
// `edgectl endpoint get <id>`) does on the wire (same headers), printing the body.
// node bench/bare-get.cjs <base-url> <id> [collection: backends/failover (default) or endpoints]
"use strict";
const http = require("node:http");
const [base, id, collection = "backends/failover"] = process.argv.slice(2);
const headers = {
  Authorization: `Bearer ${process.env.EDGECTL_API_KEY}`,
  "Ngrok-Version": "2",
  Accept: "application/json",
};
http.get(`${base}/${collection}/${id}`, { headers }, (res) => {
  let body = "";
  res.setEncoding("utf8");
  res.on("data", (c) => (body += c));
  res.on("end", () => {
    process.stdout.write(`${body}\n`);
    process.exitCode = res.statusCode === 200 ? 0 : 1;
  });
});
