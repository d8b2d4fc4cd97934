import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

// What personal API tokens (decision 024) and SCIM tokens (decision 081) share: a random id that finds the
// row, a random secret of which only the SHA-256 is stored, and a comparison that takes the same time
// whether the row exists or not.

/** A new token's id (16 hex digits) and secret (32 random bytes, base64url), and the hash to store. */
export function newTokenSecret(): { id: string; secret: string; hash: string } {
  const secret = randomBytes(32).toString("base64url");
  return { id: randomBytes(8).toString("hex"), secret, hash: hashSecret(secret) };
}

export const hashSecret = (secret: string) => createHash("sha256").update(secret).digest("hex");

/** Whether `secret` is the one `storedHash` was made from; an absent row compares against zeros. */
export function secretMatches(storedHash: string | undefined, secret: string): boolean {
  const given = Buffer.from(hashSecret(secret), "hex");
  const stored = Buffer.from(storedHash ?? "0".repeat(64), "hex");
  return storedHash !== undefined && stored.length === given.length && timingSafeEqual(stored, given);
}
