import { createHash } from "node:crypto";
import helmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";
import { themeScript } from "#shared/theme/theme-script.ts";

/** The CSP source that allows the inline theme script of index.html (decision 035), and nothing else inline. */
export const themeScriptHash = `'sha256-${createHash("sha256").update(themeScript).digest("base64")}'`;

/** Strict CSP: only our own scripts, styles and connections; no inline scripts but the theme one (by hash), no framing. */
export async function registerSecurityHeaders(app: FastifyInstance, { isHttps }: { isHttps: boolean }) {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", themeScriptHash],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", "data:"],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        mediaSrc: ["'self'", "data:"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(isHttps ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: isHttps,
    crossOriginEmbedderPolicy: false,
  });
}
