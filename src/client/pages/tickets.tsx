import { Plus, SearchX } from "lucide-react";
import { useId, useState } from "react";
import { useSearchParams } from "react-router";
import type { Role } from "#shared/users/roles.ts";
import { Button } from "../components/ui/button.tsx";
import { Card } from "../components/ui/card.tsx";
import { EmptyState } from "../components/ui/empty-state.tsx";
import { PageHeader } from "../components/ui/page-header.tsx";
import { CreateTicketForm } from "../features/tickets/components/create-ticket-form.tsx";
import {
  isFiltered,
  TicketFilters,
  type TicketSearch,
  ticketSearchFrom,
  withTicketSearch,
} from "../features/tickets/components/ticket-filters.tsx";
import { TicketList } from "../features/tickets/components/ticket-list.tsx";
import { useActor } from "../lib/use-actor.ts";

/** Spec §2: the title says whose tickets these are. */
const titles: Record<Role, string> = {
  admin: "All Tickets",
  technician: "Available & Assigned Tickets",
  user: "My Tickets",
};

/** /tickets: every ticket the person may see, searchable and filtered; only users get the create button. */
export default function TicketsPage() {
  const actor = useActor();
  const formId = useId();
  const [isFormOpen, setIsFormOpen] = useState(false);
  const [searchParams, setSearchParams] = useSearchParams();
  const search = ticketSearchFrom(searchParams);
  const canOpenForm = actor?.role === "user";

  const handleSearchChange = (change: Partial<TicketSearch>) =>
    setSearchParams((current) => withTicketSearch(current, change), { replace: true });

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
        <div className="border-b border-slate-100 px-5 py-4">
          <TicketFilters value={search} onChange={handleSearchChange} />
        </div>
        <TicketList
          loadErrorMessage="Failed to fetch tickets"
          filters={{
            scope: "visible",
            status: search.status,
            priority: search.priority,
            category: search.category,
            q: search.q.trim() || undefined,
          }}
          emptyState={
            isFiltered(search) ? (
              <EmptyState
                icon={SearchX}
                title="No tickets match"
                description="Try other words or fewer filters."
                action={
                  <Button
                    variant="secondary"
                    onClick={() =>
                      handleSearchChange({
                        q: "",
                        status: undefined,
                        priority: undefined,
                        category: undefined,
                      })
                    }
                  >
                    Clear filters
                  </Button>
                }
              />
            ) : undefined
          }
        />
      </Card>
    </>
  );
}
