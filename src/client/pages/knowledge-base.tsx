import { NotAvailable } from "../components/ui/not-available.tsx";

/** /Knowledge-base */
export default function KnowledgeBasePage() {
  return (
    <NotAvailable
      title="Knowledge Base"
      description="The help pages about Helpdesk are coming in a later release."
    />
  );
}
