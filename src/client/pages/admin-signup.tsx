import { NotAvailable } from "../components/ui/not-available.tsx";

/** /admin-signup */
export default function AdminSignupPage() {
  return (
    <NotAvailable
      title="Admin Registration"
      description="Registering an administrator account is coming in a later release."
    />
  );
}
