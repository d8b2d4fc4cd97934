import { AdminSignUpForm } from "../features/auth/components/admin-sign-up-form.tsx";
import { AuthCard } from "../features/auth/components/auth-card.tsx";

/** /admin-signup: administrators register here, with the server's admin key. */
export default function AdminSignupPage() {
  return (
    <AuthCard title="Admin Registration" description="Create an administrator account for this helpdesk.">
      <AdminSignUpForm />
    </AuthCard>
  );
}
