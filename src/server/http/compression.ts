import compress from "@fastify/compress";
import type { FastifyInstance } from "fastify";

/** Below this many bytes, compressing costs more time than it saves on the wire. */
export const compressionThreshold = 1024;

// Text and JSON, but never text/event-stream: a push stream must reach the browser event by event,
// not sit in a compressor's buffer.
export const compressibleTypes =
  /^text\/(?!event-stream)|(?:\+|\/)json(?:;|$)|(?:\+|\/)(?:javascript|xml)(?:;|$)/;

/**
 * Compresses dynamic answers (API JSON, index.html) above the threshold with brotli or gzip, as the
 * client accepts. Built assets are already compressed at build time and served as they are.
 */
export async function registerCompression(app: FastifyInstance) {
  await app.register(compress, {
    global: true,
    threshold: compressionThreshold,
    encodings: ["br", "gzip"],
    customTypes: compressibleTypes,
  });
}
