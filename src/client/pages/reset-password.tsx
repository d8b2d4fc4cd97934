import { useSearchParams } from "react-router";
import { AuthCard } from "../features/auth/components/auth-card.tsx";
import { ResetPasswordForm } from "../features/auth/components/reset-password-form.tsx";

/** /reset-password: the mailed link lands here with ?token=…, or with ?error=INVALID_TOKEN when it is used up. */
export default function ResetPasswordPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get("error") ? null : searchParams.get("token") || null;
  return (
    <AuthCard title="Set a new password" description="Choose the password you will sign in with from now on.">
      <ResetPasswordForm token={token} />
    </AuthCard>
  );
}
