import { msg } from "@lingui/core/macro";
import { lazy } from "react";
import { type RouteObject, useRoutes } from "#client/lib/router/route-matching.tsx";
import { useLocation } from "#client/lib/router/router.tsx";
import { RedirectIfSignedIn, RequireSignIn } from "./guards.tsx";
import { RootLayout } from "./root-layout.tsx";
import { RouteErrorBoundary } from "./route-error.tsx";

// Each screen is its own chunk: the first load carries only the shell (header, guards, providers).
const SignInPage = lazy(() => import("#client/pages/sign-in.tsx"));
const SignUpPage = lazy(() => import("#client/pages/sign-up.tsx"));
const ForgotPasswordPage = lazy(() => import("#client/pages/forgot-password.tsx"));
const ResetPasswordPage = lazy(() => import("#client/pages/reset-password.tsx"));
const AdminSignupPage = lazy(() => import("#client/pages/admin-signup.tsx"));
const RoleSelectionPage = lazy(() => import("#client/pages/role-selection.tsx"));
const TwoFactorSetupPage = lazy(() => import("#client/pages/two-factor-setup.tsx"));
const UserHomePage = lazy(() => import("#client/pages/user-home.tsx"));
const TechnicianHomePage = lazy(() => import("#client/pages/technician-home.tsx"));
const AdminHomePage = lazy(() => import("#client/pages/admin-home.tsx"));
const AdminUserManagementPage = lazy(() => import("#client/pages/admin-user-management.tsx"));
const DemoUserManagementPage = lazy(() => import("#client/pages/demo-user-management.tsx"));
const TicketsPage = lazy(() => import("#client/pages/tickets.tsx"));
const TicketPage = lazy(() => import("#client/pages/ticket.tsx"));
const KnownIssuePage = lazy(() => import("#client/pages/known-issue.tsx"));
const ProfilePage = lazy(() => import("#client/pages/profile.tsx"));
const NotificationsPage = lazy(() => import("#client/pages/notifications.tsx"));
const AppHelpPage = lazy(() => import("#client/pages/app-help.tsx"));
const TestNotificationsPage = lazy(() => import("#client/pages/test-notifications.tsx"));
const DebugNotificationsPage = lazy(() => import("#client/pages/debug-notifications.tsx"));
const UnsubscribePage = lazy(() => import("#client/pages/unsubscribe.tsx"));
const CannedResponsesPage = lazy(() => import("#client/pages/canned-responses.tsx"));
const MacrosPage = lazy(() => import("#client/pages/macros.tsx"));
const ReportsPage = lazy(() => import("#client/pages/reports.tsx"));
const AdminSettingsPage = lazy(() => import("#client/pages/admin-settings.tsx"));
const AdminTeamsPage = lazy(() => import("#client/pages/admin-teams.tsx"));
const AdminAutomationPage = lazy(() => import("#client/pages/admin-automation.tsx"));
const HelpArticlesPage = lazy(() => import("#client/pages/help-articles.tsx"));
const HelpArticlePage = lazy(() => import("#client/pages/help-article.tsx"));
const HelpArticleEditorPage = lazy(() => import("#client/pages/help-article-editor.tsx"));
const HelpArticleHistoryPage = lazy(() => import("#client/pages/help-article-history.tsx"));
const HelpArticleStatsPage = lazy(() => import("#client/pages/help-article-stats.tsx"));
const NotFoundPage = lazy(() => import("#client/pages/not-found.tsx"));

/** Every route of the app, at exactly its path. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      {
        element: <RedirectIfSignedIn />,
        children: [
          { index: true, element: <SignInPage /> },
          { path: "sign-in", element: <SignInPage /> },
        ],
      },
      { path: "sign-up", element: <SignUpPage /> },
      { path: "forgot-password", element: <ForgotPasswordPage /> },
      // Where the mailed reset link lands (?token=… or ?error=INVALID_TOKEN); not in the app this
      // one replaces, which left the reset page to a hosted auth service.
      { path: "reset-password", element: <ResetPasswordPage /> },
      { path: "admin-signup", element: <AdminSignupPage /> },
      { path: "Knowledge-base", element: <AppHelpPage /> },
      { path: "demo/user-management", element: <DemoUserManagementPage /> },
      // A notification e-mail's unsubscribe link (signed token); works signed out.
      { path: "unsubscribe", element: <UnsubscribePage /> },
      {
        element: <RequireSignIn allowNoRole signInMessage={msg`Please sign in first`} />,
        children: [{ path: "role-selection", element: <RoleSelectionPage /> }],
      },
      {
        // Decision 046: where staff go when an administrator requires two-factor sign-in and they have none.
        element: <RequireSignIn isTwoFactorSetup signInMessage={msg`Please sign in first`} />,
        children: [{ path: "two-factor-setup", element: <TwoFactorSetupPage /> }],
      },
      {
        element: <RequireSignIn roles={["user", "admin"]} />,
        children: [{ path: "user-home", element: <UserHomePage /> }],
      },
      {
        element: <RequireSignIn roles={["technician"]} />,
        children: [{ path: "technician-home", element: <TechnicianHomePage /> }],
      },
      {
        element: <RequireSignIn roles={["admin"]} />,
        children: [
          { path: "admin-home", element: <AdminHomePage /> },
          // Decision 023: service levels, custom fields, departments; the server refuses everyone but admins.
          { path: "admin/settings", element: <AdminSettingsPage /> },
          // Decision 069: teams and routing rules; the server refuses everyone but admins.
          { path: "admin/teams", element: <AdminTeamsPage /> },
          // Decision 076: automation rules; the server refuses everyone but admins.
          { path: "admin/automation", element: <AdminAutomationPage /> },
        ],
      },
      {
        // Decision 013: staff tools; a user is sent to their own home.
        element: <RequireSignIn roles={["technician", "admin"]} />,
        children: [
          { path: "canned-responses", element: <CannedResponsesPage /> },
          // Decision 075: macros, staff tools like canned responses.
          { path: "macros", element: <MacrosPage /> },
          // Decision 030: writing articles and their figures; the server refuses users too.
          { path: "kb/new", element: <HelpArticleEditorPage /> },
          { path: "kb/stats", element: <HelpArticleStatsPage /> },
          { path: "kb/:slug/edit", element: <HelpArticleEditorPage /> },
          { path: "kb/:slug/history", element: <HelpArticleHistoryPage /> },
          // Decision 027: the service in charts; its charting library loads with this route only.
          { path: "reports", element: <ReportsPage /> },
        ],
      },
      {
        element: <RequireSignIn loadErrorMessage={msg`Error loading profile data`} />,
        children: [{ path: "profile", element: <ProfilePage /> }],
      },
      {
        element: <RequireSignIn />,
        children: [
          { path: "tickets", element: <TicketsPage /> },
          { path: "tickets/:ticketId", element: <TicketPage /> },
          { path: "known-issues/:ticketId", element: <KnownIssuePage /> },
          { path: "notifications", element: <NotificationsPage /> },
          // Decision 030: help articles (/Knowledge-base stays the app's own help).
          { path: "kb", element: <HelpArticlesPage /> },
          { path: "kb/:slug", element: <HelpArticlePage /> },
          { path: "admin/user-management", element: <AdminUserManagementPage /> },
          { path: "test-notifications", element: <TestNotificationsPage /> },
          { path: "debug-notifications", element: <DebugNotificationsPage /> },
        ],
      },
      { path: "*", element: <NotFoundPage /> },
    ],
  },
];

/**
 * The route table in React Router's declarative mode (inside a BrowserRouter): the data router's loaders,
 * actions and fetchers were unused and cost 17 KB gzip of the first download (decision 031). A screen that
 * throws, or whose chunk cannot be downloaded, shows RouteError; moving to another path tries again.
 */
export function AppRoutes() {
  const { pathname } = useLocation();
  const element = useRoutes(routes);
  return <RouteErrorBoundary resetKey={pathname}>{element}</RouteErrorBoundary>;
}
