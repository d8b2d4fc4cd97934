import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedWebhook {
  headers: http.IncomingHttpHeaders;
  body: string;
  path: string;
}

/**
 * A real HTTP server on loopback that receives webhooks: it records every request and answers with the
 * next programmed reply (200 once the program runs out). `hang` answers never, until closed.
 */
export async function startWebhookReceiver() {
  const received: ReceivedWebhook[] = [];
  const replies: Array<{ status: number; body?: string; headers?: Record<string, string> } | "hang"> = [];
  const waiting: Array<() => void> = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        path: request.url ?? "",
      });
      for (const wake of waiting.splice(0)) wake();
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
    reset() {
      received.length = 0;
      replies.length = 0;
    },
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
