import { useLingui } from "@lingui/react/macro";
import { Construction } from "lucide-react";
import { Card } from "./card.tsx";
import { EmptyState } from "./empty-state.tsx";
import { PageHeader } from "./page-header.tsx";

/** A screen whose route exists but whose content is not built yet: says so plainly, shows no fake data. */
export function NotAvailable({ title, description }: { title: string; description: string }) {
  const { t } = useLingui();
  return (
    <>
      <PageHeader title={title} />
      <Card>
        <EmptyState
          icon={Construction}
          titleAs="h2"
          title={t`This page is not available yet`}
          description={description}
        />
      </Card>
    </>
  );
}
