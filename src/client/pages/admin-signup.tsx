import { useLingui } from "@lingui/react/macro";
import { AdminSignUpForm } from "#client/features/auth/components/admin-sign-up-form.tsx";
import { AuthCard } from "#client/features/auth/components/auth-card.tsx";

/** /admin-signup: administrators register here, with the server's admin key. */
export default function AdminSignupPage() {
  const { t } = useLingui();
  return (
    <AuthCard
      title={t`Admin Registration`}
      description={t`Create an administrator account for this helpdesk.`}
    >
      <AdminSignUpForm />
    </AuthCard>
  );
}
