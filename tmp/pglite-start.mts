import { PGlite } from "@electric-sql/pglite";
import { createDatabase } from "../src/server/db/client.ts";
let t = performance.now();
const c0 = new PGlite(); await c0.waitReady;
console.log("fresh init", (performance.now() - t).toFixed(0));
t = performance.now();
await createDatabase({ pglite: c0 }).migrate();
console.log("migrate", (performance.now() - t).toFixed(0));
t = performance.now();
const snap = await c0.dumpDataDir("none");
console.log("dump", (performance.now() - t).toFixed(0), snap.size);
await c0.close();
for (let i = 0; i < 3; i++) {
  t = performance.now();
  const c = new PGlite({ loadDataDir: snap }); await c.waitReady;
  console.log("load from snapshot", (performance.now() - t).toFixed(0));
  t = performance.now();
  await c.query("select count(*) from users");
  console.log("first query", (performance.now() - t).toFixed(0));
  t = performance.now();
  await c.exec("truncate table users cascade");
  console.log("truncate users cascade", (performance.now() - t).toFixed(0));
  await c.close();
}
