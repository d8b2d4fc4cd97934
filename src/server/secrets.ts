import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * A secret from the environment, or else one generated on first start and kept in the data folder
 * (mode 0600), so that the embedded default runs with no set-up and keeps its sessions across restarts.
 */
export function loadOrCreateSecret(dataDir: string, fileName: string, fromEnv: string | undefined): string {
  if (fromEnv) return fromEnv;
  const file = path.resolve(dataDir, fileName);
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(path.dirname(file), { recursive: true });
    const secret = randomBytes(32).toString("base64url");
    writeFileSync(file, `${secret}\n`, { mode: 0o600 });
    return secret;
  }
}
