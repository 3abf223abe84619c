// The floor for the emulator's GET: a bare node:http server answering every request with the
// same Failover backend JSON the emulator returns. node bench/bare-server.cjs <json-file>;
// prints its URL.
"use strict";
const http = require("node:http");
const body = require("node:fs").readFileSync(process.argv[2]);
const server = http.createServer((req, res) => {
  req.resume();
  res.writeHead(200, { "Content-Type": "application/json", "Content-Length": body.length });
  res.end(body);
});
server.listen(0, "127.0.0.1", () => process.stdout.write(`http://127.0.0.1:${server.address().port}\n`));
process.on("SIGTERM", () => process.exit(0));
