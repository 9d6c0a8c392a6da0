// A small Node HTTP service on 127.0.0.1 that logs JSON lines the way pino/bunyan do (numeric
// level: 30 info, 40 warn, 50 error, 60 fatal), driven by its own bounded client loop.
// usage: node fleet_api.js PORT > service.log   (exits 1 after a fatal line, like a crashed sync)
"use strict";
const http = require("http");
const os = require("os");
const port = Number(process.argv[2] || 18290);
let seq = 0;
function log(level, obj, msg) {
  const rec = Object.assign({ level, time: Date.now(), pid: process.pid, hostname: os.hostname() }, obj, { msg });
  process.stdout.write(JSON.stringify(rec) + "\n");
}
const vessels = new Map();
for (let i = 1; i <= 40; i++) vessels.set(String(i), { id: i, name: `vessel-${i}`, speed: (i * 7) % 23 });
const server = http.createServer((req, res) => {
  const t0 = process.hrtime.bigint();
  const reqId = `req-${(++seq).toString(36)}`;
  let status = 200, body = "";
  const m = req.url.match(/^\/api\/vessels\/(\w+)$/);
  if (req.url === "/health") body = "ok";
  else if (m && vessels.has(m[1])) body = JSON.stringify(vessels.get(m[1]));
  else if (m) status = 404;
  else if (req.url.startsWith("/api/positions")) {
    if (req.url.includes("since=-1")) {
      status = 500;
      try { JSON.parse("{\"since\": -1,"); } catch (err) {
        log(50, { reqId, err: { type: err.name, message: err.message, stack: err.stack } }, "positions query failed");
      }
    } else body = "[]";
  } else status = 404;
  res.statusCode = status;
  res.end(body);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const lvl = status >= 500 ? 50 : status >= 400 ? 40 : 30;
  log(lvl, { reqId, req: { method: req.method, url: req.url, remoteAddress: req.socket.remoteAddress },
             res: { statusCode: status }, responseTime: Math.round(ms * 1000) / 1000 },
      status >= 400 ? "request errored" : "request completed");
});
server.listen(port, "127.0.0.1", async () => {
  log(30, { port, node: process.version }, "fleet-api listening");
  const paths = [];
  let r = 7;
  const rnd = () => { r = (r * 1103515245 + 12345) % 2147483648; return r / 2147483648; };
  for (let i = 0; i < 380; i++) {
    const x = rnd();
    if (x < 0.02) paths.push("/api/vessels/999");
    else if (x < 0.03) paths.push("/api/positions?since=-1");
    else if (x < 0.3) paths.push("/health");
    else if (x < 0.4) paths.push("/api/positions?since=" + Math.floor(rnd() * 1000));
    else paths.push("/api/vessels/" + (1 + Math.floor(rnd() * 40)));
  }
  for (const p of paths) {
    await new Promise((done) => http.get({ host: "127.0.0.1", port, path: p }, (res) => { res.resume(); res.on("end", done); }));
    if (p === "/api/vessels/999" && rnd() < 0.5) log(40, { vesselId: 999 }, "unknown vessel requested; cache may be stale");
  }
  log(30, { synced: vessels.size }, "position sync finished");
  try {
    require("fs").readFileSync("/nonexistent/fleet/registry.json");
  } catch (err) {
    log(60, { err: { type: err.name, code: err.code, message: err.message, stack: err.stack } }, "cannot load vessel registry, shutting down");
  }
  server.close(() => process.exit(1));
});
