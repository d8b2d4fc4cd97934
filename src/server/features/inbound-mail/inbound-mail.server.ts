import type { AddressInfo } from "node:net";
import type { SMTPServerDataStream } from "smtp-server";
import { formatFileSize } from "#shared/attachments/attachment.schemas.ts";
import { classifyRecipient } from "./inbound-addresses.ts";
import { receiveInboundMail } from "./inbound-mail.service.ts";
import type { InboundMailDeps } from "./inbound-mail.types.ts";
import { replySenderRefusal } from "./reply-sender.ts";

export interface InboundMailListener {
  listen(): Promise<void>;
  /** The port it listens on (the one chosen by the system when configured as 0), or null before listen. */
  port(): number | null;
  close(): Promise<void>;
}

const smtpError = (responseCode: number, message: string) =>
  Object.assign(new Error(message), { responseCode });

/**
 * The app's own inbound SMTP listener (decision 028): meant to sit behind the organisation's mail server
 * (a transport for the helpdesk's domain to this port), so it speaks plain SMTP without AUTH or TLS.
 * It refuses at the envelope what it can (an address that is not ours, a forged reply address, a reply
 * address from another sender than its person, a message over the size limit) and hands every other
 * message to receiveInboundMail; a refusal that must not be answered by mail comes back from it and is
 * given as a 550 after DATA (decision 057).
 */
export async function createInboundMailListener(
  deps: InboundMailDeps & { host: string; port: number },
): Promise<InboundMailListener> {
  // Imported here, not at the top: a server without inbound mail never loads it (decision 044).
  const { SMTPServer } = await import("smtp-server");
  const { settings } = deps;
  const server = new SMTPServer({
    banner: "Helpdesk inbound mail",
    authOptional: true,
    disabledCommands: ["AUTH", "STARTTLS"],
    // Advertised as SIZE: a client that declares a larger message is refused before sending it.
    size: settings.maxMessageBytes,
    maxClients: 50,
    closeTimeout: 5_000,
    logger: false,
    onRcptTo(address, session, callback) {
      const verdict = classifyRecipient(deps.secret, settings, address.address);
      if (verdict.kind === "unknown") return callback(smtpError(550, "5.1.1 No such mailbox here"));
      if (verdict.kind === "forged") {
        deps.log.warn({ inbound: { to: address.address } }, "inbound mail: refused a forged reply address");
        return callback(smtpError(550, "5.1.1 This reply address is not valid"));
      }
      if (verdict.kind !== "reply") return callback();
      const mailFrom = session.envelope.mailFrom;
      const from = mailFrom ? mailFrom.address || null : null;
      replySenderRefusal(deps.db, verdict.target, { envelope: from }).then(
        (refusal) => {
          if (!refusal) return callback();
          deps.log.warn(
            { inbound: { from, to: address.address } },
            "inbound mail: refused a reply address from another sender",
          );
          callback(smtpError(550, refusal));
        },
        (error: unknown) => {
          deps.log.warn({ err: error }, "inbound mail: failed, the sender will retry");
          callback(smtpError(451, "4.3.0 Temporary failure, please try again later"));
        },
      );
    },
    onData(stream: SMTPServerDataStream, session, callback) {
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on("data", (chunk: Buffer) => {
        size += chunk.length;
        // Past the limit the rest is read and dropped (smtp-server must see the end of the data).
        if (size <= settings.maxMessageBytes) chunks.push(chunk);
      });
      stream.on("end", () => {
        if (stream.sizeExceeded || size > settings.maxMessageBytes) {
          deps.log.warn({ inbound: { size } }, "inbound mail: refused a message over the size limit");
          return callback(
            smtpError(552, `5.3.4 Message too big: at most ${formatFileSize(settings.maxMessageBytes)}`),
          );
        }
        const mailFrom = session.envelope.mailFrom;
        receiveInboundMail(
          deps,
          {
            from: mailFrom ? mailFrom.address || null : null,
            recipients: session.envelope.rcptTo.map((r) => r.address),
          },
          Buffer.concat(chunks),
        ).then(
          (result) =>
            result.outcome === "refused" && result.smtpRefusal
              ? callback(smtpError(550, result.smtpRefusal))
              : callback(),
          (error: unknown) => {
            deps.log.warn({ err: error }, "inbound mail: failed, the sender will retry");
            callback(smtpError(451, "4.3.0 Temporary failure, please try again later"));
          },
        );
      });
    },
  });
  server.on("error", (error) => deps.log.warn({ err: error }, "inbound mail: connection error"));

  return {
    listen: () =>
      new Promise<void>((resolve, reject) => {
        server.server.once("error", reject);
        server.listen(deps.port, deps.host, () => {
          server.server.off("error", reject);
          resolve();
        });
      }),
    port: () => (server.server.address() as AddressInfo | null)?.port ?? null,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
