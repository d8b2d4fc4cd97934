import net from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { signedInAs, signIn } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp, testBaseURL } from "#server/test/test-app.ts";

const mb = 1024 * 1024;
let free = 1024 * mb;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(
    {
      diskSpace: { dir: "/data", minFreeBytes: 64 * mb, freeBytes: async () => free },
      metricsToken: "metrics-token-0123456789",
    },
    {},
    {
      // A real disk_full (53100) from the real driver, as PostgreSQL and PGlite raise it.
      beforeReady: (app) =>
        app.post("/api/test/disk-full", async () => {
          await t.database.db.execute(
            sql`do $$ begin raise exception 'could not extend file "base/5/16390": No space left on device' using errcode = 'disk_full'; end $$`,
          );
        }),
    },
  );
});
afterAll(() => t.close());
beforeEach(async () => {
  free = 1024 * mb;
  await t.database.reset();
});

const ticket = {
  title: "Printer jammed",
  description: "Paper stuck",
  category: "Hardware",
  priority: "Low",
  department: "IT",
  floor: "1",
  officeNumber: "101",
};
const diskFullAnswer = {
  code: "insufficient_storage",
  message:
    "The server's disk is full: nothing new can be saved until an administrator frees space. What is already saved is safe and can still be read.",
};

it("refuses changes with 507 and says the disk is full while below the reserve; reading and sign-in go on", async () => {
  const { user, cookie } = await signedInAs(t.app, t.database.db, "user");
  free = 10 * mb;
  const refused = await request(t.app, { method: "POST", url: "/api/tickets", cookie, payload: ticket });
  expect(refused.statusCode).toBe(507);
  expect(refused.json()).toEqual(diskFullAnswer);
  expect((await request(t.app, { method: "GET", url: "/api/tickets", cookie })).statusCode).toBe(200);
  expect(await signIn(t.app, user.email)).toMatch(/^better-auth\.session_token=/);
});

it("takes changes again as soon as space is freed, without a restart", async () => {
  const { cookie } = await signedInAs(t.app, t.database.db, "user");
  free = 63 * mb;
  expect(
    (await request(t.app, { method: "POST", url: "/api/tickets", cookie, payload: ticket })).statusCode,
  ).toBe(507);
  free = 65 * mb;
  expect(
    (await request(t.app, { method: "POST", url: "/api/tickets", cookie, payload: ticket })).statusCode,
  ).toBe(201);
});

it("answers a refused upload once its body is all sent, so the client hears the 507 rather than a reset connection", async () => {
  const { cookie } = await signedInAs(t.app, t.database.db, "user");
  free = 10 * mb;
  const { port } = new URL(await t.app.listen({ port: 0, host: "127.0.0.1" }));
  const socket = net.connect(Number(port), "127.0.0.1");
  let received = "";
  socket.setEncoding("latin1");
  socket.on("data", (data: string) => {
    received += data;
  });
  const closed = new Promise<boolean>((resolve) => socket.on("close", resolve));
  const fileBytes = 2 * mb;
  // Half the file, then a pause: no answer yet, the server is still taking the body.
  socket.write(
    `POST /api/attachments?fileName=scan.pdf HTTP/1.1\r\nHost: localhost\r\nOrigin: ${testBaseURL}\r\n` +
      `Cookie: ${cookie}\r\nContent-Type: application/pdf\r\nContent-Length: ${fileBytes}\r\n\r\n` +
      "a".repeat(fileBytes / 2),
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(received).toBe("");
  socket.end("a".repeat(fileBytes / 2));
  // The upload route closes the connection after a refusal; the whole answer arrives first, no reset.
  expect(await closed).toBe(false);
  expect(received).toMatch(/^HTTP\/1\.1 507 /);
  expect(JSON.parse(received.slice(received.indexOf("\r\n\r\n") + 4))).toEqual(diskFullAnswer);
});

it("answers the database's own disk_full error with the same 507", async () => {
  const response = await request(t.app, { method: "POST", url: "/api/test/disk-full" });
  expect(response.statusCode).toBe(507);
  expect(response.json()).toEqual(diskFullAnswer);
});

it("reports the free space as a metric", async () => {
  free = 123 * mb;
  const response = await request(t.app, {
    method: "GET",
    url: "/metrics",
    headers: { authorization: "Bearer metrics-token-0123456789" },
  });
  expect(response.body).toContain(`helpdesk_data_dir_free_bytes ${123 * mb}`);
});
