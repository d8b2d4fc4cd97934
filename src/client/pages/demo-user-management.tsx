import { NotAvailable } from "../components/ui/not-available.tsx";

/** /demo/user-management */
export default function DemoUserManagementPage() {
  return (
    <NotAvailable
      title="User Management Demo"
      description="The user management demo is coming in a later release."
    />
  );
}
