import { createHmac } from "node:crypto";

// RFC 6238 written out here, independent of the library the server uses, so that a test signs in the way
// an authenticator app would: from the otpauth:// URI the person scans.

const base32Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

function base32Decode(text: string): Buffer {
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of text.replace(/=+$/, "").toUpperCase()) {
    const index = base32Alphabet.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** The base32 secret of an otpauth://totp/… URI. */
export function secretOf(otpauthUri: string): string {
  const secret = new URL(otpauthUri).searchParams.get("secret");
  if (!secret) throw new Error(`no secret in ${otpauthUri}`);
  return secret;
}

/** The 6-digit code an authenticator app shows for this base32 secret at `at` (30-second steps, SHA-1). */
export function totpCode(base32Secret: string, at = Date.now()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const hmac = createHmac("sha1", base32Decode(base32Secret)).update(counter).digest();
  const offset = hmac[hmac.length - 1]! & 0x0f;
  const binary = hmac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 1_000_000).padStart(6, "0");
}
