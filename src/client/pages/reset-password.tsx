import { useLingui } from "@lingui/react/macro";
import { AuthCard } from "#client/features/auth/components/auth-card.tsx";
import { ResetPasswordForm } from "#client/features/auth/components/reset-password-form.tsx";
import { useSearchParams } from "#client/lib/router/router.tsx";

/** /reset-password: the mailed link lands here with ?token=…, or with ?error=INVALID_TOKEN when it is used up. */
export default function ResetPasswordPage() {
  const { t } = useLingui();
  const [searchParams] = useSearchParams();
  const token = searchParams.get("error") ? null : searchParams.get("token") || null;
  return (
    <AuthCard
      title={t`Set a new password`}
      description={t`Choose the password you will sign in with from now on.`}
    >
      <ResetPasswordForm token={token} />
    </AuthCard>
  );
}
