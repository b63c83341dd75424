/**
 * Idle connections against a real server process (`deno run -P=http main.ts serve --transport http`):
 * half of them send unfinished headers, half send headers and a body that stalls after one byte. After
 * the body deadline (10 s) plus a margin, it counts the descriptors the server process holds
 * (/proc/<pid>/fd, Linux) and how many connections the server has closed.
 *
 * ```sh
 * deno run -A scripts/idle_connections.ts [connections=3000] [waitS=15]
 * ```
 */
const total = Number(Deno.args[0] ?? 3000);
const waitS = Number(Deno.args[1] ?? 15);
const port = 3900 + Math.floor(Math.random() * 90);
const root = new URL("..", import.meta.url).pathname;

const child = new Deno.Command("deno", {
  args: ["run", "-A", "main.ts", "serve", "--transport", "http"],
  cwd: root,
  env: { MCP_HTTP_PORT: String(port), MCP_AUTH_MODE: "none", MCP_LOG_LEVEL: "error" },
  stdout: "null",
  stderr: "null",
}).spawn();
const descriptors = () => [...Deno.readDirSync(`/proc/${child.pid}/fd`)].length;

for (let tries = 0;; tries++) {
  if (tries > 300) throw new Error("the server did not start");
  try {
    await (await fetch(`http://127.0.0.1:${port}/healthz`)).body?.cancel();
    break;
  } catch {
    await new Promise((r) => setTimeout(r, 100));
  }
}
const before = descriptors();
const encoder = new TextEncoder();
const conns: Deno.TcpConn[] = [];
let closedByServer = 0;
for (let i = 0; i < total; i++) {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const head = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n";
  await conn.write(encoder.encode(i % 2 ? head : `${head}content-length: 500\r\n\r\n{`));
  conns.push(conn);
  // Drain what the server says; count a close.
  (async () => {
    const buffer = new Uint8Array(1024);
    while ((await conn.read(buffer).catch(() => null)) !== null);
    closedByServer++;
  })();
}
const opened = descriptors();
await new Promise((r) => setTimeout(r, waitS * 1000));
const after = descriptors();
console.log(
  `${total} idle connections (half unfinished headers, half stalled bodies): server descriptors ` +
    `${before} before, ${opened} with them open, ${after} after ${waitS} s; ${closedByServer} closed by the server`,
);
for (const conn of conns) {
  try {
    conn.close();
  } catch { /* closed already */ }
}
child.kill("SIGTERM");
await child.status;
Deno.exit(0);
