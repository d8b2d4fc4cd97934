import { NotAvailable } from "../components/ui/not-available.tsx";

/** /forgot-password */
export default function ForgotPasswordPage() {
  return (
    <NotAvailable
      title="Forgot Password"
      description="Resetting a password by e-mail is coming in a later release. Until then, ask your administrator."
    />
  );
}
