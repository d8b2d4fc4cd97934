import { PGlite } from "@electric-sql/pglite";
import { createDatabase } from "../src/server/db/client.ts";
const c0 = new PGlite(); await c0.waitReady;
await createDatabase({ pglite: c0 }).migrate();
const snap = await c0.dumpDataDir("none");
let t = performance.now();
const base = new PGlite({ loadDataDir: snap }); await base.waitReady;
console.log("load", (performance.now() - t).toFixed(0));
for (let i = 0; i < 3; i++) {
  t = performance.now();
  const c = await base.clone();
  console.log("clone", (performance.now() - t).toFixed(0));
  t = performance.now();
  const r = await c.query("select count(*)::int as n from users");
  await c.exec("create table t" + i + " (a int)");
  console.log("first query", (performance.now() - t).toFixed(0), r.rows);
  await c.close();
}
const r = await base.query("select count(*)::int as n from pg_tables where tablename like 't_'"); console.log(r.rows);
