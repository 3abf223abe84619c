// The floor for the emulator's traffic port: a bare node:http reverse proxy doing the same
// forward — hop-by-hop headers dropped, X-Forwarded-For/-Proto/-Host set, bodies streamed both
// ways over keep-alive connections to the upstream. node bench/bare-proxy.cjs <upstream-url>;
// prints its URL.
"use strict";
const http = require("node:http");
const target = new URL(process.argv[2]);
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
const HOP = new Set(["connection", "keep-alive", "proxy-connection", "te", "transfer-encoding", "upgrade", "trailer"]);
const server = http.createServer((req, res) => {
  const headers = {};
  for (const [k, v] of Object.entries(req.headers)) if (!HOP.has(k)) headers[k] = v;
  headers["x-forwarded-for"] = req.socket.remoteAddress;
  headers["x-forwarded-proto"] = "https";
  headers["x-forwarded-host"] = req.headers.host;
  const out = http.request(
    { hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent, setHost: false },
    (answer) => {
      const back = {};
      for (const [k, v] of Object.entries(answer.headers)) if (!HOP.has(k)) back[k] = v;
      res.writeHead(answer.statusCode, back);
      answer.pipe(res);
    },
  );
  out.on("error", () => {
    res.writeHead(502);
    res.end();
  });
  req.pipe(out);
});
server.listen(0, "127.0.0.1", () => process.stdout.write(`http://127.0.0.1:${server.address().port}\n`));
process.on("SIGTERM", () => process.exit(0));
