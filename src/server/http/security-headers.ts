import helmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";

/** Strict CSP: only our own scripts, styles and connections; no inline scripts, no framing. */
export async function registerSecurityHeaders(app: FastifyInstance, { isHttps }: { isHttps: boolean }) {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
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
