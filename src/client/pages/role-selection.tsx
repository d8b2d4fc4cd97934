import { NotAvailable } from "../components/ui/not-available.tsx";

/** /role-selection */
export default function RoleSelectionPage() {
  return (
    <NotAvailable
      title="Choose Your Role"
      description="Choosing a role is coming in a later release. Until then, an administrator can set your role."
    />
  );
}
