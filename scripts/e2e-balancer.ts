// Test-only: a loopback HTTP balancer for the two-instance browser journeys (scripts/e2e-server.ts with
// E2E_INSTANCES=2). Each request goes to the next instance in turn, whatever connection it came on, so one
// page's requests alternate between the instances; streams (Server-Sent Events) are piped as they come.
// Not a product feature: production runs behind a real reverse proxy (docs/operations.md).
import http from "node:http";

export interface Balancer {
  close(): Promise<void>;
  /** Requests sent to each backend so far, in the order of the backends. */
  counts(): number[];
}

export async function startBalancer(port: number, backends: number[]): Promise<Balancer> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const counts = backends.map(() => 0);
  let next = 0;
  const server = http.createServer((request, response) => {
    const index = next;
    next = (next + 1) % backends.length;
    counts[index]! += 1;
    const upstream = http.request(
      {
        host: "127.0.0.1",
        port: backends[index],
        method: request.method,
        path: request.url,
        // Host unchanged: the app checks it against BASE_URL, the balancer's address.
        headers: request.headers,
        agent,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(response);
      },
    );
    upstream.on("error", (error) => {
      if (!response.headersSent) response.writeHead(502, { "content-type": "text/plain" });
      response.end(`balancer: instance on port ${backends[index]} failed: ${error.message}\n`);
    });
    // The browser went away (a closed stream): end the request to the instance too.
    response.on("close", () => {
      if (!response.writableFinished) upstream.destroy();
    });
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    counts: () => [...counts],
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}
