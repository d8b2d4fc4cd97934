import { brotliDecompressSync, gunzipSync } from "node:zlib";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTicket, signedInAs } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import { registerCompression } from "./compression.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("compressed API answers", () => {
  it("compresses a JSON answer above 1 KB with brotli or gzip, as the client accepts", async () => {
    const { user, cookie } = await signedInAs(t.app, t.database.db, "user");
    for (let index = 0; index < 10; index++) await insertTicket(t.database.db, { createdBy: user.id });

    const plain = await request(t.app, { method: "GET", url: "/api/tickets", cookie });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const br = await request(t.app, {
      method: "GET",
      url: "/api/tickets",
      cookie,
      headers: { "accept-encoding": "gzip, deflate, br" },
    });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());

    const gzip = await request(t.app, {
      method: "GET",
      url: "/api/tickets",
      cookie,
      headers: { "accept-encoding": "gzip" },
    });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString())).toEqual(plain.json());
  });

  it("sends small answers as they are", async () => {
    const response = await request(t.app, {
      method: "GET",
      url: "/api/auth/providers",
      headers: { "accept-encoding": "br, gzip" },
    });
    expect(response.rawPayload.length).toBeLessThan(1024);
    expect(response.headers["content-encoding"]).toBeUndefined();
    expect(response.json()).toMatchObject({ google: false });
  });

  it("never compresses an event stream, which must reach the browser event by event", async () => {
    const app = Fastify();
    await registerCompression(app);
    app.get("/stream", (_request, reply) =>
      reply.type("text/event-stream").send(`data: ${"x".repeat(4000)}\n\n`),
    );
    const response = await app.inject({
      method: "GET",
      url: "/stream",
      headers: { "accept-encoding": "br" },
    });
    expect(response.headers["content-encoding"]).toBeUndefined();
    await app.close();
  });
});
