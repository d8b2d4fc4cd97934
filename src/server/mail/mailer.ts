import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The one link the message is about; the outbox logs it so a single-machine install can follow it. */
  link?: string;
  /** Extra headers, e.g. List-Unsubscribe and List-Unsubscribe-Post (RFC 8058). */
  headers?: Record<string, string>;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export interface MailerConfig {
  /** smtp://user:pass@host:587 or smtps://…; when unset, messages go to outboxDir as .eml files. */
  smtpUrl?: string;
  outboxDir: string;
  from: string;
  log: (message: string) => void;
}

/**
 * Real e-mail over SMTP (nodemailer). Without SMTP_URL, the embedded default writes each message as an
 * .eml file under DATA_DIR/outbox and logs where, so a single-machine install still gets its links.
 */
export function createMailer({ smtpUrl, outboxDir, from, log }: MailerConfig): Mailer {
  if (smtpUrl) {
    const transport = nodemailer.createTransport(smtpUrl);
    return {
      async send(message) {
        await transport.sendMail({
          from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          headers: message.headers,
        });
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    async send(message) {
      const info = await transport.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        headers: message.headers,
      });
      await mkdir(outboxDir, { recursive: true });
      const file = path.join(
        outboxDir,
        `${new Date().toISOString().replace(/[:.]/g, "-")}-${info.messageId.replace(/[^\w.-]/g, "")}.eml`,
      );
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      const link = message.link ? `; its link: ${message.link}` : "";
      log(`No SMTP_URL set: wrote "${message.subject}" for ${message.to} to ${file}${link}`);
    },
  };
}
