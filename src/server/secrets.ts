import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * A secret from the environment, or else one generated on first start and kept in the data folder
 * (mode 0600), so that the embedded default runs with no set-up and keeps it across restarts.
 * `created` is true only on the start that generated it, so the caller can print it once.
 */
export function loadOrCreateSecret(
  dataDir: string,
  fileName: string,
  fromEnv: string | undefined,
): { value: string; created: boolean } {
  if (fromEnv) return { value: fromEnv, created: false };
  const file = path.resolve(dataDir, fileName);
  try {
    return { value: readFileSync(file, "utf8").trim(), created: false };
  } catch {
    mkdirSync(path.dirname(file), { recursive: true });
    const value = randomBytes(24).toString("base64url");
    writeFileSync(file, `${value}\n`, { mode: 0o600 });
    return { value, created: true };
  }
}
