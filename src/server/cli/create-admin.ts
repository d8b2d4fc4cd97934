// `npm run create-admin -- --name "Ada Admin" --email ada@example.org` creates an administrator on the
// configured database (DATABASE_URL or the embedded one in DATA_DIR). The password comes from
// --password or, better (it stays out of shell history), from the ADMIN_PASSWORD environment variable.
import { parseArgs } from "node:util";
import { z } from "zod";
import { createDatabase } from "#server/db/client.ts";
import { loadDotEnvFile, loadEnv } from "#server/env.ts";
import { AppError } from "#server/errors.ts";
import { createAdmin } from "#server/features/users/admin-registration.service.ts";
import { describeIssues } from "#shared/errors.ts";
import { emailSchema, passwordSchema, personNameSchema } from "#shared/users/user.schemas.ts";

const { values } = parseArgs({
  options: { name: { type: "string" }, email: { type: "string" }, password: { type: "string" } },
});
const input = z
  .object({ name: personNameSchema, email: emailSchema, password: passwordSchema })
  .safeParse({ ...values, password: values.password ?? process.env.ADMIN_PASSWORD });
if (!input.success) {
  console.error(`Cannot create the administrator: ${describeIssues(input.error.issues)}`);
  console.error('Usage: ADMIN_PASSWORD=… npm run create-admin -- --name "Ada Admin" --email ada@example.org');
  process.exit(2);
}

loadDotEnvFile();
const env = loadEnv();
const database = createDatabase(
  env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { dataDir: env.DATA_DIR },
);
try {
  await database.migrate();
  const admin = await createAdmin(database.db, input.data);
  console.log(`Administrator ${admin.name} <${admin.email}> created. Sign in at ${env.BASE_URL}/sign-in`);
} catch (error) {
  const reason =
    error instanceof AppError && error.code === "conflict"
      ? `an account with the e-mail ${input.data.email} already exists`
      : error instanceof AppError
        ? error.message
        : error;
  console.error(`Cannot create the administrator: ${reason}`);
  process.exitCode = 1;
} finally {
  await database.close();
}
