import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string[];
  raw: string;
}

/** A real SMTP server on loopback that keeps what it receives. */
export async function startSmtpServer() {
  const received: ReceivedMail[] = [];
  let toReject = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (toReject > 0) {
          toReject--;
          const error = Object.assign(new Error("Mailbox busy, try again later"), { responseCode: 451 });
          return callback(error);
        }
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /**
     * The mails to `address` once there are at least `count`, in the order received. Mail leaves the app
     * after commit, from its outbox, so a test waits for it; on a loaded machine (a CI run's parallel
     * files) that can take seconds, hence the generous limit: only a mail that never comes costs it.
     */
    async waitForMailTo(address: string, count = 1, timeoutMs = 15_000): Promise<ReceivedMail[]> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mails = received.filter((mail) => mail.to.includes(address));
        if (mails.length >= count) return mails;
        if (Date.now() > deadline) throw new Error(`${mails.length} of ${count} mails to ${address} arrived`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    /** The next `count` messages are refused with a temporary failure (451), as a busy server does. */
    rejectNext(count: number) {
      toReject = count;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The text of a message, with quoted-printable soft breaks and escapes undone. */
export function decodeMail(raw: string): string {
  return raw
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}
