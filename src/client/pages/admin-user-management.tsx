import { NotAvailable } from "../components/ui/not-available.tsx";

/** /admin/user-management */
export default function AdminUserManagementPage() {
  return (
    <NotAvailable
      title="User Management"
      description="Managing user accounts is coming in a later release."
    />
  );
}
