import { useSearchParams } from "react-router";
import { PageHeader } from "../components/ui/page-header.tsx";
import { UnsubscribePanel } from "../features/notifications/components/unsubscribe-panel.tsx";

/** /unsubscribe?token=…: where a notification e-mail's unsubscribe link lands; no sign-in needed. */
export default function UnsubscribePage() {
  const [searchParams] = useSearchParams();
  return (
    <>
      <PageHeader title="Unsubscribe" />
      <UnsubscribePanel token={searchParams.get("token")} />
    </>
  );
}
