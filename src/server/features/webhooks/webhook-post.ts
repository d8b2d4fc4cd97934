import { createHmac } from "node:crypto";
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { webhookHeaders } from "#shared/webhooks/webhook.schemas.ts";
import { guardedLookup, hostOf, isPrivateAddress, WebhookTargetError } from "./webhook-target.ts";

/** How long one attempt may take, connection to last byte read. */
export const webhookTimeoutMs = 10_000;
/** How much of a receiver's answer is kept for the delivery log. */
export const webhookResponseBodyLimit = 1024;

/** `v1=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`: what a receiver recomputes (docs/api.md). */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

export type WebhookPostResult =
  | { kind: "response"; status: number; body: string }
  | {
      kind: "error";
      error: string /** Refused by the SSRF guard: retrying would not help. */;
      refused: boolean;
    };

/** What the delivery log says of an attempt that did not deliver (null: it delivered, a 2xx). */
export function failureOf(result: WebhookPostResult): string | null {
  if (result.kind === "error") return result.error;
  if (result.status >= 200 && result.status < 300) return null;
  return result.status >= 300 && result.status < 400
    ? `The receiver answered ${result.status} (redirects are not followed)`
    : `The receiver answered ${result.status}`;
}

/**
 * One attempt: POSTs the body, signed, to the URL. Never follows a redirect (a 3xx is an answer like any
 * other), gives up after the timeout, and keeps only the first KB of the answer. Never throws.
 */
export function postWebhook({
  url: rawUrl,
  body,
  secret,
  deliveryId,
  timestamp,
  allowPrivate,
  timeoutMs = webhookTimeoutMs,
}: {
  url: string;
  body: string;
  secret: string;
  deliveryId: string;
  timestamp: number;
  allowPrivate: boolean;
  timeoutMs?: number;
}): Promise<WebhookPostResult> {
  return new Promise((resolve) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (result: WebhookPostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return finish({ kind: "error", error: "The URL is not valid", refused: true });
    }
    const host = hostOf(url);
    // A literal address is connected to without a lookup: check it here.
    if (isIP(host) && !allowPrivate && isPrivateAddress(host)) {
      return finish({
        kind: "error",
        error: `${host} is a private, loopback or reserved address; webhooks may not be sent there`,
        refused: true,
      });
    }
    const client = url.protocol === "https:" ? https : url.protocol === "http:" ? http : null;
    if (!client) return finish({ kind: "error", error: "Only http and https are supported", refused: true });
    const request = client.request(url, {
      method: "POST",
      agent: false,
      lookup: guardedLookup({ allowPrivate }) as never,
      headers: {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body),
        "user-agent": "Helpdesk-Webhooks/1",
        [webhookHeaders.id]: deliveryId,
        [webhookHeaders.timestamp]: String(timestamp),
        [webhookHeaders.signature]: webhookSignature(secret, timestamp, body),
      },
    });
    timer = setTimeout(() => {
      request.destroy(new Error(`No answer within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    request.on("error", (error) => {
      const refused = error instanceof WebhookTargetError;
      finish({ kind: "error", error: error.message || String(error), refused });
    });
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      const done = () =>
        finish({
          kind: "response",
          status: response.statusCode ?? 0,
          body: Buffer.concat(chunks).toString("utf8").replaceAll("\u0000", ""),
        });
      response.on("data", (chunk: Buffer) => {
        if (kept >= webhookResponseBodyLimit) return;
        const part = chunk.subarray(0, webhookResponseBodyLimit - kept);
        chunks.push(part);
        kept += part.length;
        // Enough read: the rest of a large answer is not waited for.
        if (kept >= webhookResponseBodyLimit) {
          done();
          response.destroy();
        }
      });
      response.on("end", done);
      response.on("error", done);
      response.on("close", done);
    });
    request.end(body);
  });
}
