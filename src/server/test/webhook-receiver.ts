import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedWebhook {
  headers: http.IncomingHttpHeaders;
  body: string;
  path: string;
}

/**
 * A real HTTP server on loopback that receives webhooks: it records every request and answers with the
 * next programmed reply (200 once the program runs out). `hang` answers never, until closed. A path given
 * to `holdPath` plays a receiver that hangs: its requests get no answer until `releaseHeld()`.
 */
export async function startWebhookReceiver() {
  const received: ReceivedWebhook[] = [];
  const replies: Array<{ status: number; body?: string; headers?: Record<string, string> } | "hang"> = [];
  const waiting: Array<() => void> = [];
  const hanging = new Set<http.ServerResponse>();
  const heldPaths = new Set<string>();
  const held: http.ServerResponse[] = [];
  /** Requests under way (received, not yet answered) by path, and the most there ever were at once. */
  const open = new Map<string, number>();
  const mostOpen = new Map<string, number>();
  const server = http.createServer((request, response) => {
    const path = request.url ?? "";
    open.set(path, (open.get(path) ?? 0) + 1);
    mostOpen.set(path, Math.max(mostOpen.get(path) ?? 0, open.get(path)!));
    response.on("close", () => open.set(path, (open.get(path) ?? 1) - 1));
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        path: request.url ?? "",
      });
      for (const wake of waiting.splice(0)) wake();
      if (heldPaths.has(path)) {
        held.push(response);
        return;
      }
      const reply = replies.shift() ?? { status: 200, body: "ok" };
      if (reply === "hang") {
        hanging.add(response);
        return;
      }
      response.writeHead(reply.status, { "content-type": "text/plain", ...reply.headers });
      response.end(reply.body ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: (path = "/hook") => `http://127.0.0.1:${port}${path}`,
    received,
    replies,
    /** Resolves once `count` requests have arrived (the app sends in the background). */
    async waitFor(count: number) {
      while (received.length < count) await new Promise<void>((resolve) => waiting.push(resolve));
    },
    /** Resolves once `count` requests to `path` have arrived. */
    async waitForPath(path: string, count: number) {
      while (received.filter((r) => r.path === path).length < count)
        await new Promise<void>((resolve) => waiting.push(resolve));
    },
    /** Requests to `path` get no answer from now on, until releaseHeld(). */
    holdPath(path: string) {
      heldPaths.add(path);
    },
    /** Requests to `path` received and not yet answered. */
    openOn: (path: string) => open.get(path) ?? 0,
    /** The most requests to `path` that were ever under way at once. */
    mostOpenOn: (path: string) => mostOpen.get(path) ?? 0,
    /** Answers every held request 200, and stops holding. */
    releaseHeld() {
      heldPaths.clear();
      for (const response of held.splice(0)) response.end("ok");
    },
    reset() {
      received.length = 0;
      replies.length = 0;
      heldPaths.clear();
      mostOpen.clear();
    },
    async close() {
      for (const response of [...hanging, ...held]) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
