// The app under test, as small as it gets: it appends each request it receives to a JSON-lines
// file (the first argument) and answers 200. Its URL is its first stdout line.
import { appendFileSync } from "node:fs";
import http from "node:http";

const file = process.argv[2] ?? "received.jsonl";
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const body = Buffer.concat(chunks).toString("utf8");
    appendFileSync(file, `${JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body })}\n`);
    res.end("thanks\n");
  });
});
server.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${server.address().port}`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
