import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type ChildServer, startChildServer, stopChildServers } from "./test/child-server.ts";

// The production entry point (src/server/main.ts) in a child process, stopped the way an orchestrator stops
// it: SIGTERM while a request is under way.

const dataDir = mkdtempSync(path.join(os.tmpdir(), "helpdesk-shutdown-"));
let server: ChildServer | undefined;
afterAll(async () => {
  await stopChildServers();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A request's status, or "refused" when nothing listens any more. */
async function statusOf(port: number, pathname: string): Promise<number | "refused"> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}${pathname}`, { headers: { connection: "close" } });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return "refused";
  }
}

describe("graceful shutdown", () => {
  it("on SIGTERM answers /readyz with 503, stops taking connections, finishes the request under way and exits 0", async () => {
    server = await startChildServer({
      DATA_DIR: dataDir,
      BETTER_AUTH_SECRET: "a-secret-for-the-shutdown-test-0123456789",
      SHUTDOWN_DELAY_MS: "1500",
      // Longer than the test may take: the connection must close because its answer was sent, not cut off.
      SHUTDOWN_TIMEOUT_MS: "600000",
    });
    const { port, exited } = server;
    expect(await statusOf(port, "/readyz")).toBe(200);

    // A request under way: its headers are in, half its body is still to come.
    const body = JSON.stringify({ email: "nobody@example.test", password: "not-the-password" });
    const socket = net.connect(port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk.toString();
    });
    const socketClosed = new Promise((resolve) => socket.once("close", resolve));
    socket.write(
      `POST /api/auth/sign-in/email HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
    );

    server.process.kill("SIGTERM");
    // Draining: still listening, but the load balancer is told to send traffic elsewhere.
    await expect.poll(() => statusOf(port, "/readyz"), { timeout: 10_000, interval: 100 }).toBe(503);
    // Then no new connection is taken...
    await expect.poll(() => statusOf(port, "/healthz"), { timeout: 10_000, interval: 100 }).toBe("refused");
    // ...while the request under way still gets its answer.
    socket.write(body.slice(10));
    await socketClosed;
    expect(answer).toMatch(/^HTTP\/1\.1 [1-5]\d\d /);
    expect(answer).not.toMatch(/^HTTP\/1\.1 503 /);
    expect(await exited).toBe(0);
  }, 90_000);
});
