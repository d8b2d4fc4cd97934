import { useLingui } from "@lingui/react/macro";
import { AuthCard } from "#client/features/auth/components/auth-card.tsx";
import { SignUpForm } from "#client/features/auth/components/sign-up-form.tsx";

/** /sign-up */
export default function SignUpPage() {
  const { t } = useLingui();
  return (
    <AuthCard title={t`Create Account`} description={t`Staff raise tickets; technicians resolve them.`}>
      <SignUpForm />
    </AuthCard>
  );
}
