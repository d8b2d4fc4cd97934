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

export interface NotificationMailContent {
  name: string;
  subject: string;
  message: string;
  /** The ticket (or the notifications page) the message is about. */
  link: string;
  linkLabel: string;
  /** Which choice in /profile sends this mail, e.g. "Comments on my tickets". */
  typeLabel: string;
  unsubscribeUrl: string;
  settingsUrl: string;
}

export function notificationMail(to: string, c: NotificationMailContent): MailMessage {
  return {
    to,
    link: c.link,
    subject: c.subject,
    text: [
      `Hello ${c.name},`,
      "",
      c.message,
      "",
      `${c.linkLabel}: ${c.link}`,
      "",
      "--",
      `You receive this e-mail because "${c.typeLabel}" is on in your Helpdesk profile.`,
      `Stop these e-mails: ${c.unsubscribeUrl}`,
      `Choose which e-mails you receive: ${c.settingsUrl}`,
    ].join("\n"),
    html: `<p>Hello ${escapeHtml(c.name)},</p>
<p>${escapeHtml(c.message)}</p>
<p><a href="${escapeHtml(c.link)}">${escapeHtml(c.linkLabel)}</a></p>
<hr>
<p style="font-size:small;color:#555">You receive this e-mail because &quot;${escapeHtml(c.typeLabel)}&quot; is on in your Helpdesk profile.
<a href="${escapeHtml(c.unsubscribeUrl)}">Stop these e-mails</a> ·
<a href="${escapeHtml(c.settingsUrl)}">Choose which e-mails you receive</a></p>`,
  };
}

/** Add user in user management: the person chooses their own password from this link (no default password). */
export function invitationMail({
  to,
  name,
  invitedBy,
  url,
  validForHours,
}: {
  to: string;
  name: string;
  invitedBy: string;
  url: string;
  validForHours: number;
}): MailMessage {
  return {
    to,
    link: url,
    subject: "You are invited to Helpdesk",
    text: [
      `Hello ${name},`,
      "",
      `${invitedBy} has created a Helpdesk account for you. To choose your password and sign in, open this link:`,
      "",
      url,
      "",
      `The link works once and expires in ${validForHours} hours. If it has expired, ask for a new one on the "Forgot password?" page.`,
    ].join("\n"),
    html: `<p>Hello ${escapeHtml(name)},</p>
<p>${escapeHtml(invitedBy)} has created a Helpdesk account for you. To choose your password and sign in, open this link:</p>
<p><a href="${escapeHtml(url)}">Choose your password</a></p>
<p>The link works once and expires in ${validForHours} hours. If it has expired, ask for a new one on the "Forgot password?" page.</p>`,
  };
}

/** Reset password in user management: sent by an administrator, so it says so. */
export function adminPasswordResetMail({
  to,
  name,
  url,
}: {
  to: string;
  name: string;
  url: string;
}): MailMessage {
  return {
    to,
    link: url,
    subject: "Reset your Helpdesk password",
    text: [
      `Hello ${name},`,
      "",
      "An administrator asked for a password reset for your Helpdesk account. To choose a new password, open this link:",
      "",
      url,
      "",
      "The link works once and expires in one hour. Until you use it, your current password keeps working.",
    ].join("\n"),
    html: `<p>Hello ${escapeHtml(name)},</p>
<p>An administrator asked for a password reset for your Helpdesk account. To choose a new password, open this link:</p>
<p><a href="${escapeHtml(url)}">Reset your password</a></p>
<p>The link works once and expires in one hour. Until you use it, your current password keeps working.</p>`,
  };
}

/**
 * The polite answer to an e-mail the inbound listener could not turn into a ticket or comment (decision
 * 028). Marked Auto-Submitted: auto-replied (RFC 3834), so that no well-behaved system answers it.
 */
export function inboundRefusalMail({
  to,
  originalSubject,
  originalMessageId,
  reason,
  helpdeskUrl,
}: {
  to: string;
  originalSubject: string;
  originalMessageId: string | null;
  reason: string;
  helpdeskUrl: string;
}): MailMessage {
  const about = originalSubject.replace(/\s+/g, " ").trim().slice(0, 120) || "(no subject)";
  return {
    to,
    link: helpdeskUrl,
    subject: `[Helpdesk] Your e-mail was not accepted: ${about}`,
    text: [
      "Hello,",
      "",
      `Thank you for writing to the helpdesk. Your e-mail "${about}" could not be accepted:`,
      "",
      reason,
      "",
      `Helpdesk: ${helpdeskUrl}`,
      "",
      "--",
      "This is an automatic answer; replies to it are not read.",
    ].join("\n"),
    html: `<p>Hello,</p>
<p>Thank you for writing to the helpdesk. Your e-mail &quot;${escapeHtml(about)}&quot; could not be accepted:</p>
<p>${escapeHtml(reason)}</p>
<p><a href="${escapeHtml(helpdeskUrl)}">Open Helpdesk</a></p>
<hr>
<p style="font-size:small;color:#555">This is an automatic answer; replies to it are not read.</p>`,
    headers: {
      "Auto-Submitted": "auto-replied",
      "X-Auto-Response-Suppress": "All",
      ...(originalMessageId ? { "In-Reply-To": originalMessageId, References: originalMessageId } : {}),
    },
  };
}

/** INBOUND_UNKNOWN_SENDERS=create-account: an e-mail raised a ticket and made the person an account. */
export function accountFromEmailMail({
  to,
  name,
  ticketId,
  url,
  validForHours,
}: {
  to: string;
  name: string;
  ticketId: string;
  url: string;
  validForHours: number;
}): MailMessage {
  return {
    to,
    link: url,
    subject: `[Helpdesk] Your request [${ticketId}] was received`,
    text: [
      `Hello ${name},`,
      "",
      `Your e-mail was received as ticket ${ticketId}, and a Helpdesk account was created for this address so that you can follow it. To choose your password and sign in, open this link:`,
      "",
      url,
      "",
      `The link works once and expires in ${validForHours} hours. If it has expired, ask for a new one on the "Forgot password?" page. You can also simply reply to the e-mails about your ticket.`,
    ].join("\n"),
    html: `<p>Hello ${escapeHtml(name)},</p>
<p>Your e-mail was received as ticket ${escapeHtml(ticketId)}, and a Helpdesk account was created for this address so that you can follow it. To choose your password and sign in, open this link:</p>
<p><a href="${escapeHtml(url)}">Choose your password</a></p>
<p>The link works once and expires in ${validForHours} hours. If it has expired, ask for a new one on the "Forgot password?" page. You can also simply reply to the e-mails about your ticket.</p>`,
    headers: { "Auto-Submitted": "auto-replied" },
  };
}
