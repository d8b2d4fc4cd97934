import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import { hashPassword } from "#server/auth/password.ts";
import type { Db } from "#server/db/client.ts";
import { AppError, forbidden } from "#server/errors.ts";
import type { AdminSignUpInput, Me } from "#shared/users/user.schemas.ts";
import { toMeDto } from "./user.presenter.ts";
import { findUserByEmail, insertUserWithPassword } from "./user.queries.ts";

export const invalidAdminKey = "Invalid admin key. Access denied.";
export const adminRegistrationFailed = "Something went wrong with the admin registration";

/** Compares digests so that neither the key's content nor its length leaks through timing. */
export function adminKeyMatches(given: string, expected: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** Creates an administrator: from /admin-signup with the server's key, or from the create-admin CLI. */
export async function registerAdmin(
  db: Db,
  { name, email, password, adminKey }: AdminSignUpInput,
  expectedKey: string,
): Promise<Me> {
  if (!adminKeyMatches(adminKey, expectedKey)) throw forbidden(invalidAdminKey);
  return createAdmin(db, { name, email, password });
}

export async function createAdmin(
  db: Db,
  { name, email, password }: { name: string; email: string; password: string },
): Promise<Me> {
  if (await findUserByEmail(db, email)) throw new AppError("conflict", adminRegistrationFailed);
  const user = await insertUserWithPassword(
    db,
    { id: randomUUID(), name, email: email.toLowerCase(), role: "admin" },
    await hashPassword(password),
  );
  return toMeDto(user);
}
