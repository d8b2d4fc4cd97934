import net from "node:net";

export interface TcpProxy {
  port: number;
  /** From now on, accept connections but never forward a byte; connections already open freeze for good. */
  stall(): void;
  /** New connections reach the target again (frozen ones stay frozen, like a dead network path). */
  forward(): void;
  /**
   * Resets every open connection at once, as a dropped network path or a restarted balancer does (the
   * client sees ECONNRESET); new connections are forwarded as before. Answers how many were cut.
   */
  cut(): number;
  close(): Promise<void>;
}

/**
 * A TCP proxy on 127.0.0.1 in front of a database, to play a database that accepts connections but never
 * answers. Port 0 picks a free port.
 */
export async function startTcpProxy(target: { host: string; port: number }, port = 0): Promise<TcpProxy> {
  let mode: "forward" | "stall" = "forward";
  const sockets = new Set<net.Socket>();
  const pairs = new Set<[net.Socket, net.Socket]>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
  };
  const freeze = ([client, upstream]: [net.Socket, net.Socket]) => {
    client.unpipe(upstream);
    upstream.unpipe(client);
    client.pause();
    upstream.pause();
  };

  const server = net.createServer((client) => {
    track(client);
    if (mode === "stall") {
      client.pause();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    track(upstream);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on("close", end);
    upstream.on("close", end);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const address = server.address() as net.AddressInfo;

  return {
    port: address.port,
    stall: () => {
      mode = "stall";
      for (const pair of pairs) freeze(pair);
      pairs.clear();
    },
    forward: () => {
      mode = "forward";
    },
    cut: () => {
      const count = pairs.size;
      for (const [client, upstream] of pairs) {
        client.resetAndDestroy();
        upstream.destroy();
      }
      pairs.clear();
      return count;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A loopback port nothing listens on (free when this returns). */
export async function unusedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
