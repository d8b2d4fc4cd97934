import { Plus } from "lucide-react";
import { useId, useState } from "react";
import type { Role } from "#shared/users/roles.ts";
import { Button } from "../components/ui/button.tsx";
import { Card } from "../components/ui/card.tsx";
import { PageHeader } from "../components/ui/page-header.tsx";
import { CreateTicketForm } from "../features/tickets/components/create-ticket-form.tsx";
import { TicketList } from "../features/tickets/components/ticket-list.tsx";
import { useActor } from "../lib/use-actor.ts";

/** Spec §2: the title says whose tickets these are. */
const titles: Record<Role, string> = {
  admin: "All Tickets",
  technician: "Available & Assigned Tickets",
  user: "My Tickets",
};

/** /tickets: every ticket the person may see; only users get the create button (spec §2). */
export default function TicketsPage() {
  const actor = useActor();
  const formId = useId();
  const [isFormOpen, setIsFormOpen] = useState(false);
  const canOpenForm = actor?.role === "user";

  return (
    <>
      <PageHeader
        title={titles[actor?.role ?? "user"]}
        description="Newest first."
        actions={
          canOpenForm ? (
            <Button
              variant={isFormOpen ? "secondary" : "primary"}
              aria-expanded={isFormOpen}
              aria-controls={formId}
              onClick={() => setIsFormOpen((open) => !open)}
            >
              {isFormOpen ? null : <Plus aria-hidden="true" className="size-4" />}
              {isFormOpen ? "Hide Form" : "Create New Ticket"}
            </Button>
          ) : null
        }
      />
      <div id={formId} className={isFormOpen ? "mb-6" : undefined}>
        {canOpenForm && isFormOpen ? (
          <CreateTicketForm onCreated={() => setIsFormOpen(false)} onCancel={() => setIsFormOpen(false)} />
        ) : null}
      </div>
      <Card>
        <TicketList filters={{ scope: "visible" }} />
      </Card>
    </>
  );
}
