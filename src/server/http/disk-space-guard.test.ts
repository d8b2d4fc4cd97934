import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { signedInAs, signIn } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";

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
