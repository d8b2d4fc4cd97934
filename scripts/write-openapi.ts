// Writes the OpenAPI document (GET /api/openapi.json) to a file without starting a server, for
// `npm run lint:api` (redocly lint, redocly.yaml): the real app on an empty in-memory PGlite, asked once.
// Usage: tsx scripts/write-openapi.ts <file>   (BASE_URL names the servers entry; http://localhost:3000 without it)
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { buildApp } from "#server/app.ts";
import { createDatabase } from "#server/db/client.ts";
import { createMailer } from "#server/mail/mailer.ts";

const target = process.argv[2];
if (!target) throw new Error("Name the file to write: tsx scripts/write-openapi.ts <file>");

const database = createDatabase({ pglite: new PGlite() });
await database.migrate();
const app = await buildApp({
  database,
  baseURL: process.env.BASE_URL ?? "http://localhost:3000",
  authSecret: "write-openapi-only-secret-never-serves-anyone",
  clientDir: null,
  adminSignUpKey: "write-openapi-only-key-never-serves-anyone",
  logger: false,
  // The document is all this app ever answers: no scheduled job runs before it closes.
  jobs: { firstTickMs: 60 * 60_000, tickMs: 60 * 60_000 },
  mailer: createMailer({
    outboxDir: path.join(mkdtempSync(path.join(os.tmpdir(), "helpdesk-openapi-")), "outbox"),
    from: "Helpdesk <helpdesk@localhost>",
    log: () => {},
  }),
});
try {
  const response = await app.inject({ method: "GET", url: "/api/openapi.json" });
  if (response.statusCode !== 200) throw new Error(`GET /api/openapi.json answered ${response.statusCode}`);
  mkdirSync(path.dirname(path.resolve(target)), { recursive: true });
  writeFileSync(target, `${JSON.stringify(response.json(), null, 2)}\n`);
  console.log(`wrote ${target}`);
} finally {
  await app.close();
  await database.close();
}
