import { AuthCard } from "../features/auth/components/auth-card.tsx";
import { SignInForm } from "../features/auth/components/sign-in-form.tsx";

/** / and /sign-in */
export default function SignInPage() {
  return (
    <AuthCard title="Sign In" description="Welcome back. Sign in to raise and follow your IT tickets.">
      <SignInForm />
    </AuthCard>
  );
}
