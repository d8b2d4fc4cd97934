import { hash, verify } from "@node-rs/argon2";

// argon2id at OWASP's minimum (19 MiB, t=2, p=1); @node-rs/argon2 runs it off the event loop.
const argon2idOptions = {
  algorithm: 2 /* Algorithm.Argon2id */,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
};

export function hashPassword(password: string): Promise<string> {
  return hash(password, argon2idOptions);
}

export async function verifyPassword({ hash: stored, password }: { hash: string; password: string }) {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}
