import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import nodemailer from "nodemailer";
import type Mail from "nodemailer/lib/mailer";
import type { InboundMailSettings } from "#server/features/inbound-mail/inbound-mail.service.ts";
import { createMailer } from "#server/mail/mailer.ts";
import type { startSmtpServer } from "./smtp.ts";
import { createTestApp } from "./test-app.ts";
import type { TestDatabaseOptions } from "./test-database.ts";

export const inboundSecret = "test-secret-test-secret-test-secret-0123";
export const helpdeskAddress = "helpdesk@help.test";
export const inboundMaxMessageBytes = 256 * 1024;

/**
 * The app with its inbound SMTP listener on loopback (decision 028), its own outgoing mail going to a real
 * SMTP server (`smtp`), and `send`: real mail over SMTP to the listener, as a mail server in front of it
 * would deliver it, to the helpdesk's address unless the message says otherwise.
 */
export async function startInboundMailApp(
  smtp: Awaited<ReturnType<typeof startSmtpServer>>,
  settings: Partial<InboundMailSettings> = {},
  databaseOptions: TestDatabaseOptions = {},
) {
  const t = await createTestApp(
    {
      authSecret: inboundSecret,
      mailer: createMailer({
        smtpUrl: smtp.url,
        outboxDir: path.join(mkdtempSync(path.join(os.tmpdir(), "helpdesk-outbox-")), "outbox"),
        from: "Helpdesk <helpdesk@test.local>",
        log: () => {},
      }),
      inboundMail: {
        host: "127.0.0.1",
        port: 0,
        address: helpdeskAddress,
        maxMessageBytes: inboundMaxMessageBytes,
        unknownSenders: "bounce",
        ownAddresses: ["helpdesk@test.local"],
        ...settings,
      },
    },
    databaseOptions,
  );
  const transport = nodemailer.createTransport({
    host: "127.0.0.1",
    port: t.app.inboundMail!.port()!,
    secure: false,
    ignoreTLS: true,
  });
  return { t, send: (message: Mail.Options) => transport.sendMail({ to: helpdeskAddress, ...message }) };
}
