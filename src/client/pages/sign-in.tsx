import { useLingui } from "@lingui/react/macro";
import { AuthCard } from "#client/features/auth/components/auth-card.tsx";
import { SignInForm } from "#client/features/auth/components/sign-in-form.tsx";

/** / and /sign-in */
export default function SignInPage() {
  const { t } = useLingui();
  return (
    <AuthCard title={t`Sign In`} description={t`Welcome back. Sign in to raise and follow your IT tickets.`}>
      <SignInForm />
    </AuthCard>
  );
}
