import { AuthCard } from "../features/auth/components/auth-card.tsx";
import { SignUpForm } from "../features/auth/components/sign-up-form.tsx";

/** /sign-up */
export default function SignUpPage() {
  return (
    <AuthCard title="Create Account" description="Staff raise tickets; technicians resolve them.">
      <SignUpForm />
    </AuthCard>
  );
}
