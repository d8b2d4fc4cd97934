import { useLingui } from "@lingui/react/macro";
import { AuthCard } from "#client/features/auth/components/auth-card.tsx";
import { ForgotPasswordForm } from "#client/features/auth/components/forgot-password-form.tsx";

/** /forgot-password */
export default function ForgotPasswordPage() {
  const { t } = useLingui();
  return (
    <AuthCard
      title={t`Forgot Password`}
      description={t`Enter the e-mail of your account and we will send you a link to set a new password.`}
    >
      <ForgotPasswordForm />
    </AuthCard>
  );
}
