import { NotAvailable } from "../components/ui/not-available.tsx";

/** /admin-home */
export default function AdminHomePage() {
  return (
    <NotAvailable
      title="Admin Dashboard"
      description="The administrator overview, with ticket and user counts, is coming in a later release."
    />
  );
}
