import type { MailMessage } from "./mailer.ts";

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

export function passwordResetMail({ to, name, url }: { to: string; name: string; url: string }): MailMessage {
  return {
    to,
    link: url,
    subject: "Reset your Helpdesk password",
    text: [
      `Hello ${name},`,
      "",
      "Someone asked to reset the password of your Helpdesk account. To choose a new one, open this link:",
      "",
      url,
      "",
      "The link works once and expires in one hour. If you did not ask for this, ignore this message; your password stays as it is.",
    ].join("\n"),
    html: `<p>Hello ${escapeHtml(name)},</p>
<p>Someone asked to reset the password of your Helpdesk account. To choose a new one, open this link:</p>
<p><a href="${escapeHtml(url)}">Reset your password</a></p>
<p>The link works once and expires in one hour. If you did not ask for this, ignore this message; your password stays as it is.</p>`,
  };
}
