import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { Headset, type LucideIcon, ShieldCheck, UserRound } from "lucide-react";
import { type ReactNode, useEffect } from "react";
import { Card } from "#client/components/ui/card.tsx";
import { PageHeader } from "#client/components/ui/page-header.tsx";
import { HelpArticlesLink } from "#client/features/articles/components/help-articles-link.tsx";
import { Link } from "#client/lib/router/links.tsx";
import { useLocation } from "#client/lib/router/router.tsx";

const sections = [
  { id: "about", title: msg`About` },
  { id: "roles", title: msg`Roles` },
  { id: "mission", title: msg`Mission` },
  { id: "pages", title: msg`Pages` },
] as const;

interface RoleHelp {
  title: MessageDescriptor;
  icon: LucideIcon;
  summary: MessageDescriptor;
  abilities: readonly MessageDescriptor[];
}

/** The roles (docs/features.md, "Roles") as the server enforces them. */
const roleHelp: readonly RoleHelp[] = [
  {
    title: msg`User`,
    icon: UserRound,
    summary: msg`Anyone in the organisation who needs IT help.`,
    abilities: [
      msg`Raises tickets: title, description, category, priority, department, floor and office number.`,
      msg`Sees the tickets they created, follows their status and comments on them.`,
      msg`Rates a resolved ticket they created, from 1 (Very Dissatisfied) to 5 (Very Satisfied).`,
    ],
  },
  {
    title: msg`Technician`,
    icon: Headset,
    summary: msg`IT staff who solve the problems.`,
    abilities: [
      msg`Sees unassigned tickets and the tickets assigned to them, newest first.`,
      msg`Takes an open, unassigned ticket with Assign to Me; it moves to In Progress.`,
      msg`Sets a ticket In Progress, Resolved or Closed, and comments.`,
      msg`Hears and sees an alert the moment a ticket is created or commented on.`,
      msg`Does not create tickets.`,
    ],
  },
  {
    title: msg`Director (admin)`,
    icon: ShieldCheck,
    summary: msg`Administrators who oversee the whole helpdesk.`,
    abilities: [
      msg`Sees every ticket, changes status, comments and can create tickets.`,
      msg`Sees every user, and in User Management edits a person's name, role, department and status, invites new people by e-mail, sends password resets and activates or deactivates accounts.`,
      msg`Admin accounts are created only through Admin Registration with the secret key.`,
    ],
  },
];

interface PageHelp {
  path: string;
  name: MessageDescriptor;
  description: MessageDescriptor;
}

const pageHelp: readonly PageHelp[] = [
  {
    path: "/sign-in",
    name: msg`Sign In`,
    description: msg`Email and password, with a show/hide toggle, or Continue with Google or your organisation's sign-in where configured. Also the start page (/).`,
  },
  {
    path: "/sign-up",
    name: msg`Sign Up`,
    description: msg`Create an account with name, email and password, as a user (default) or a technician.`,
  },
  {
    path: "/forgot-password",
    name: msg`Forgot Password`,
    description: msg`Enter your email and Send Reset Password: a link to choose a new password arrives by mail.`,
  },
  {
    path: "/admin-signup",
    name: msg`Admin Registration`,
    description: msg`Creates an administrator account; needs the admin secret key from the operator.`,
  },
  {
    path: "/role-selection",
    name: msg`Role Selection`,
    description: msg`After a first sign-in with Google or single sign-on, choose user or technician. An administrator can change it later.`,
  },
  {
    path: "/user-home",
    name: msg`User Dashboard`,
    description: msg`Counts of your tickets (Total Tickets, Open, In Progress, Resolved), My Support Tickets, and the Create New Ticket form.`,
  },
  {
    path: "/technician-home",
    name: msg`Technician Dashboard`,
    description: msg`Counts Total Available, Assigned to Me, Unassigned and Resolved, with the tabs All Tickets, My Tickets and Unassigned.`,
  },
  {
    path: "/admin-home",
    name: msg`Admin Dashboard`,
    description: msg`Overview with ticket and user counts, All Tickets filtered by status, and the User Management tab.`,
  },
  {
    path: "/tickets",
    name: msg`Tickets`,
    description: msg`The tickets your role may see. Open one for its details, comments, history, status buttons, Assign to Me and feedback.`,
  },
  {
    path: "/notifications",
    name: msg`Notifications`,
    description: msg`Everything that happened to your tickets, with the tabs All, Unread and Read, Mark as read and Mark All as Read. The bell in the header shows the unread count and the latest items, and new ones arrive live.`,
  },
  {
    path: "/profile",
    name: msg`Profile`,
    description: msg`Your name (Edit, then Apply changes), email and role, your notification settings, and Sign Out.`,
  },
  {
    path: "/admin/user-management",
    name: msg`User Management`,
    description: msg`Administrators manage accounts here; everyone else sees that access is denied.`,
  },
  {
    path: "/demo/user-management",
    name: msg`User Management Demo`,
    description: msg`Try the user management screen on ten sample people; nothing is saved.`,
  },
  {
    path: "/Knowledge-base",
    name: msg`Knowledge Base`,
    description: msg`This page.`,
  },
  {
    path: "/test-notifications",
    name: msg`Test Notifications`,
    description: msg`For developers: play the notification sounds and alerts.`,
  },
  {
    path: "/debug-notifications",
    name: msg`Debug Notifications`,
    description: msg`For developers: create test notifications and watch the live connection.`,
  },
];

/** /Knowledge-base: static help about Helpdesk, one anchor per section. */
export default function AppHelpPage() {
  const { t, i18n } = useLingui();
  const { hash } = useLocation();

  // The page loads lazily, after the router has looked for the anchor: go to it (and move focus there,
  // so the keyboard continues from it) once the sections exist, and again on each table-of-contents link.
  useEffect(() => {
    const target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    if (!target) return;
    target.scrollIntoView();
    target.focus({ preventScroll: true });
  }, [hash]);

  return (
    <>
      <PageHeader
        title={t`Knowledge Base`}
        description={t`How Helpdesk works, who does what, and where to find it.`}
        actions={<HelpArticlesLink />}
      />
      <div className="grid gap-6 lg:grid-cols-[12rem_1fr] lg:items-start">
        <nav aria-label={t`On this page`} className="lg:sticky lg:top-24">
          <Card className="p-4">
            <p className="mb-2 text-xs font-semibold tracking-wide text-slate-500 uppercase">
              <Trans>On this page</Trans>
            </p>
            <ul className="flex flex-wrap gap-1 lg:flex-col">
              {sections.map((section) => (
                <li key={section.id}>
                  <Link
                    to={{ hash: section.id }}
                    className="block rounded-lg px-3 py-1.5 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
                  >
                    {i18n._(section.title)}
                  </Link>
                </li>
              ))}
            </ul>
          </Card>
        </nav>

        <div className="flex min-w-0 flex-col gap-6">
          <HelpSection id="about" title={t`About`}>
            <p>
              <Trans>
                Helpdesk is the organisation's IT support desk. When something technical goes wrong, you raise
                a ticket; a technician takes it, keeps you informed and solves it; directors oversee all
                tickets and all user accounts.
              </Trans>
            </p>
            <ul className="list-disc space-y-1.5 pl-5">
              <li>
                <Trans>
                  <strong>Sign up</strong> with your name, email and a password, choosing user or technician,
                  or continue with Google or your organisation's sign-in.
                </Trans>
              </li>
              <li>
                <Trans>
                  <strong>Sign in</strong> and you land on the dashboard for your role.
                </Trans>
              </li>
              <li>
                <Trans>
                  <strong>Dashboards</strong> show ticket counts at a glance (and user counts for directors).
                </Trans>
              </li>
              <li>
                <Trans>
                  <strong>Tickets</strong>: create them, follow their status from Open through In Progress and
                  Resolved to Closed, comment, and rate the result.
                </Trans>
              </li>
              <li>
                <Trans>
                  <strong>Notifications</strong>: the bell and the Notifications page tell you when a ticket
                  of yours changes or gets a comment, live; technicians also hear an alert for new tickets and
                  comments. In your profile you choose which also reach you by e-mail, and you can mute the
                  sounds.
                </Trans>
              </li>
              <li>
                <Trans>
                  <strong>Profile</strong>: change your name and sign out.
                </Trans>
              </li>
            </ul>
          </HelpSection>

          <HelpSection id="roles" title={t`Roles`}>
            <p>
              <Trans>
                Every person has one of three roles. The server checks each rule on every request, so what you
                see is exactly what you may do.
              </Trans>
            </p>
            <div className="grid gap-4 md:grid-cols-3">
              {roleHelp.map((role) => (
                <div key={role.title.id} className="rounded-lg border border-slate-200 p-4">
                  <h3 className="flex items-center gap-2 font-semibold text-slate-900">
                    <role.icon aria-hidden="true" className="size-5 text-indigo-600" />
                    {i18n._(role.title)}
                  </h3>
                  <p className="mt-1 text-slate-500">{i18n._(role.summary)}</p>
                  <ul className="mt-3 list-disc space-y-1.5 pl-5">
                    {role.abilities.map((ability) => (
                      <li key={ability.id}>{i18n._(ability)}</li>
                    ))}
                  </ul>
                </div>
              ))}
            </div>
          </HelpSection>

          <HelpSection id="mission" title={t`Mission`}>
            <p>
              <Trans>
                Get every IT problem from "something is broken" to "fixed" quickly and in the open: one place
                to report it, one person clearly responsible for it, a status everyone involved can follow,
                and a notification instead of a phone call whenever something changes.
              </Trans>
            </p>
          </HelpSection>

          <HelpSection id="pages" title={t`Pages`}>
            <p>
              <Trans>
                The header leads to the Dashboard for your role, Tickets, this Knowledge Base, Notifications
                and your Profile; on a phone, open them with the menu button.
              </Trans>
            </p>
            <dl className="divide-y divide-slate-100 rounded-lg border border-slate-200">
              {pageHelp.map((page) => (
                <div key={page.path} className="grid gap-1 p-4 sm:grid-cols-[14rem_1fr] sm:gap-4">
                  <dt>
                    <Link
                      to={page.path}
                      className="font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
                    >
                      {i18n._(page.name)}
                    </Link>
                    <span className="block font-mono text-xs break-all text-slate-500">{page.path}</span>
                  </dt>
                  <dd>{i18n._(page.description)}</dd>
                </div>
              ))}
            </dl>
          </HelpSection>
        </div>
      </div>
    </>
  );
}

function HelpSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section
      id={id}
      aria-labelledby={`${id}-heading`}
      tabIndex={-1}
      className="scroll-mt-24 focus:outline-none"
    >
      <Card className="flex flex-col gap-4 p-5 text-sm leading-relaxed text-slate-700 sm:p-6">
        <h2 id={`${id}-heading`} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {children}
      </Card>
    </section>
  );
}
